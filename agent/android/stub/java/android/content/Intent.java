package android.content;

public class Intent {
    public Intent(Context packageContext, Class<?> cls) {
        throw new RuntimeException("Stub!");
    }

    public String getAction() {
        throw new RuntimeException("Stub!");
    }

    public String getStringExtra(String name) {
        throw new RuntimeException("Stub!");
    }

    public boolean hasExtra(String name) {
        throw new RuntimeException("Stub!");
    }

    public Intent setAction(String action) {
        throw new RuntimeException("Stub!");
    }

    public Intent putExtras(Intent src) {
        throw new RuntimeException("Stub!");
    }
}

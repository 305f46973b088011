package android.content;

public class ContextWrapper extends Context {
    public ContextWrapper(Context base) {
        throw new RuntimeException("Stub!");
    }

    @Override
    public ComponentName startService(Intent service) {
        throw new RuntimeException("Stub!");
    }

    @Override
    public ComponentName startForegroundService(Intent service) {
        throw new RuntimeException("Stub!");
    }
}

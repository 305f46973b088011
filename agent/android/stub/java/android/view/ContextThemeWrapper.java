package android.view;

public class ContextThemeWrapper extends android.content.ContextWrapper {
    public ContextThemeWrapper(android.content.Context base, int themeResId) {
        super(base);
        throw new RuntimeException("Stub!");
    }
}

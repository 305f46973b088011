package android.content;

/* Only what the agent uses.  See ../../../README.md. */
public abstract class Context {
    public Context() {
        throw new RuntimeException("Stub!");
    }

    public final String getString(int resId) {
        throw new RuntimeException("Stub!");
    }

    public final <T> T getSystemService(Class<T> serviceClass) {
        throw new RuntimeException("Stub!");
    }

    public abstract ComponentName startService(Intent service);

    public abstract ComponentName startForegroundService(Intent service);
}

package android.content.pm;

public abstract class PackageManager {
    public PackageManager() {
        throw new RuntimeException("Stub!");
    }

    public static class NameNotFoundException extends android.util.AndroidException {
        private static final long serialVersionUID = 0L;

        public NameNotFoundException() {
            throw new RuntimeException("Stub!");
        }
    }
}

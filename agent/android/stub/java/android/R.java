package android;

/* The framework resources the agent uses (values from android.jar, API 34). */
public final class R {
    private R() {
        throw new RuntimeException("Stub!");
    }

    public static final class drawable {
        private drawable() {
            throw new RuntimeException("Stub!");
        }

        public static final int stat_sys_download = 17301633;
    }
}

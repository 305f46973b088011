package android.util;

public class AndroidException extends Exception {
    private static final long serialVersionUID = 0L;

    public AndroidException() {
        throw new RuntimeException("Stub!");
    }
}

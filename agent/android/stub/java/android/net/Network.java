package android.net;

public class Network {
    private Network() {
        throw new RuntimeException("Stub!");
    }
}

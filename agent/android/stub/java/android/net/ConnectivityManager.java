package android.net;

import java.net.InetSocketAddress;

public class ConnectivityManager {
    private ConnectivityManager() {
        throw new RuntimeException("Stub!");
    }

    public Network getActiveNetwork() {
        throw new RuntimeException("Stub!");
    }

    public int getConnectionOwnerUid(int protocol, InetSocketAddress local, InetSocketAddress remote) {
        throw new RuntimeException("Stub!");
    }
}

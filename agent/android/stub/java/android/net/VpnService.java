package android.net;

import android.content.Context;
import android.content.Intent;
import android.content.pm.PackageManager;
import android.os.ParcelFileDescriptor;

public class VpnService extends android.app.Service {
    public VpnService() {
        throw new RuntimeException("Stub!");
    }

    public static Intent prepare(Context context) {
        throw new RuntimeException("Stub!");
    }

    public boolean protect(int socket) {
        throw new RuntimeException("Stub!");
    }

    public void onRevoke() {
        throw new RuntimeException("Stub!");
    }

    public class Builder {
        public Builder() {
            throw new RuntimeException("Stub!");
        }

        public VpnService.Builder setSession(String session) {
            throw new RuntimeException("Stub!");
        }

        public VpnService.Builder setMtu(int mtu) {
            throw new RuntimeException("Stub!");
        }

        public VpnService.Builder addAddress(String address, int prefixLength) {
            throw new RuntimeException("Stub!");
        }

        public VpnService.Builder addRoute(String address, int prefixLength) {
            throw new RuntimeException("Stub!");
        }

        public VpnService.Builder addDnsServer(String address) {
            throw new RuntimeException("Stub!");
        }

        public VpnService.Builder addAllowedApplication(String packageName)
                throws PackageManager.NameNotFoundException {
            throw new RuntimeException("Stub!");
        }

        public VpnService.Builder setBlocking(boolean blocking) {
            throw new RuntimeException("Stub!");
        }

        public ParcelFileDescriptor establish() {
            throw new RuntimeException("Stub!");
        }
    }
}

package io.github.adbscope.agent;

import android.app.Notification;
import android.app.NotificationChannel;
import android.app.NotificationManager;
import android.content.Intent;
import android.content.pm.PackageManager;
import android.net.ConnectivityManager;
import android.net.DnsResolver;
import android.net.Network;
import android.net.VpnService;
import android.os.CancellationSignal;
import android.os.ParcelFileDescriptor;
import android.util.Log;

import java.io.FileDescriptor;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * The VPN: only the watched app is routed into it.  All packet work is in
 * the native engine (agent/engine); this class supplies the platform
 * callbacks: protect(), the owner uid of a flow, and DNS through the
 * platform resolver.
 */
public final class AgentVpnService extends VpnService {
    static final String ACTION_START = "io.github.adbscope.agent.START";
    static final String ACTION_STOP = "io.github.adbscope.agent.STOP";
    static final String ACTION_DENIED = "io.github.adbscope.agent.DENIED";
    static final String EXTRA_PACKAGE = "package";
    static final String EXTRA_STOP = "stop";
    private static final String TAG = "adbscope-agent";
    // Large, so a 64 KiB window (the engine uses no window scaling) is few
    // packets: the engine's cost is per packet (bench-agent in docs/agent.md).
    // Not above 10000: LinkProperties.MAX_MTU, beyond which
    // ConnectivityService calls the MTU invalid.
    private static final int MTU = 10000;
    private static final int NOTIFICATION_ID = 1;

    static {
        System.loadLibrary("adbscope-agent");
    }

    private final Executor dnsExecutor = Executors.newSingleThreadExecutor();
    private ParcelFileDescriptor tun;
    private Thread engineThread;
    private volatile long handle;
    private ConnectivityManager connectivity;

    // The state line the desktop polls with `dumpsys activity service
    // io.github.adbscope.agent/.AgentVpnService` (docs/agent-protocol.md,
    // "Control from the desktop").  Static: ControlActivity sets
    // waiting_consent in the same process before the service exists.
    private static volatile String state = "stopped";
    private static volatile String statePackage = "";

    static void setState(String newState, String pkg) {
        state = newState;
        if (pkg != null)
            statePackage = pkg;
    }

    @Override
    protected void dump(FileDescriptor fd, PrintWriter out, String[] args) {
        out.println("  adbscope-agent state=" + state + " package=" + statePackage
                + " version=" + BuildConfig.VERSION_CODE);
    }

    @Override
    public int onStartCommand(Intent intent, int flags, int startId) {
        if (intent != null && ACTION_STOP.equals(intent.getAction())) {
            stopEngine();
            setState("stopped", null);
            stopSelf();
            return START_NOT_STICKY;
        }
        String pkg = intent != null ? intent.getStringExtra(EXTRA_PACKAGE) : null;
        if (intent != null && ACTION_DENIED.equals(intent.getAction())) {
            // Stays started (without a VPN) so dumpsys finds the state.
            setState("consent_denied", pkg);
            return START_NOT_STICKY;
        }
        if (pkg == null)
            return START_NOT_STICKY;
        if (engineThread != null) {
            // Running already: the state names the package asked for last.
            setState(state, pkg);
            return START_NOT_STICKY;
        }
        startForeground(NOTIFICATION_ID, notification());
        connectivity = getSystemService(ConnectivityManager.class);
        try {
            tun = new Builder()
                    .setSession("Adbscope")
                    .setMtu(MTU)
                    .addAddress("10.215.173.1", 30)
                    .addRoute("0.0.0.0", 0)
                    .addDnsServer("10.215.173.2")
                    .addAddress("fd00:adb5::1", 64)
                    .addRoute("::", 0)
                    .addDnsServer("fd00:adb5::2")
                    .addAllowedApplication(pkg)
                    .setBlocking(true)
                    .establish();
        } catch (PackageManager.NameNotFoundException e) {
            Log.e(TAG, "cannot set up the VPN for " + pkg, e);
            setState("error:package_not_found", pkg);
            stopForeground(STOP_FOREGROUND_REMOVE);
            return START_NOT_STICKY;
        } catch (IllegalArgumentException e) {
            Log.e(TAG, "cannot set up the VPN for " + pkg, e);
            setState("error:vpn_setup_failed", pkg);
            stopForeground(STOP_FOREGROUND_REMOVE);
            return START_NOT_STICKY;
        }
        if (tun == null) {
            // The consent was revoked between the dialog and here.
            setState("consent_denied", pkg);
            stopForeground(STOP_FOREGROUND_REMOVE);
            return START_NOT_STICKY;
        }
        setState("waiting_consent", pkg);
        final int fd = tun.getFd();
        engineThread = new Thread(() -> {
            // Returns when stopped, or 30 s after the last desktop client left.
            nativeRun(fd, MTU, "adbscope-agent", new int[] {0, 2000});
            handle = 0;
            stopEngine();
            setState("stopped", null);
            stopSelf();
        }, "adbscope-engine");
        engineThread.start();
        return START_NOT_STICKY;
    }

    @Override
    public void onRevoke() {
        stopEngine();
        super.onRevoke();
    }

    @Override
    public void onDestroy() {
        stopEngine();
        super.onDestroy();
    }

    private synchronized void stopEngine() {
        if (handle != 0)
            nativeStop(handle);
        if (engineThread != null && Thread.currentThread() != engineThread) {
            try {
                engineThread.join(2000);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }
        engineThread = null;
        if (tun != null) {
            try {
                tun.close();
            } catch (java.io.IOException ignored) {
            }
            tun = null;
        }
        stopForeground(STOP_FOREGROUND_REMOVE);
    }

    private Notification notification() {
        NotificationManager nm = getSystemService(NotificationManager.class);
        NotificationChannel ch = new NotificationChannel("agent",
                getString(R.string.notification_channel), NotificationManager.IMPORTANCE_LOW);
        nm.createNotificationChannel(ch);
        return new Notification.Builder(this, "agent")
                .setContentTitle(getString(R.string.notification_title))
                .setSmallIcon(android.R.drawable.stat_sys_download)
                .build();
    }

    /* Called from the engine thread (native). -------------------------------- */

    /** Stored by nativeRun before the loop starts. */
    void onEngineStarted(long engine) {
        handle = engine;
        setState("running", null);
    }

    boolean protectSocket(int fd) {
        return protect(fd);
    }

    int ownerUid(int protocol, byte[] src, int sport, byte[] dst, int dport) {
        try {
            return connectivity.getConnectionOwnerUid(protocol,
                    new InetSocketAddress(InetAddress.getByAddress(src), sport),
                    new InetSocketAddress(InetAddress.getByAddress(dst), dport));
        } catch (Exception e) {
            return -1;
        }
    }

    /** Answers later through nativeDnsAnswer, on the resolver's executor. */
    void resolve(final long engine, final long queryId, byte[] query) {
        Network network = connectivity.getActiveNetwork();
        DnsResolver.getInstance().rawQuery(network, query, DnsResolver.FLAG_EMPTY, dnsExecutor,
                new CancellationSignal(), new DnsResolver.Callback<byte[]>() {
                    @Override
                    public void onAnswer(byte[] answer, int rcode) {
                        nativeDnsAnswer(engine, queryId, answer);
                    }

                    @Override
                    public void onError(DnsResolver.DnsException error) {
                        nativeDnsAnswer(engine, queryId, null);
                    }
                });
    }

    private native void nativeRun(int tunFd, int mtu, String socketName, int[] allowedUids);

    private static native void nativeStop(long engine);

    private static native void nativeDnsAnswer(long engine, long queryId, byte[] answer);
}

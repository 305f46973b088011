package android.net;

import android.os.CancellationSignal;
import java.util.concurrent.Executor;

public final class DnsResolver {
    public static final int FLAG_EMPTY = 0;

    private DnsResolver() {
        throw new RuntimeException("Stub!");
    }

    public static DnsResolver getInstance() {
        throw new RuntimeException("Stub!");
    }

    public void rawQuery(Network network, byte[] query, int flags, Executor executor,
            CancellationSignal cancellationSignal, Callback<? super byte[]> callback) {
        throw new RuntimeException("Stub!");
    }

    public interface Callback<T> {
        void onAnswer(T answer, int rcode);

        void onError(DnsException error);
    }

    public static class DnsException extends Exception {
        private static final long serialVersionUID = 0L;

        private DnsException() {
            throw new RuntimeException("Stub!");
        }
    }
}

package android.os;

import java.io.Closeable;
import java.io.IOException;

public class ParcelFileDescriptor implements Closeable {
    private ParcelFileDescriptor() {
        throw new RuntimeException("Stub!");
    }

    public int getFd() {
        throw new RuntimeException("Stub!");
    }

    @Override
    public void close() throws IOException {
        throw new RuntimeException("Stub!");
    }
}

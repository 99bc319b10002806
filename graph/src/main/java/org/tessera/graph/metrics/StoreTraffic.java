package org.tessera.graph.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * Bytes this process has read from and written to stores (files, mapped chunks, object storage),
 * counted by the stores themselves. A dashboard samples the totals to show rates; the counters only
 * grow, so two samples give the bytes moved between them whatever else reads them.
 */
public final class StoreTraffic {
    private static final LongAdder READ = new LongAdder();
    private static final LongAdder WRITTEN = new LongAdder();

    private StoreTraffic() {
    }

    /** Records {@code bytes} read (or mapped to be read) from a store. */
    public static void read(long bytes) {
        READ.add(bytes);
    }

    /** Records {@code bytes} written to a store. */
    public static void written(long bytes) {
        WRITTEN.add(bytes);
    }

    public static long bytesRead() {
        return READ.sum();
    }

    public static long bytesWritten() {
        return WRITTEN.sum();
    }
}

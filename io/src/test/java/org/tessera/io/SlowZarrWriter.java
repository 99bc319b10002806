package org.tessera.io;

import java.io.IOException;
import java.io.Serial;
import java.nio.file.Path;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.io.codec.Gzip;
import org.tessera.io.store.DirectoryStore;
import org.tessera.io.store.Store;
import org.tessera.io.zarr.ArrayMetadataV2;
import org.tessera.io.zarr.Zarr;
import org.tessera.ndarray.dtype.DType;

/**
 * A separate program that stores {@link #source()} into a directory slowly, so that a test can kill
 * its JVM in the middle of the store: {@code java SlowZarrWriter <directory>}.
 */
public final class SlowZarrWriter {
    private SlowZarrWriter() {
    }

    static final long[] SHAPE = {300, 300};

    static ChunkedArray source() {
        return Creation.random(9, Creation.Distribution.NORMAL, SHAPE, ChunkSpec.of(50, 50));
    }

    static ArrayMetadataV2 metadata() {
        return ArrayMetadataV2.of(SHAPE, new long[] {50, 50}, DType.FLOAT64).withCompressor(new Gzip(1));
    }

    public static void main(String[] arguments) throws IOException {
        // Tells a killing test that the JVM is up, so that its random delays count from here.
        System.out.println("started");
        System.out.flush();
        Store store = new SlowStore(DirectoryStore.open(Path.of(arguments[0])));
        Zarr.toZarr(source(), store, "", metadata(), StoreOptions.defaults().withScheduler(ThreadedScheduler.builder().workers(2).build()));
        System.out.println("finished");
    }

    /** Waits before each write, so that a store of 36 chunks takes about a second. */
    private record SlowStore(Store inner) implements ForwardingStore {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public void set(String key, byte[] value) throws IOException {
            try {
                Thread.sleep(60);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted before writing " + key, interrupted);
            }
            inner.set(key, value);
        }
    }
}

package org.tessera.bench.workload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.tessera.array.RegionSource;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.memory.BlockPool;
import org.tessera.ndarray.memory.Scratch;

/**
 * The floor of a stored-data workload: seconds to read and decode every chunk of a stored square
 * array on all cores with no array work, one task per chunk on a pool of one thread per core, as
 * the threaded scheduler runs them. Only each chunk's size is kept, and each chunk's block goes
 * back to the block pool once read, as the scheduler gives back a decoded block it drops; so the
 * floor holds no more chunks than the pool decodes at once, and the next chunk is decoded into the
 * memory of one read before. Fresh memory for every chunk (2 GB for the R workloads' store) made
 * it twice as long here, with the launcher's 1 GB heap, as the Python tools' decode into the
 * memory that C's allocator hands back to them.
 */
final class ChunkFloor {
    private ChunkFloor() {
    }

    /** The floor of {@code source}, a 2-D array stored in square chunks of side {@code chunk}; {@code where} names it in errors. */
    static double seconds(RegionSource source, long chunk, String where) throws IOException, InterruptedException {
        return seconds(source, chunk, where, false);
    }

    /**
     * The floor of the reads in strips: every chunk read in slabs of a strip's rows, each into
     * scratch memory that the next reuses, with no array work; chunks that have no slabs (a codec
     * that decodes only whole frames) are read whole. Reductions and scans read stored blocks this
     * way, so it is the least such an operation over the whole store can take, and below the whole
     * chunks' floor where the slabs stay in cache.
     */
    static double slabSeconds(RegionSource source, long chunk, String where) throws IOException, InterruptedException {
        return seconds(source, chunk, where, true);
    }

    /** Reads {@code size} at {@code from} whole, gives its block back to the pool, and returns its elements. */
    private static long readWhole(RegionSource source, long[] from, long[] size) {
        NDArray block = source.read(from, size);
        long elements = block.size();
        BlockPool.giveBack(block.segment());
        return elements;
    }

    /** Reads {@code size} at {@code from} in slabs of a strip's rows, and returns its elements. */
    private static long readInSlabs(RegionSource source, long[] from, long[] size) throws Exception {
        Optional<RegionSource.SlabReader> slabs = source.slabs(from, size);
        if (slabs.isEmpty()) {
            return source.read(from, size).size();
        }
        long rows = DeferredBlock.stripRows(size[1]);
        long elements = 0;
        Scratch scratch = Scratch.borrow();
        try (RegionSource.SlabReader reader = slabs.get()) {
            for (long row = 0; row < size[0]; row += rows) {
                long first = row;
                elements += scratch.call(() -> reader.slab(first, Math.min(rows, size[0] - first)).size());
                scratch.reset();
            }
        } finally {
            scratch.giveBack();
        }
        return elements;
    }

    private static double seconds(RegionSource source, long chunk, String where, boolean inSlabs) throws IOException, InterruptedException {
        long[] shape = source.shape();
        int threads = Runtime.getRuntime().availableProcessors();
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<Long>> reads = new ArrayList<>();
            for (long row = 0; row < shape[0]; row += chunk) {
                for (long column = 0; column < shape[1]; column += chunk) {
                    long[] from = {row, column};
                    long[] size = {Math.min(chunk, shape[0] - row), Math.min(chunk, shape[1] - column)};
                    reads.add(pool.submit(() -> inSlabs ? readInSlabs(source, from, size) : readWhole(source, from, size)));
                }
            }
            for (Future<Long> read : reads) {
                read.get();
            }
        } catch (ExecutionException failure) {
            throw new IOException("reading the chunks of " + where + " failed: " + failure.getCause(), failure.getCause());
        }
        return (System.nanoTime() - start) / 1e9;
    }
}

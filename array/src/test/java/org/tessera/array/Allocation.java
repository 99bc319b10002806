package org.tessera.array;

import java.lang.management.ManagementFactory;

import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;

/**
 * What computing an array allocates, for tests that show a path's memory: the array is computed once
 * on the calling thread to load and warm its code, then again while the thread's allocated bytes are
 * counted.
 *
 * @param result the second computation's result
 * @param bytes  the bytes the second computation allocated
 */
public record Allocation(NDArray result, long bytes) {

    public static Allocation ofSecondCompute(ChunkedArray array) {
        array.compute(new SynchronousScheduler());
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        NDArray result = array.compute(new SynchronousScheduler());
        return new Allocation(result, threads.getCurrentThreadAllocatedBytes() - before);
    }

    /** The bytes in whole megabytes, for messages. */
    public long megabytes() {
        return bytes >> 20;
    }
}

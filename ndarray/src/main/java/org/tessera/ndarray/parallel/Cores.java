package org.tessera.ndarray.parallel;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.RecursiveTask;
import java.util.function.DoubleSupplier;

/**
 * Runs one large in-memory operation on every core. A streaming kernel on one core reads memory
 * at about half of what two cores read on the machines measured (a pairwise sum of 10^8 float64:
 * 48 ms on one core, 27 ms on two), so an operation over at least {@link #SPLIT_ELEMENTS} elements is
 * cut into ranges that a pool of one thread per core runs at once. Below that the operation stays
 * on its caller: the chunked schedulers already keep every core busy with blocks, and a block of
 * the usual sizes (a few million elements) never splits. The pool holds as many threads as there
 * are cores, and a caller waits for its ranges rather than running beside them, so however many
 * threads call at once, no more threads than cores run kernels for them.
 *
 * <p>{@code -Dtessera.kernel.threads=N} sets the pool's size; 1 keeps every operation on its
 * caller.
 */
public final class Cores {
    private Cores() {}

    /** Operations over fewer elements run on their caller: 8 Mi elements, 64 MiB of float64. */
    public static final long SPLIT_ELEMENTS = 1L << 23;

    /** The smallest range worth a task of its own: a millisecond or so of streaming. */
    private static final long MIN_RANGE = 1L << 20;

    /** Ranges start on multiples of this many elements, so that vector loops begin on whole vectors. */
    private static final long ALIGNMENT = 64;

    private static final int THREADS = Math.max(1, Integer.getInteger("tessera.kernel.threads", Runtime.getRuntime().availableProcessors()));

    private static final ForkJoinPool POOL = THREADS == 1 ? null : new ForkJoinPool(THREADS, pool -> {
        ForkJoinWorkerThread thread = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
        thread.setName("tessera-kernel-" + thread.getPoolIndex());
        thread.setDaemon(true);
        return thread;
    }, null, false);

    /** A body over the elements {@code [from, to)} of an operation. */
    @FunctionalInterface
    public interface Range {
        void run(long from, long to);
    }

    /** How many threads one operation may use. */
    public static int threads() {
        return THREADS;
    }

    /** Whether an operation over {@code elements} elements is split across the cores. */
    public static boolean splits(long elements) {
        return POOL != null && elements >= SPLIT_ELEMENTS;
    }

    /**
     * Runs {@code body} over {@code [0, count)}: on the cores in ranges of about a quarter of a core's
     * share each (so that a core slowed by its neighbours does not hold up the rest), or whole on
     * this thread when {@link #splits} says no. Every element is in exactly one range.
     */
    public static void forRanges(long count, Range body) {
        if (!splits(count)) {
            body.run(0, count);
            return;
        }
        long range = Math.max(MIN_RANGE, count / (4L * THREADS));
        run(new Ranges(body, 0, count, range));
    }

    /**
     * {@code left.getAsDouble() + right.getAsDouble()}, the two computed at once on the pool: the
     * sum is the same as the sequential one, added in that order.
     */
    public static double sum(DoubleSupplier left, DoubleSupplier right) {
        if (POOL == null) {
            return left.getAsDouble() + right.getAsDouble();
        }
        return run(new Sum(left, right));
    }

    private static <T> T run(ForkJoinTask<T> task) {
        // Inside the pool (a range that splits again) the task runs on this worker, forking as it goes.
        return ForkJoinTask.getPool() == POOL ? task.invoke() : POOL.invoke(task);
    }

    private static final class Ranges extends RecursiveAction {
        private final Range body;
        private final long from;
        private final long to;
        private final long range;

        Ranges(Range body, long from, long to, long range) {
            this.body = body;
            this.from = from;
            this.to = to;
            this.range = range;
        }

        @Override
        protected void compute() {
            long middle = from + (to - from) / 2 / ALIGNMENT * ALIGNMENT;
            if (to - from <= range || middle == from) {
                body.run(from, to);
                return;
            }
            invokeAll(new Ranges(body, from, middle, range), new Ranges(body, middle, to, range));
        }
    }

    private static final class Sum extends RecursiveTask<Double> {
        private final DoubleSupplier left;
        private final DoubleSupplier right;

        Sum(DoubleSupplier left, DoubleSupplier right) {
            this.left = left;
            this.right = right;
        }

        @Override
        protected Double compute() {
            ForkJoinTask<Double> second = ForkJoinTask.adapt(right::getAsDouble).fork();
            double first = left.getAsDouble();
            return first + second.join();
        }
    }
}

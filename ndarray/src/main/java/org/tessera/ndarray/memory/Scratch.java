package org.tessera.ndarray.memory;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reusable memory for arrays that live only while one short computation runs. Inside
 * {@link #call}, every array the NDArray layer allocates on this thread is carved from this
 * scratch's slabs; {@link #reset} then takes it all back at once. A loop over the parts of a block
 * reuses the same few hundred kilobytes, which stay in the core's cache, where fresh arrays would
 * each pull new memory through it (a fresh heap array is always cold: the allocator moves on).
 * Nothing allocated inside may be used after the reset: callers copy what they keep.
 *
 * <p>{@link #borrow} and {@link #giveBack} keep a few idle scratches for the next computation, so
 * that a task does not allocate and zero its slabs anew: a pool rather than one per thread, since
 * schedulers may run each task on a thread of its own.
 */
public final class Scratch {
    // A thread local rather than a scoped value: it is read on every allocation, and a scoped
    // value's lookup measured far slower there while bindings come and go once per part.
    private static final ThreadLocal<Scratch> CURRENT = new ThreadLocal<>();
    /** The scratch of the task running on this thread, entered through {@link #callForTask}: see {@link #forTask}. */
    private static final ThreadLocal<Scratch> TASK = new ThreadLocal<>();
    private static final long SLAB_BYTES = 1 << 20;
    private static final long ALIGNMENT = 64;

    /**
     * The most idle scratches kept: enough for every core to have the three a task may nest (one
     * around tasks that share blocks, the task's, its strips') in use and one waiting. A scratch
     * given back to a full pool is dropped with its slabs, and the next task allocates them anew.
     */
    private static final int IDLE_LIMIT = 4 * Runtime.getRuntime().availableProcessors();
    // Last in, first out: the scratch given back last has its slabs warmest in the cache.
    private static final ConcurrentLinkedDeque<Scratch> IDLE = new ConcurrentLinkedDeque<>();
    private static final AtomicInteger IDLE_COUNT = new AtomicInteger();

    /** The arrays behind every scratch's slabs, so that memory can be told apart from the heap's (see {@link #holds}). */
    private static final Set<Object> SLAB_ARRAYS = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    private final List<MemorySegment> slabs = new ArrayList<>();
    /** What the running task opened for its parts and leaves open until it ends (see {@link #closeAtTaskEnd}). */
    private final List<AutoCloseable> openForTask = new ArrayList<>();
    private int slab;
    private long used;
    /**
     * How far into each slab the computation that borrowed this scratch has carved, over all its
     * resets: what it holds of the slabs, which {@link Allocations} counts as it grows (the slabs
     * themselves outlive the computation, in the pool).
     */
    private long[] reached = new long[4];

    /** An idle scratch with its slabs, or a new one; {@link #giveBack} it when done. */
    public static Scratch borrow() {
        return borrow(false);
    }

    /**
     * The idle scratch with the most memory in its slabs, or a new one: for a scope that keeps
     * whole blocks for the tasks inside it, while those tasks take the others. Taken in turn, the
     * large slabs of one kind of use would otherwise end up in every scratch of the pool.
     */
    public static Scratch borrowLargest() {
        return borrow(true);
    }

    private static Scratch borrow(boolean largest) {
        // The one given back last (the warmest in the cache, and the likeliest to fit a task like the last), or the largest.
        Scratch idle;
        if (largest) {
            idle = IDLE.peekFirst();
            for (Scratch candidate : IDLE) {
                if (candidate.capacity() > idle.capacity()) {
                    idle = candidate;
                }
            }
            if (idle != null && !IDLE.removeFirstOccurrence(idle)) {
                idle = null;
            }
        } else {
            idle = IDLE.pollFirst();
        }
        if (idle == null) {
            return new Scratch();
        }
        IDLE_COUNT.decrementAndGet();
        java.util.Arrays.fill(idle.reached, 0);
        return idle;
    }

    /** The bytes of this scratch's slabs. */
    private long capacity() {
        long bytes = 0;
        for (MemorySegment held : slabs) {
            bytes += held.byteSize();
        }
        return bytes;
    }

    /** Resets this scratch and keeps it for the next {@link #borrow}, unless enough are idle already. */
    public void giveBack() {
        reset();
        if (IDLE_COUNT.incrementAndGet() <= IDLE_LIMIT) {
            IDLE.offerFirst(this);
        } else {
            IDLE_COUNT.decrementAndGet();
        }
    }

    /** The scratch this thread allocates from now, or null. */
    static Scratch current() {
        return CURRENT.get();
    }

    /** Runs {@code computation} with this thread's allocations taken from this scratch. */
    public <T> T call(Callable<T> computation) throws Exception {
        Scratch outer = CURRENT.get();
        CURRENT.set(this);
        try {
            return computation.call();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    /**
     * {@link #call}, with this scratch as the one that lasts the whole task: what the task keeps
     * across the scratches it resets on the way goes here (see {@link #forTask}).
     */
    public <T> T callForTask(Callable<T> computation) throws Exception {
        Scratch outer = TASK.get();
        TASK.set(this);
        try {
            return call(computation);
        } finally {
            if (outer == null) {
                TASK.remove();
            } else {
                TASK.set(outer);
            }
            closeOpenedForTask();
        }
    }

    /**
     * Closes {@code resource} when the running task ({@link #callForTask}) ends, or leaves it to the
     * caller where no task runs in a scratch: for what a deferred value opens to serve parts and
     * cannot tell when its last part was asked, such as a stored chunk's slab reader with its
     * decoding window, which goes back to its pool for the next task.
     */
    public static void closeAtTaskEnd(AutoCloseable resource) {
        Scratch task = TASK.get();
        if (task != null) {
            task.openForTask.add(resource);
        }
    }

    private void closeOpenedForTask() throws Exception {
        Exception failure = null;
        for (int index = openForTask.size() - 1; index >= 0; index--) {
            try {
                openForTask.get(index).close();
            } catch (Exception closing) {
                if (failure == null) {
                    failure = closing;
                } else {
                    failure.addSuppressed(closing);
                }
            }
        }
        openForTask.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Runs {@code computation} with this thread's allocations in the scratch of the running task
     * ({@link #callForTask}), or on the ordinary heap where there is none: for a value kept across
     * the parts a caller asks one by one, such as a stored chunk decoded whole, that must outlive
     * the resets of the strips' scratch but not the task. A whole chunk then reuses the memory the
     * previous task decoded into, where a fresh one (32 MB of float64 for a 2000 x 2000 chunk) is
     * zeroed, takes contiguous regions of the collector's and is left to it.
     */
    public static <T> T forTask(Callable<T> computation) throws Exception {
        Scratch task = TASK.get();
        return task == null ? outside(computation) : task.call(computation);
    }

    /**
     * Runs {@code computation} with this thread's allocations on the ordinary heap, even inside a
     * scratch's call: for what must outlive that scratch's next reset, such as a value cached across
     * the parts a caller asks one by one.
     */
    public static <T> T outside(Callable<T> computation) throws Exception {
        Scratch current = CURRENT.get();
        CURRENT.remove();
        try {
            return computation.call();
        } finally {
            if (current != null) {
                CURRENT.set(current);
            }
        }
    }

    /**
     * As {@link #outside}, for a computation that throws no checked exception: a value a cache
     * keeps across tasks (a ufunc's identity or weak scalar), made wherever it is first asked for.
     */
    public static <T> T outsideOf(java.util.function.Supplier<T> computation) {
        try {
            return outside(computation::get);
        } catch (RuntimeException | Error unchecked) {
            throw unchecked;
        } catch (Exception impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /**
     * Whether {@code segment} is memory of some scratch's slabs, which a later reset hands out
     * again: what a computation keeps from it must be copied. Anything else is the heap's or
     * native memory of its own, and may be kept as it is.
     */
    public static boolean holds(MemorySegment segment) {
        Object base = segment.heapBase().orElse(null);
        return base != null && SLAB_ARRAYS.contains(base);
    }

    /** Takes back everything allocated since the last reset; the slabs stay for the next round. */
    public void reset() {
        slab = 0;
        used = 0;
    }

    /** Storage from the slabs, at multiples of 64 bytes, zero-filled when asked; a new slab when the current ones are full. */
    MemorySegment allocate(long byteSize, boolean zeroed) {
        long size = Math.max(ALIGNMENT, (byteSize + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT);
        while (slab < slabs.size() && used + size > slabs.get(slab).byteSize()) {
            slab++;
            used = 0;
        }
        if (slab == slabs.size()) {
            // Heap slabs like the arrays they stand in for: kernels compiled for heap segments stay monomorphic.
            // A whole number of SLAB_BYTES: arrays of a strip's size and of the last, shorter strip then take
            // slabs of one size, which the next task reuses, rather than slabs of each size side by side.
            long slabBytes = Math.ceilDiv(size, SLAB_BYTES) * SLAB_BYTES;
            long[] array = new long[(int) ((slabBytes <= Memory.MAX_HEAP_BYTES ? slabBytes : size) / Long.BYTES)];
            SLAB_ARRAYS.add(array);
            slabs.add(MemorySegment.ofArray(array));
            if (slabs.size() > reached.length) {
                reached = java.util.Arrays.copyOf(reached, 2 * slabs.size());
            }
            used = 0;
        }
        MemorySegment storage = slabs.get(slab).asSlice(used, byteSize);
        used += size;
        if (used > reached[slab]) {
            Allocations.record(used - reached[slab]);
            reached[slab] = used;
        }
        return zeroed ? storage.fill((byte) 0) : storage;
    }
}

package org.tessera.ndarray.memory;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Native memory for the arrays a task hands to native code: the operands of a run of block
 * products and the sum BLAS adds them into, the native copies of heap operands a single product
 * is given, the buffers a codec lays a chunk out and compresses it in. One pool for all of them,
 * so that what waits idle is bounded once for the process. BLAS reads and writes native memory
 * where it lies; heap arrays it is given are copied to native memory and back around every call
 * (four copies of 32 MB for each 2000 x 2000 float64 product added into a sum). The buffers are
 * kept between tasks: fresh memory costs a page fault per page, which a virtual machine that hands
 * freed memory back to its host makes dearer than the copies.
 *
 * <p>A {@link Lease} hands out memory from pooled buffers and gives every one back when it closes:
 * nothing taken from it may be read after that. Buffers up to {@link #POOLED_LIMIT} wait idle for
 * the next lease, at most {@link #IDLE_LIMIT} of them and {@link #IDLE_BYTES_LIMIT} bytes (the ones
 * idle longest make room); a lease
 * gets the smallest that fits, so a small request leaves the large buffers to the large ones.
 * Larger buffers are left to the collector.
 */
public final class NativeBuffers {
    /** Smaller arrays are not worth a buffer: native calls take them in place, or their copies cost little. */
    public static final long MIN_BYTES = 1 << 20;
    static final long POOLED_LIMIT = 256L << 20;
    static final int IDLE_LIMIT = 4 * Runtime.getRuntime().availableProcessors();
    /** The most bytes kept idle: two cores' W2 groups hold six buffers of 32 MB. */
    static final long IDLE_BYTES_LIMIT = 512L << 20;

    private static final ConcurrentLinkedDeque<MemorySegment> IDLE = new ConcurrentLinkedDeque<>();
    private static final AtomicInteger IDLE_COUNT = new AtomicInteger();
    private static final AtomicLong IDLE_BYTES = new AtomicLong();

    private NativeBuffers() {
    }

    /** A new lease; close it to give its buffers back. */
    public static Lease lease() {
        return new Lease();
    }

    /**
     * A buffer of at least {@code byteSize} bytes of native memory holding whatever it held before:
     * the smallest idle one large enough where there is one, else new memory. Not counted here: a
     * {@link Lease} counts what it holds (see {@link Holding}).
     */
    static MemorySegment take(long byteSize) {
        while (byteSize <= POOLED_LIMIT) {
            MemorySegment fit = null;
            for (MemorySegment buffer : IDLE) {
                if (buffer.byteSize() >= byteSize && (fit == null || buffer.byteSize() < fit.byteSize())) {
                    fit = buffer;
                }
            }
            if (fit == null) {
                break;
            }
            // Another thread may have taken it since: then look again.
            if (IDLE.removeFirstOccurrence(fit)) {
                IDLE_COUNT.decrementAndGet();
                IDLE_BYTES.addAndGet(-fit.byteSize());
                return fit;
            }
        }
        return Memory.nativeHuge(byteSize);
    }

    /** Takes back a buffer {@link #take} gave out, whole: its next taker overwrites it. */
    static void giveBack(MemorySegment buffer) {
        if (buffer.byteSize() > POOLED_LIMIT) {
            return;
        }
        IDLE.addFirst(buffer);
        IDLE_COUNT.incrementAndGet();
        IDLE_BYTES.addAndGet(buffer.byteSize());
        // Past either limit the buffers idle longest go: the one just given back is the likeliest to be asked again.
        while (IDLE_COUNT.get() > IDLE_LIMIT || IDLE_BYTES.get() > IDLE_BYTES_LIMIT) {
            MemorySegment oldest = IDLE.pollLast();
            if (oldest == null) {
                break;
            }
            IDLE_COUNT.decrementAndGet();
            IDLE_BYTES.addAndGet(-oldest.byteSize());
        }
    }

    /** The buffers waiting idle. */
    static int idleCount() {
        return IDLE_COUNT.get();
    }

    /** The bytes of the buffers waiting idle. */
    static long idleBytes() {
        return IDLE_BYTES.get();
    }

    /**
     * What one thread's open leases hold, counted in {@link Allocations} at its most since the
     * outermost of them opened, as a new array would be counted: a buffer given back and taken
     * again inside that scope is the same memory, and counts once. A group of block products
     * leases each product's operands and BLAS its copies, product after product, from the same
     * few buffers; counted at every lease, a group of three 320 KB products measured 2.56 MB, above
     * the plan that counts one product's buffers (the measured peak passed the projected one in
     * about one run in five of {@code DeclaredFootprintsOfReductionsTest}).
     */
    private static final class Holding {
        private int open;
        private long held;
        private long counted;

        void hold(long bytes) {
            held += bytes;
            if (held > counted) {
                Allocations.record(held - counted);
                counted = held;
            }
        }

        void release(long bytes) {
            held -= bytes;
        }

        void opened() {
            open++;
        }

        void closed() {
            if (--open == 0) {
                held = 0;
                counted = 0;
            }
        }
    }

    private static final ThreadLocal<Holding> HOLDING = ThreadLocal.withInitial(Holding::new);

    /** Memory from pooled native buffers, all given back on {@link #close}; for one thread, which opens and closes it. */
    public static final class Lease implements AutoCloseable {
        private final List<MemorySegment> taken = new ArrayList<>();
        private final Holding holding = HOLDING.get();
        private long leased;
        private boolean closed;

        private Lease() {
            holding.opened();
        }

        /** {@code byteSize} bytes of a pooled buffer, 64-byte aligned, holding whatever the buffer held. */
        public MemorySegment segment(long byteSize) {
            if (byteSize < 0) {
                throw new IllegalArgumentException("cannot lease a negative number of bytes: " + byteSize);
            }
            if (closed) {
                throw new IllegalStateException("this lease gave its buffers back already");
            }
            MemorySegment buffer = take(Math.max(1, byteSize));
            taken.add(buffer);
            leased += byteSize;
            holding.hold(byteSize);
            return buffer.asSlice(0, byteSize);
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            for (MemorySegment buffer : taken) {
                giveBack(buffer);
            }
            taken.clear();
            holding.release(leased);
            holding.closed();
        }
    }
}

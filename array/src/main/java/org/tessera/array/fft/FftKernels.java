package org.tessera.array.fft;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.fft.Fft;
import org.tessera.ndarray.fft.FftNorm;

/**
 * What the tasks of a chunked transform do to one block: unscaled transforms of every line along
 * an axis (through the NDArray {@link Fft}), and in-place multiplications of a complex block by
 * roots of unity that depend on the global positions of its elements (the four-step twiddles,
 * Bluestein's chirp). Blocks are complex64 or complex128; the multiplications run in double
 * precision and round once.
 */
final class FftKernels {
    private FftKernels() {
    }

    /**
     * The transform of every line of {@code block} along {@code axis}, unscaled ({@code forward}:
     * NumPy's fft, else NumPy's ifft times n), then multiplied by {@code scale}; a new array.
     */
    static NDArray lines(NDArray block, int axis, boolean forward, double scale) {
        // The norm that leaves the direction asked for unscaled: "backward" for a forward transform, "forward" for an inverse.
        NDArray result = forward ? Fft.fft(block, null, axis, FftNorm.BACKWARD) : Fft.ifft(block, null, axis, FftNorm.FORWARD);
        if (scale != 1.0) {
            result = writable(result);
            multiplyInPlace(result, scale);
        }
        return result;
    }

    /** {@code block} itself when it is a C-contiguous writeable complex array, otherwise a C-ordered copy. */
    static NDArray writable(NDArray block) {
        return block.isCContiguous() && block.isWriteable() ? block : block.copy();
    }

    static void multiplyInPlace(NDArray block, double scale) {
        MemorySegment memory = block.segment();
        long base = block.byteOffset();
        long values = 2 * block.size();
        if (block.dtype() == DType.COMPLEX128) {
            for (long index = 0; index < values; index++) {
                long at = base + 8 * index;
                memory.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at, memory.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at) * scale);
            }
        } else {
            requireComplex(block);
            for (long index = 0; index < values; index++) {
                long at = base + 4 * index;
                memory.set(ValueLayout.JAVA_FLOAT_UNALIGNED, at, (float) (memory.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at) * scale));
            }
        }
    }

    /**
     * Multiplies element {@code (.., k, .., m, ..)} of a C-contiguous writeable complex block by
     * {@code scale * root(kGlobal * mGlobal)}, where {@code kGlobal = kStart + k} along
     * {@code kAxis} and {@code mGlobal = mStart + m} along {@code mAxis}: the four-step twiddle
     * {@code exp(-+2 pi i n2 k1 / N)}.
     */
    static void twiddle(NDArray block, int kAxis, long kStart, int mAxis, long mStart, UnitRoots roots, double scale) {
        requireComplex(block);
        long[] shape = block.shape();
        int first = Math.min(kAxis, mAxis);
        int second = Math.max(kAxis, mAxis);
        long outer = product(shape, 0, first);
        long firstLength = shape[first];
        long middle = product(shape, first + 1, second);
        long secondLength = shape[second];
        long inner = product(shape, second + 1, shape.length);
        boolean kFirst = kAxis == first;
        long n = roots.order();
        double[] root = new double[2];
        boolean doubles = block.dtype() == DType.COMPLEX128;
        MemorySegment memory = block.segment();
        long itemBytes = doubles ? 16 : 8;
        long element = 0;
        for (long o = 0; o < outer; o++) {
            for (long i = 0; i < firstLength; i++) {
                for (long md = 0; md < middle; md++) {
                    long firstGlobal = (kFirst ? kStart : mStart) + i;
                    for (long j = 0; j < secondLength; j++) {
                        long secondGlobal = (kFirst ? mStart : kStart) + j;
                        roots.root(UnitRoots.multiplyMod(firstGlobal, secondGlobal, n), root, 0);
                        double wr = root[0] * scale;
                        double wi = root[1] * scale;
                        long at = block.byteOffset() + element * itemBytes;
                        multiplyRun(memory, at, inner, wr, wi, doubles);
                        element += inner;
                    }
                }
            }
        }
    }

    /**
     * Multiplies element {@code m} along {@code axis} of a C-contiguous writeable complex block by
     * {@code scale * root(g^2 mod 2n)} with {@code g = start + m}: Bluestein's chirp
     * {@code exp(-+pi i g^2 / n)} ({@code roots} of order 2n).
     */
    static void chirp(NDArray block, int axis, long start, UnitRoots roots, double scale) {
        requireComplex(block);
        long[] shape = block.shape();
        long outer = product(shape, 0, axis);
        long length = shape[axis];
        long inner = product(shape, axis + 1, shape.length);
        long twoN = roots.order();
        double[] root = new double[2];
        boolean doubles = block.dtype() == DType.COMPLEX128;
        long itemBytes = doubles ? 16 : 8;
        MemorySegment memory = block.segment();
        long element = 0;
        for (long o = 0; o < outer; o++) {
            for (long m = 0; m < length; m++) {
                long global = Math.floorMod(start + m, twoN);
                roots.root(UnitRoots.multiplyMod(global, global, twoN), root, 0);
                multiplyRun(memory, block.byteOffset() + element * itemBytes, inner, root[0] * scale, root[1] * scale, doubles);
                element += inner;
            }
        }
    }

    /** Negates the imaginary parts of a C-contiguous writeable complex block. */
    static void conjugateInPlace(NDArray block) {
        requireComplex(block);
        boolean doubles = block.dtype() == DType.COMPLEX128;
        MemorySegment memory = block.segment();
        long base = block.byteOffset();
        for (long index = 0; index < block.size(); index++) {
            if (doubles) {
                long at = base + 16 * index + 8;
                memory.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, at, -memory.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, at));
            } else {
                long at = base + 8 * index + 4;
                memory.set(ValueLayout.JAVA_FLOAT_UNALIGNED, at, -memory.get(ValueLayout.JAVA_FLOAT_UNALIGNED, at));
            }
        }
    }

    /** Multiplies {@code count} consecutive complex values at byte {@code at} by {@code wr + i wi}. */
    private static void multiplyRun(MemorySegment memory, long at, long count, double wr, double wi, boolean doubles) {
        if (doubles) {
            for (long index = 0; index < count; index++) {
                long re = at + 16 * index;
                double xr = memory.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, re);
                double xi = memory.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, re + 8);
                memory.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, re, xr * wr - xi * wi);
                memory.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, re + 8, xr * wi + xi * wr);
            }
        } else {
            for (long index = 0; index < count; index++) {
                long re = at + 8 * index;
                double xr = memory.get(ValueLayout.JAVA_FLOAT_UNALIGNED, re);
                double xi = memory.get(ValueLayout.JAVA_FLOAT_UNALIGNED, re + 4);
                memory.set(ValueLayout.JAVA_FLOAT_UNALIGNED, re, (float) (xr * wr - xi * wi));
                memory.set(ValueLayout.JAVA_FLOAT_UNALIGNED, re + 4, (float) (xr * wi + xi * wr));
            }
        }
    }

    private static long product(long[] shape, int from, int to) {
        long product = 1;
        for (int axis = from; axis < to; axis++) {
            product *= shape[axis];
        }
        return product;
    }

    private static void requireComplex(NDArray block) {
        if (block.dtype() != DType.COMPLEX128 && block.dtype() != DType.COMPLEX64) {
            throw new IllegalStateException("a chunked FFT step got a block of dtype " + block.dtype() + ", not complex64 or complex128");
        }
        if (!block.isCContiguous() || !block.isWriteable()) {
            throw new IllegalStateException("a chunked FFT step got a block that is not C-contiguous and writeable");
        }
    }
}

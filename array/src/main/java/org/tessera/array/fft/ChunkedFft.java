package org.tessera.array.fft;

import org.tessera.array.ChunkedArray;
import org.tessera.array.fft.AxisTransform.Kind;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.ndarray.fft.Fft;
import org.tessera.ndarray.fft.FftAxes;
import org.tessera.ndarray.fft.FftNorm;

/**
 * NumPy's {@code numpy.fft} on chunked arrays, along any axis whatever its chunking: Dask's
 * {@code dask.array.fft} requires the transformed axis to be one block; here an axis of several
 * blocks is transformed across them (the four-step decomposition, or Bluestein's algorithm for a
 * prime length), so an array larger than memory can be transformed with bounded memory per task.
 *
 * <pre>{@code
 * ChunkedArray spectrum = ChunkedFft.fft2(x);                          // over the last two axes
 * ChunkedArray lines = ChunkedFft.fft(x, null, 0, FftNorm.ORTHO);     // along axis 0, blocked or not
 * }</pre>
 *
 * <p>Arguments as NumPy's and the NDArray {@link Fft}'s: {@code n} (or each {@code s[i]}) crops or
 * zero-pads the input along its axis (null: the axis length; for irfft {@code 2 (m - 1)}; -1 in
 * {@code s}: the axis length), negative axes count from the end, a null norm is "backward". Result
 * dtypes as NumPy's (complex128 for float64 and integer input, complex64 for float32; irfft
 * float64 or float32), and errors as the NDArray functions raise them, at once, before anything is
 * computed. Several axes are successive one-axis transforms, in NumPy's order.
 *
 * <p>How an axis is transformed, and the blocks of the result (stated before anything runs):
 * <ul>
 *   <li>the axis is one block: each block is transformed by the NDArray function (as Dask); the
 *       result keeps the blocks of the other axes, and the transformed axis is one block of the
 *       output length;</li>
 *   <li>the axis spans several blocks: the four-step decomposition N = N1 N2 (three rechunks under
 *       the task memory limit, the transposes of the algorithm), or for a prime N a rechunk to
 *       whole lines when a line fits a block and Bluestein's algorithm across blocks otherwise.
 *       The result has the input's blocks: along the axis those of the input, cut at {@code n} or
 *       followed by blocks of the input's largest block length up to {@code n} (rfft: those of the
 *       full transform cut at {@code n/2 + 1}; irfft: blocks of the input's largest block length).</li>
 * </ul>
 * No task holds more than {@code taskMemoryBytes} (default {@link #DEFAULT_TASK_MEMORY_BYTES}): a
 * block holds a quarter of it, and both factors N1, N2 must fit a block, so an axis may be up to
 * the square of that many elements long; beyond, the call fails naming the shape, the blocks, the
 * axis and the limit. Under a {@code ThreadedScheduler} with a memory budget, blocks that wait
 * between the steps are spilled to disk, so arrays larger than memory transform in bounded memory;
 * for arrays in a store, transforming one axis per pass through an intermediate store (each pass
 * reading whole lines, as {@code org.tessera.io.zarr.ZarrFft} does) moves less data.
 */
public final class ChunkedFft {
    /** The default memory of one task, inputs and output together (that of {@link Rechunk}). */
    public static final long DEFAULT_TASK_MEMORY_BYTES = Rechunk.DEFAULT_TASK_MEMORY_BYTES;

    private ChunkedFft() {
    }

    // ---------------------------------------------------------------- one axis

    /** NumPy's {@code fft(a)}: the forward transform along the last axis. */
    public static ChunkedArray fft(ChunkedArray a) {
        return fft(a, null, -1, FftNorm.BACKWARD);
    }

    /** NumPy's {@code fft(a, n, axis, norm)}. */
    public static ChunkedArray fft(ChunkedArray a, Long n, int axis, FftNorm norm) {
        return fft(a, n, axis, norm, DEFAULT_TASK_MEMORY_BYTES);
    }

    /** As {@link #fft(ChunkedArray, Long, int, FftNorm)}, no task holding more than {@code taskMemoryBytes}. */
    public static ChunkedArray fft(ChunkedArray a, Long n, int axis, FftNorm norm, long taskMemoryBytes) {
        return AxisTransform.transform(Kind.FFT, a, n, axis, norm, taskMemoryBytes);
    }

    /** NumPy's {@code ifft(a)}: the inverse transform along the last axis. */
    public static ChunkedArray ifft(ChunkedArray a) {
        return ifft(a, null, -1, FftNorm.BACKWARD);
    }

    /** NumPy's {@code ifft(a, n, axis, norm)}. */
    public static ChunkedArray ifft(ChunkedArray a, Long n, int axis, FftNorm norm) {
        return ifft(a, n, axis, norm, DEFAULT_TASK_MEMORY_BYTES);
    }

    public static ChunkedArray ifft(ChunkedArray a, Long n, int axis, FftNorm norm, long taskMemoryBytes) {
        return AxisTransform.transform(Kind.IFFT, a, n, axis, norm, taskMemoryBytes);
    }

    /** NumPy's {@code rfft(a)}: the transform of real input along the last axis, its n/2 + 1 non-negative frequencies. */
    public static ChunkedArray rfft(ChunkedArray a) {
        return rfft(a, null, -1, FftNorm.BACKWARD);
    }

    /** NumPy's {@code rfft(a, n, axis, norm)}. */
    public static ChunkedArray rfft(ChunkedArray a, Long n, int axis, FftNorm norm) {
        return rfft(a, n, axis, norm, DEFAULT_TASK_MEMORY_BYTES);
    }

    public static ChunkedArray rfft(ChunkedArray a, Long n, int axis, FftNorm norm, long taskMemoryBytes) {
        return AxisTransform.transform(Kind.RFFT, a, n, axis, norm, taskMemoryBytes);
    }

    /** NumPy's {@code irfft(a)}: the inverse of rfft along the last axis, {@code 2 (m - 1)} real points. */
    public static ChunkedArray irfft(ChunkedArray a) {
        return irfft(a, null, -1, FftNorm.BACKWARD);
    }

    /** NumPy's {@code irfft(a, n, axis, norm)}. */
    public static ChunkedArray irfft(ChunkedArray a, Long n, int axis, FftNorm norm) {
        return irfft(a, n, axis, norm, DEFAULT_TASK_MEMORY_BYTES);
    }

    public static ChunkedArray irfft(ChunkedArray a, Long n, int axis, FftNorm norm, long taskMemoryBytes) {
        return AxisTransform.transform(Kind.IRFFT, a, n, axis, norm, taskMemoryBytes);
    }

    // ---------------------------------------------------------------- two axes

    /** NumPy's {@code fft2(a)}: over the last two axes. */
    public static ChunkedArray fft2(ChunkedArray a) {
        return fft2(a, null, null, FftNorm.BACKWARD);
    }

    /** NumPy's {@code fft2(a, s, axes, norm)}; null axes are {@code (-2, -1)}. */
    public static ChunkedArray fft2(ChunkedArray a, long[] s, int[] axes, FftNorm norm) {
        return fft2(a, s, axes, norm, DEFAULT_TASK_MEMORY_BYTES);
    }

    public static ChunkedArray fft2(ChunkedArray a, long[] s, int[] axes, FftNorm norm, long taskMemoryBytes) {
        return fftn(a, s, lastTwo(axes), norm, taskMemoryBytes);
    }

    /** NumPy's {@code ifft2(a)}. */
    public static ChunkedArray ifft2(ChunkedArray a) {
        return ifft2(a, null, null, FftNorm.BACKWARD);
    }

    /** NumPy's {@code ifft2(a, s, axes, norm)}; null axes are {@code (-2, -1)}. */
    public static ChunkedArray ifft2(ChunkedArray a, long[] s, int[] axes, FftNorm norm) {
        return ifft2(a, s, axes, norm, DEFAULT_TASK_MEMORY_BYTES);
    }

    public static ChunkedArray ifft2(ChunkedArray a, long[] s, int[] axes, FftNorm norm, long taskMemoryBytes) {
        return ifftn(a, s, lastTwo(axes), norm, taskMemoryBytes);
    }

    /** NumPy's {@code rfft2(a, s, axes, norm)}; null axes are {@code (-2, -1)}. */
    public static ChunkedArray rfft2(ChunkedArray a, long[] s, int[] axes, FftNorm norm) {
        return rfft2(a, s, axes, norm, DEFAULT_TASK_MEMORY_BYTES);
    }

    public static ChunkedArray rfft2(ChunkedArray a, long[] s, int[] axes, FftNorm norm, long taskMemoryBytes) {
        return rfftn(a, s, lastTwo(axes), norm, taskMemoryBytes);
    }

    /** NumPy's {@code irfft2(a, s, axes, norm)}; null axes are {@code (-2, -1)}. */
    public static ChunkedArray irfft2(ChunkedArray a, long[] s, int[] axes, FftNorm norm) {
        return irfft2(a, s, axes, norm, DEFAULT_TASK_MEMORY_BYTES);
    }

    public static ChunkedArray irfft2(ChunkedArray a, long[] s, int[] axes, FftNorm norm, long taskMemoryBytes) {
        return irfftn(a, s, lastTwo(axes), norm, taskMemoryBytes);
    }

    // ---------------------------------------------------------------- any axes

    /** NumPy's {@code fftn(a)}: over every axis. */
    public static ChunkedArray fftn(ChunkedArray a) {
        return fftn(a, null, null, FftNorm.BACKWARD);
    }

    /**
     * NumPy's {@code fftn(a, s, axes, norm)}: null axes are every axis, or the last {@code s.length}
     * axes when {@code s} is given; the axes are transformed from the last listed to the first (a
     * repeated axis is transformed again); no axes at all return {@code a} itself, as NumPy.
     */
    public static ChunkedArray fftn(ChunkedArray a, long[] s, int[] axes, FftNorm norm) {
        return fftn(a, s, axes, norm, DEFAULT_TASK_MEMORY_BYTES);
    }

    public static ChunkedArray fftn(ChunkedArray a, long[] s, int[] axes, FftNorm norm, long taskMemoryBytes) {
        FftAxes cooked = FftAxes.cook(a.shape(), s, axes, false);
        ChunkedArray result = a;
        for (int i = cooked.axes().length - 1; i >= 0; i--) {
            result = AxisTransform.transform(Kind.FFT, result, cooked.sizes()[i], cooked.axes()[i], norm, taskMemoryBytes);
        }
        return result;
    }

    /** NumPy's {@code ifftn(a)}. */
    public static ChunkedArray ifftn(ChunkedArray a) {
        return ifftn(a, null, null, FftNorm.BACKWARD);
    }

    /** NumPy's {@code ifftn(a, s, axes, norm)}, axes as {@link #fftn(ChunkedArray, long[], int[], FftNorm)}. */
    public static ChunkedArray ifftn(ChunkedArray a, long[] s, int[] axes, FftNorm norm) {
        return ifftn(a, s, axes, norm, DEFAULT_TASK_MEMORY_BYTES);
    }

    public static ChunkedArray ifftn(ChunkedArray a, long[] s, int[] axes, FftNorm norm, long taskMemoryBytes) {
        FftAxes cooked = FftAxes.cook(a.shape(), s, axes, false);
        ChunkedArray result = a;
        for (int i = cooked.axes().length - 1; i >= 0; i--) {
            result = AxisTransform.transform(Kind.IFFT, result, cooked.sizes()[i], cooked.axes()[i], norm, taskMemoryBytes);
        }
        return result;
    }

    /** NumPy's {@code rfftn(a)}. */
    public static ChunkedArray rfftn(ChunkedArray a) {
        return rfftn(a, null, null, FftNorm.BACKWARD);
    }

    /** NumPy's {@code rfftn(a, s, axes, norm)}: rfft over the last listed axis, then fft over the others, last to first. */
    public static ChunkedArray rfftn(ChunkedArray a, long[] s, int[] axes, FftNorm norm) {
        return rfftn(a, s, axes, norm, DEFAULT_TASK_MEMORY_BYTES);
    }

    public static ChunkedArray rfftn(ChunkedArray a, long[] s, int[] axes, FftNorm norm, long taskMemoryBytes) {
        FftAxes cooked = FftAxes.cook(a.shape(), s, axes, false);
        int last = cooked.requireLast("rfftn");
        ChunkedArray result = AxisTransform.transform(Kind.RFFT, a, cooked.sizes()[last], cooked.axes()[last], norm, taskMemoryBytes);
        for (int i = last - 1; i >= 0; i--) {
            result = AxisTransform.transform(Kind.FFT, result, cooked.sizes()[i], cooked.axes()[i], norm, taskMemoryBytes);
        }
        return result;
    }

    /** NumPy's {@code irfftn(a)}. */
    public static ChunkedArray irfftn(ChunkedArray a) {
        return irfftn(a, null, null, FftNorm.BACKWARD);
    }

    /**
     * NumPy's {@code irfftn(a, s, axes, norm)}: ifft over every listed axis but the last, first to
     * last, then irfft over the last, of {@code s[-1]} points (without s: {@code 2 (m - 1)}).
     */
    public static ChunkedArray irfftn(ChunkedArray a, long[] s, int[] axes, FftNorm norm) {
        return irfftn(a, s, axes, norm, DEFAULT_TASK_MEMORY_BYTES);
    }

    public static ChunkedArray irfftn(ChunkedArray a, long[] s, int[] axes, FftNorm norm, long taskMemoryBytes) {
        FftAxes cooked = FftAxes.cook(a.shape(), s, axes, true);
        int last = cooked.requireLast("irfftn");
        ChunkedArray result = a;
        for (int i = 0; i < last; i++) {
            result = AxisTransform.transform(Kind.IFFT, result, cooked.sizes()[i], cooked.axes()[i], norm, taskMemoryBytes);
        }
        return AxisTransform.transform(Kind.IRFFT, result, cooked.sizes()[last], cooked.axes()[last], norm, taskMemoryBytes);
    }

    private static int[] lastTwo(int[] axes) {
        return axes == null ? new int[] {-2, -1} : axes;
    }
}

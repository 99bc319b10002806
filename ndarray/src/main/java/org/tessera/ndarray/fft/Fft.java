package org.tessera.ndarray.fft;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.ArgumentTypeException;
import org.tessera.ndarray.iteration.OffsetWalk;
import org.tessera.ndarray.iteration.Operand;
import org.tessera.ndarray.layout.Order;
import org.tessera.ndarray.layout.Shapes;

/**
 * NumPy 2's {@code numpy.fft} on {@link NDArray}: {@code fft}, {@code ifft}, {@code rfft},
 * {@code irfft}, {@code fft2}, {@code ifft2}, {@code rfft2}, {@code irfft2}, {@code fftn},
 * {@code ifftn}, {@code rfftn}, {@code irfftn}, {@code fftfreq}, {@code rfftfreq}.
 *
 * <p>Arguments as NumPy's: {@code n} (or each {@code s[i]}) crops or zero-pads the input along its
 * axis before the transform (null: the axis length; for {@code irfft} {@code 2 (m - 1)}); a length
 * of -1 in {@code s} means the axis length; negative axes count from the end; a null norm is
 * {@link FftNorm#BACKWARD}. Result dtypes as NumPy 2: float16, float32 and complex64 inputs give
 * complex64 (irfft: float32, float16 for a float16 input), every other dtype (bool, integers,
 * float64, complex128) complex128 (irfft: float64). Results are new C-ordered arrays; every
 * transform is computed in double precision ({@link FftPlan}, {@link RealFftPlan}) and rounded
 * to the result dtype.
 *
 * <p>Errors as NumPy's: a number of points below 1 and a bad norm are ValueErrors
 * ({@link IllegalArgumentException}), an axis out of range NumPy's AxisError
 * ({@link org.tessera.ndarray.error.AxisException}), rfft of complex input a TypeError
 * ({@link ArgumentTypeException}).
 */
public final class Fft {
    private Fft() {}

    private enum Kind { C2C, R2C, C2R }

    // ---------------------------------------------------------------- one axis

    /** NumPy's {@code fft(a)}: the forward transform along the last axis. */
    public static NDArray fft(NDArray a) {
        return fft(a, null, -1, FftNorm.BACKWARD);
    }

    /** NumPy's {@code fft(a, n, axis, norm)}. */
    public static NDArray fft(NDArray a, Long n, int axis, FftNorm norm) {
        return oneAxis(a, a.dtype(), n, axis, norm, Kind.C2C, true, true);
    }

    /** NumPy's {@code ifft(a)}: the inverse transform along the last axis (divided by n). */
    public static NDArray ifft(NDArray a) {
        return ifft(a, null, -1, FftNorm.BACKWARD);
    }

    /** NumPy's {@code ifft(a, n, axis, norm)}. */
    public static NDArray ifft(NDArray a, Long n, int axis, FftNorm norm) {
        return oneAxis(a, a.dtype(), n, axis, norm, Kind.C2C, false, true);
    }

    /** NumPy's {@code rfft(a)}: the n/2 + 1 non-negative frequencies of a real input's last axis. */
    public static NDArray rfft(NDArray a) {
        return rfft(a, null, -1, FftNorm.BACKWARD);
    }

    /** NumPy's {@code rfft(a, n, axis, norm)}; complex input is a TypeError. */
    public static NDArray rfft(NDArray a, Long n, int axis, FftNorm norm) {
        return oneAxis(a, a.dtype(), n, axis, norm, Kind.R2C, true, true);
    }

    /** NumPy's {@code irfft(a)}: the real inverse of {@link #rfft}, of {@code 2 (m - 1)} points. */
    public static NDArray irfft(NDArray a) {
        return irfft(a, null, -1, FftNorm.BACKWARD);
    }

    /** NumPy's {@code irfft(a, n, axis, norm)}: {@code n} output points from the first {@code n/2 + 1} inputs. */
    public static NDArray irfft(NDArray a, Long n, int axis, FftNorm norm) {
        return oneAxis(a, a.dtype(), n, axis, norm, Kind.C2R, false, true);
    }

    // ---------------------------------------------------------------- several axes

    /** NumPy's {@code fft2(a)}: over the last two axes. */
    public static NDArray fft2(NDArray a) {
        return fft2(a, null, null, FftNorm.BACKWARD);
    }

    /** NumPy's {@code fft2(a, s, axes, norm)}; null axes are {@code (-2, -1)}. */
    public static NDArray fft2(NDArray a, long[] s, int[] axes, FftNorm norm) {
        return fftn(a, s, axes == null ? new int[] {-2, -1} : axes, norm);
    }

    /** NumPy's {@code ifft2(a)}. */
    public static NDArray ifft2(NDArray a) {
        return ifft2(a, null, null, FftNorm.BACKWARD);
    }

    /** NumPy's {@code ifft2(a, s, axes, norm)}; null axes are {@code (-2, -1)}. */
    public static NDArray ifft2(NDArray a, long[] s, int[] axes, FftNorm norm) {
        return ifftn(a, s, axes == null ? new int[] {-2, -1} : axes, norm);
    }

    /** NumPy's {@code rfft2(a, s, axes, norm)}; null axes are {@code (-2, -1)}. */
    public static NDArray rfft2(NDArray a, long[] s, int[] axes, FftNorm norm) {
        return rfftn(a, s, axes == null ? new int[] {-2, -1} : axes, norm);
    }

    /** NumPy's {@code irfft2(a, s, axes, norm)}; null axes are {@code (-2, -1)}. */
    public static NDArray irfft2(NDArray a, long[] s, int[] axes, FftNorm norm) {
        return irfftn(a, s, axes == null ? new int[] {-2, -1} : axes, norm);
    }

    /** NumPy's {@code fftn(a)}: over every axis. */
    public static NDArray fftn(NDArray a) {
        return fftn(a, null, null, FftNorm.BACKWARD);
    }

    /**
     * NumPy's {@code fftn(a, s, axes, norm)}: null axes are every axis, or the last {@code s.length}
     * axes when {@code s} is given; axes are transformed from the last listed to the first (a repeated
     * axis is transformed again). No axes at all return {@code a} itself, as NumPy.
     */
    public static NDArray fftn(NDArray a, long[] s, int[] axes, FftNorm norm) {
        return severalAxes(a, s, axes, norm, Kind.C2C, true);
    }

    /** NumPy's {@code ifftn(a)}. */
    public static NDArray ifftn(NDArray a) {
        return ifftn(a, null, null, FftNorm.BACKWARD);
    }

    /** NumPy's {@code ifftn(a, s, axes, norm)}, axes as {@link #fftn}. */
    public static NDArray ifftn(NDArray a, long[] s, int[] axes, FftNorm norm) {
        return severalAxes(a, s, axes, norm, Kind.C2C, false);
    }

    /** NumPy's {@code rfftn(a)}. */
    public static NDArray rfftn(NDArray a) {
        return rfftn(a, null, null, FftNorm.BACKWARD);
    }

    /** NumPy's {@code rfftn(a, s, axes, norm)}: rfft over the last listed axis, then fft over the others. */
    public static NDArray rfftn(NDArray a, long[] s, int[] axes, FftNorm norm) {
        return severalAxes(a, s, axes, norm, Kind.R2C, true);
    }

    /** NumPy's {@code irfftn(a)}. */
    public static NDArray irfftn(NDArray a) {
        return irfftn(a, null, null, FftNorm.BACKWARD);
    }

    /**
     * NumPy's {@code irfftn(a, s, axes, norm)}: ifft over all listed axes but the last, then irfft
     * over the last, of {@code s[-1]} points (without s: {@code 2 (m - 1)}).
     */
    public static NDArray irfftn(NDArray a, long[] s, int[] axes, FftNorm norm) {
        return severalAxes(a, s, axes, norm, Kind.C2R, false);
    }

    // ---------------------------------------------------------------- frequencies

    /** NumPy's {@code fftfreq(n, d)}: {@code [0, 1, ..., ceil(n/2) - 1, -floor(n/2), ..., -1] / (d n)}, float64. */
    public static NDArray fftfreq(long n, double d) {
        checkFrequencyCount(n);
        double value = 1.0 / (n * d);
        NDArray result = NDArray.zeros(DType.FLOAT64, n);
        long positive = (n - 1) / 2 + 1;
        for (long k = 0; k < n; k++) {
            long frequency = k < positive ? k : k - n;
            result.setDouble(frequency * value, k);
        }
        return result;
    }

    /** NumPy's {@code rfftfreq(n, d)}: {@code [0, 1, ..., n/2] / (d n)}, float64. */
    public static NDArray rfftfreq(long n, double d) {
        checkFrequencyCount(n);
        double value = 1.0 / (n * d);
        NDArray result = NDArray.zeros(DType.FLOAT64, n / 2 + 1);
        for (long k = 0; k <= n / 2; k++) {
            result.setDouble(k * value, k);
        }
        return result;
    }

    private static void checkFrequencyCount(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative dimensions are not allowed: n = " + n);
        }
    }

    // ---------------------------------------------------------------- dtypes

    /** The complex result dtype of fft, ifft and rfft for an input of {@code dtype}: NumPy's {@code result_type(dtype, 1j)}. */
    public static DType complexResultType(DType dtype) {
        return switch (dtype) {
            case FLOAT16, FLOAT32, COMPLEX64 -> DType.COMPLEX64;
            default -> DType.COMPLEX128;
        };
    }

    /** The real result dtype of irfft for an input of {@code dtype}: NumPy's {@code result_type(dtype.real, 1.0)}. */
    public static DType realResultType(DType dtype) {
        return switch (dtype) {
            case FLOAT16 -> DType.FLOAT16;
            case FLOAT32, COMPLEX64 -> DType.FLOAT32;
            default -> DType.FLOAT64;
        };
    }

    // ---------------------------------------------------------------- implementation

    private static NDArray severalAxes(NDArray a, long[] s, int[] axes, FftNorm norm, Kind kind, boolean forward) {
        FftAxes cooked = FftAxes.cook(a.shape(), s, axes, kind == Kind.C2R);
        if (kind != Kind.C2C) {
            cooked.requireLast(kind == Kind.R2C ? "rfftn" : "irfftn");
        }
        long[] sizes = cooked.sizes();
        int[] transformed = cooked.axes();
        int count = cooked.count();
        if (count == 0) {
            return a;
        }
        FftNorm checkedNorm = norm == null ? FftNorm.BACKWARD : norm;
        NDArray result = a;
        DType nominal = a.dtype();
        switch (kind) {
            case C2C -> {
                for (int i = count - 1; i >= 0; i--) {
                    result = oneAxis(result, nominal, sizes[i], transformed[i], checkedNorm, Kind.C2C, forward, i == 0);
                    nominal = complexResultType(nominal);
                }
            }
            case R2C -> {
                result = oneAxis(result, nominal, sizes[count - 1], transformed[count - 1], checkedNorm, Kind.R2C, true, count == 1);
                nominal = complexResultType(nominal);
                for (int i = count - 2; i >= 0; i--) {
                    result = oneAxis(result, nominal, sizes[i], transformed[i], checkedNorm, Kind.C2C, true, i == 0);
                }
            }
            case C2R -> {
                for (int i = 0; i < count - 1; i++) {
                    result = oneAxis(result, nominal, sizes[i], transformed[i], checkedNorm, Kind.C2C, false, false);
                    nominal = complexResultType(nominal);
                }
                result = oneAxis(result, nominal, sizes[count - 1], transformed[count - 1], checkedNorm, Kind.C2R, false, true);
            }
        }
        return result;
    }

    /**
     * One transform along one axis. {@code nominal} is the dtype NumPy would see at this step (an
     * intermediate here is complex128 whatever NumPy's is); a final step gives NumPy's dtype,
     * others complex128.
     */
    private static NDArray oneAxis(NDArray a, DType nominal, Long n, int axis, FftNorm norm, Kind kind, boolean forward, boolean last) {
        int ndim = a.ndim();
        long points;
        if (n == null) {
            long length = a.shape(Shapes.normalizeAxis(axis, ndim));
            points = kind == Kind.C2R ? (length - 1) * 2 : length;
        } else {
            points = n;
        }
        if (points < 1) {
            throw new IllegalArgumentException("Invalid number of FFT data points (" + points + ") specified.");
        }
        int lane = Shapes.normalizeAxis(axis, ndim);
        if (kind == Kind.R2C && nominal.isComplex()) {
            throw new ArgumentTypeException("rfft needs real input, got an array of dtype " + nominal
                    + " (NumPy: ufunc 'rfft' not supported for the input types)");
        }
        if (points > Integer.MAX_VALUE / 2 - 8) {
            throw new IllegalArgumentException("Invalid number of FFT data points (" + points + ") specified: at most "
                    + (Integer.MAX_VALUE / 2 - 8) + " are supported");
        }
        int count = (int) points;
        DType outType = switch (kind) {
            case C2C, R2C -> last ? complexResultType(nominal) : DType.COMPLEX128;
            case C2R -> realResultType(nominal);
        };
        long[] outShape = a.shape();
        outShape[lane] = kind == Kind.R2C ? count / 2 + 1 : count;
        double scale = (norm == null ? FftNorm.BACKWARD : norm).scale(count, forward, realResultType(nominal));
        return transformLines(a, outType, outShape, lane, count, kind, forward, scale);
    }

    /**
     * Transforms every line of {@code in} along {@code lane} into a new array. A complex128 result
     * along the last axis gets storage of its own as a {@code double[]}, and each line is loaded
     * straight into its place there and transformed in place; other results go through one line buffer.
     */
    private static NDArray transformLines(NDArray in, DType outType, long[] outShape, int lane, int points, Kind kind, boolean forward,
                                          double scale) {
        long outSize = Shapes.size(outShape);
        boolean inPlace = lane == outShape.length - 1 && outType == DType.COMPLEX128 && kind != Kind.C2R
                && 2 * outSize <= Integer.MAX_VALUE - 8;
        double[] storage = inPlace ? new double[(int) (2 * outSize)] : null;
        NDArray out = inPlace
                ? NDArray.wrap(MemorySegment.ofArray(storage), outShape, outType, Order.C, true)
                : NDArray.empty(outType, outShape);
        if (outSize == 0) {
            return out;
        }
        if (!inPlace && lane < outShape.length - 1) {
            transformBlocks(in, out, lane, points, kind, forward, scale);
            return out;
        }
        DType inType = in.dtype();
        long inLength = in.shape(lane);
        long inStride = in.byteStride(lane);
        long outStride = out.byteStride(lane);
        int outLength = (int) out.shape(lane);
        long[] outer = without(in.shape(), lane);
        Operand[] operands = {
            new Operand(inType, in.segment(), in.byteOffset(), without(in.byteStrides(), lane)),
            new Operand(outType, out.segment(), out.byteOffset(), without(out.byteStrides(), lane)),
        };
        switch (kind) {
            case C2C -> {
                FftPlan plan = FftPlan.of(points);
                double[] scratch = ScratchBuffers.get(ScratchBuffers.PLAN, plan.scratchLength());
                int used = (int) Math.min(inLength, points);
                if (inPlace) {
                    // The fresh storage is zero, so the padding beyond `used` is already there.
                    OffsetWalk.forEachPosition(outer, operands, offsets -> {
                        int at = (int) (offsets[1] / Double.BYTES);
                        Lines.loadComplex(inType, in.segment(), offsets[0], inStride, used, storage, at);
                        plan.run(storage, at, forward, scale, scratch, 0);
                    });
                } else {
                    double[] buffer = new double[2 * points];
                    OffsetWalk.forEachPosition(outer, operands, offsets -> {
                        Lines.loadComplex(inType, in.segment(), offsets[0], inStride, used, buffer, 0);
                        Arrays.fill(buffer, 2 * used, 2 * points, 0.0);
                        plan.run(buffer, 0, forward, scale, scratch, 0);
                        Lines.storeComplex(buffer, outType, out.segment(), offsets[1], outStride, points);
                    });
                }
            }
            case R2C -> {
                RealFftPlan plan = RealFftPlan.of(points);
                double[] scratch = ScratchBuffers.get(ScratchBuffers.PLAN, plan.scratchLength());
                int used = (int) Math.min(inLength, points);
                if (inPlace) {
                    OffsetWalk.forEachPosition(outer, operands, offsets -> {
                        int at = (int) (offsets[1] / Double.BYTES);
                        Lines.loadReal(inType, in.segment(), offsets[0], inStride, used, storage, at);
                        plan.forward(storage, at, scale, scratch);
                    });
                } else {
                    double[] buffer = new double[plan.lineLength()];
                    OffsetWalk.forEachPosition(outer, operands, offsets -> {
                        Lines.loadReal(inType, in.segment(), offsets[0], inStride, used, buffer, 0);
                        Arrays.fill(buffer, used, buffer.length, 0.0);
                        plan.forward(buffer, 0, scale, scratch);
                        Lines.storeComplex(buffer, outType, out.segment(), offsets[1], outStride, outLength);
                    });
                }
            }
            case C2R -> {
                RealFftPlan plan = RealFftPlan.of(points);
                double[] buffer = new double[plan.lineLength()];
                double[] scratch = ScratchBuffers.get(ScratchBuffers.PLAN, plan.scratchLength());
                int used = (int) Math.min(inLength, plan.complexLength());
                OffsetWalk.forEachPosition(outer, operands, offsets -> {
                    Lines.loadComplex(inType, in.segment(), offsets[0], inStride, used, buffer, 0);
                    Arrays.fill(buffer, 2 * used, buffer.length, 0.0);
                    plan.backward(buffer, 0, scale, scratch);
                    Lines.storeReal(buffer, outType, out.segment(), offsets[1], outStride, points);
                });
            }
        }
        return out;
    }

    /** Lines per block of {@link #transformBlocks}, and the most buffer doubles a block may take. */
    private static final int BLOCK_LINES = 32;
    private static final int BLOCK_DOUBLES = 1 << 18;

    /**
     * Transforms lines along an axis other than the last, a block of lines neighbouring along the last
     * axis at a time: loads and stores then walk memory in runs along the last axis instead of one
     * element per cache line (and page) of a long stride.
     */
    private static void transformBlocks(NDArray in, NDArray out, int lane, int points, Kind kind, boolean forward, double scale) {
        int last = in.ndim() - 1;
        DType inType = in.dtype();
        DType outType = out.dtype();
        long inStride = in.byteStride(lane);
        long outStride = out.byteStride(lane);
        long inStep = in.byteStride(last);
        long outStep = out.byteStride(last);
        long lastLength = in.shape(last);
        long inLength = in.shape(lane);
        int outLength = (int) out.shape(lane);
        long[] outer = without(without(in.shape(), last), lane);
        Operand[] operands = {
            new Operand(inType, in.segment(), in.byteOffset(), without(without(in.byteStrides(), last), lane)),
            new Operand(outType, out.segment(), out.byteOffset(), without(without(out.byteStrides(), last), lane)),
        };
        FftPlan complexPlan = kind == Kind.C2C ? FftPlan.of(points) : null;
        RealFftPlan realPlan = kind == Kind.C2C ? null : RealFftPlan.of(points);
        int lineDoubles = kind == Kind.C2C ? 2 * points : realPlan.lineLength();
        int block = Math.max(1, Math.min(BLOCK_LINES, BLOCK_DOUBLES / lineDoubles));
        double[] buffer = ScratchBuffers.get(ScratchBuffers.LINES, block * lineDoubles);
        double[] scratch = ScratchBuffers.get(ScratchBuffers.PLAN, kind == Kind.C2C ? complexPlan.scratchLength() : realPlan.scratchLength());
        int used = (int) Math.min(inLength, kind == Kind.C2R ? realPlan.complexLength() : points);
        OffsetWalk.forEachPosition(outer, operands, offsets -> {
            for (long first = 0; first < lastLength; first += block) {
                int lines = (int) Math.min(block, lastLength - first);
                long from = offsets[0] + first * inStep;
                long to = offsets[1] + first * outStep;
                switch (kind) {
                    case C2C -> {
                        Lines.loadComplexBlock(inType, in.segment(), from, inStride, inStep, lines, used, buffer, lineDoubles);
                        for (int l = 0; l < lines; l++) {
                            Arrays.fill(buffer, l * lineDoubles + 2 * used, (l + 1) * lineDoubles, 0.0);
                            complexPlan.run(buffer, l * lineDoubles, forward, scale, scratch, 0);
                        }
                        Lines.storeComplexBlock(buffer, lineDoubles, outType, out.segment(), to, outStride, outStep, lines, points);
                    }
                    case R2C -> {
                        Lines.loadRealBlock(inType, in.segment(), from, inStride, inStep, lines, used, buffer, lineDoubles);
                        for (int l = 0; l < lines; l++) {
                            Arrays.fill(buffer, l * lineDoubles + used, (l + 1) * lineDoubles, 0.0);
                            realPlan.forward(buffer, l * lineDoubles, scale, scratch);
                        }
                        Lines.storeComplexBlock(buffer, lineDoubles, outType, out.segment(), to, outStride, outStep, lines, outLength);
                    }
                    case C2R -> {
                        Lines.loadComplexBlock(inType, in.segment(), from, inStride, inStep, lines, used, buffer, lineDoubles);
                        for (int l = 0; l < lines; l++) {
                            Arrays.fill(buffer, l * lineDoubles + 2 * used, (l + 1) * lineDoubles, 0.0);
                            realPlan.backward(buffer, l * lineDoubles, scale, scratch);
                        }
                        Lines.storeRealBlock(buffer, lineDoubles, outType, out.segment(), to, outStride, outStep, lines, points);
                    }
                }
            }
        });
    }

    private static long[] without(long[] values, int axis) {
        long[] rest = new long[values.length - 1];
        for (int i = 0, j = 0; i < values.length; i++) {
            if (i != axis) {
                rest[j++] = values[i];
            }
        }
        return rest;
    }
}

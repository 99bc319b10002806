package org.tessera.ndarray.sort;

import java.util.Arrays;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.LongFunction;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.ArgumentTypeException;
import org.tessera.ndarray.layout.Shapes;

/**
 * NumPy 2's {@code quantile}, {@code percentile} and {@code median}, value for value: every method of
 * {@code np.quantile}, NaN propagation (a lane holding a NaN gives NaN), the result dtype NumPy gives
 * (a Python float q is weak, so float32 data stay float32; an array q promotes to float64), and the
 * arithmetic of NumPy's interpolation ({@code _lerp}) in that dtype.
 *
 * <p>The answer depends on the data only through a few elements of each sorted lane, at ranks known
 * from the lane's length, q and the method. {@link Plan} says which ranks ({@link Plan#ranks()}) and
 * combines the elements found there ({@link Plan#combine}); the in-memory functions here sort the
 * lanes, and the chunked array's quantile finds the same ranks across its blocks without sorting
 * everything in one place.
 *
 * <p>Example: {@code quantile([1, 2, 3, 4], 0.5)} is 2.5 (linear), 2 (lower), 3 (higher), 2 (nearest:
 * position 1.5 rounds to even), 2.5 (midpoint).
 */
public final class Quantiles {
    private Quantiles() {
    }

    /** NumPy's quantile methods, by their NumPy names ({@code "linear"}, {@code "median_unbiased"}, ...). */
    public enum Method {
        INVERTED_CDF, AVERAGED_INVERTED_CDF, CLOSEST_OBSERVATION, INTERPOLATED_INVERTED_CDF, HAZEN, WEIBULL, LINEAR,
        MEDIAN_UNBIASED, NORMAL_UNBIASED, LOWER, HIGHER, MIDPOINT, NEAREST;

        public String numpyName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The method of that NumPy name; an unknown name is NumPy's ValueError. */
        public static Method fromName(String name) {
            for (Method method : values()) {
                if (method.numpyName().equals(name)) {
                    return method;
                }
            }
            throw new IllegalArgumentException("'" + name + "' is not a valid method. Use one of: "
                    + Arrays.stream(values()).map(Method::numpyName).toList());
        }

        /** Whether the method picks an element (no interpolation): the result keeps the input dtype. */
        boolean discrete() {
            return this == INVERTED_CDF || this == CLOSEST_OBSERVATION || this == LOWER || this == HIGHER || this == NEAREST;
        }
    }

    /** {@code np.quantile(a, q, axis, method=method, keepdims=keepdims)} for an array q (0-d to 2-d) of quantiles in [0, 1]. */
    public static NDArray quantile(NDArray a, NDArray q, Integer axis, String method, boolean keepdims) {
        return compute(a, q.astype(DType.FLOAT64), false, axis, method, keepdims, "Quantiles must be in the range [0, 1]");
    }

    /** The same for a Python float q: weak, so the result of float data keeps their dtype. */
    public static NDArray quantile(NDArray a, double q, Integer axis, String method, boolean keepdims) {
        return compute(a, NDArray.scalar(q), true, axis, method, keepdims, "Quantiles must be in the range [0, 1]");
    }

    /** {@code np.percentile}: quantiles q / 100 (q in [0, 100]). */
    public static NDArray percentile(NDArray a, NDArray q, Integer axis, String method, boolean keepdims) {
        return compute(a, hundredths(q.astype(DType.FLOAT64)), false, axis, method, keepdims, "Percentiles must be in the range [0, 100]");
    }

    public static NDArray percentile(NDArray a, double q, Integer axis, String method, boolean keepdims) {
        return compute(a, NDArray.scalar(q / 100), true, axis, method, keepdims, "Percentiles must be in the range [0, 100]");
    }

    /** {@code q / 100} elementwise, as NumPy's percentile divides before anything else. */
    public static NDArray hundredths(NDArray q) {
        NDArray result = q.copy();
        NDArray flat = result.reshape(result.size());
        for (long i = 0; i < flat.size(); i++) {
            flat.setDouble(flat.getDouble(i) / 100, i);
        }
        return result;
    }

    /** {@code np.median(a, axis, keepdims=keepdims)}: the mean of the middle element(s); NaN where a lane holds NaN or is empty. */
    public static NDArray median(NDArray a, Integer axis, boolean keepdims) {
        requireReal(a.dtype());
        NDArray lanes = lanesFirst(a, axis);
        Plan plan = medianPlan(a.dtype(), lanes.shape(0));
        return finish(plan, sortedRows(lanes, plan), a, axis, keepdims, new long[0]);
    }

    private static NDArray compute(NDArray a, NDArray q, boolean weak, Integer axis, String method, boolean keepdims, String rangeMessage) {
        requireReal(a.dtype());
        checkRange(q, rangeMessage);
        NDArray lanes = lanesFirst(a, axis);
        Plan plan = plan(a.dtype(), lanes.shape(0), q, weak, method);
        return finish(plan, sortedRows(lanes, plan), a, axis, keepdims, q.shape());
    }

    /** NumPy refuses complex data: {@code a must be an array of real numbers} (TypeError). */
    public static void requireReal(DType dtype) {
        if (dtype.isComplex()) {
            throw new ArgumentTypeException("a must be an array of real numbers");
        }
    }

    /** Every q in [0, 1] (NaN is not), else NumPy's ValueError with {@code message}. */
    public static void checkRange(NDArray q, String message) {
        NDArray flat = q.reshape(q.size());
        for (long i = 0; i < flat.size(); i++) {
            double value = flat.getDouble(i);
            if (!(value >= 0 && value <= 1)) {
                throw new IllegalArgumentException(message);
            }
        }
    }

    /** The array with the lanes along axis 0: the flattened array for a null axis (AxisError for a bad one). */
    private static NDArray lanesFirst(NDArray a, Integer axis) {
        if (axis == null) {
            return a.ravel();
        }
        int normalized = Shapes.normalizeAxis(axis, a.ndim());
        return a.moveAxis(normalized, 0);
    }

    /** Sorts the lanes (axis 0) and answers rows of the sorted array by rank. */
    private static LongFunction<NDArray> sortedRows(NDArray lanes, Plan plan) {
        if (lanes.shape(0) == 0) {
            return rank -> {
                throw new IllegalStateException("no rank of an empty lane is read");
            };
        }
        NDArray sorted = Sorting.sort(lanes, 0, SortKind.STABLE);
        return rank -> sorted.take(0, rank);
    }

    /** The plan's result for the sorted rows, with the reduced axis kept as length 1 where asked. */
    private static NDArray finish(Plan plan, LongFunction<NDArray> rows, NDArray a, Integer axis, boolean keepdims, long[] qShape) {
        long[] rest = restShape(a.shape(), axis);
        NDArray result = plan.combine(rows, rest);
        return keepdims ? result.reshape(keptShape(qShape, a.shape(), axis)) : result;
    }

    /** The shape of a lane's neighbours: {@code shape} without {@code axis} ({@code ()} for a null axis). */
    public static long[] restShape(long[] shape, Integer axis) {
        if (axis == null) {
            return new long[0];
        }
        int normalized = Shapes.normalizeAxis(axis, shape.length);
        long[] rest = new long[shape.length - 1];
        for (int i = 0, j = 0; i < shape.length; i++) {
            if (i != normalized) {
                rest[j++] = shape[i];
            }
        }
        return rest;
    }

    /** The result's shape with keepdims: q's shape, then {@code shape} with the reduced axis (every axis for null) as 1. */
    public static long[] keptShape(long[] qShape, long[] shape, Integer axis) {
        long[] kept = Arrays.copyOf(qShape, qShape.length + shape.length);
        int normalized = axis == null ? -1 : Shapes.normalizeAxis(axis, shape.length);
        for (int i = 0; i < shape.length; i++) {
            kept[qShape.length + i] = axis == null || i == normalized ? 1 : shape[i];
        }
        return kept;
    }

    /**
     * The plan of {@code np.quantile} for lanes of {@code n} elements of {@code dtype}: q holds the
     * quantiles (already divided by 100 for a percentile, and checked to be in [0, 1]); {@code weak}
     * when q was a Python float. Fails as NumPy does: q of more than 2 axes or an unknown method
     * (ValueError), an empty lane (IndexError), bool data with an interpolating method (TypeError).
     */
    public static Plan plan(DType dtype, long n, NDArray q, boolean weak, String methodName) {
        requireReal(dtype);
        if (q.ndim() > 2) {
            throw new IllegalArgumentException("q must be a scalar or 1d");
        }
        Method method = Method.fromName(methodName);
        if (n == 0) {
            throw new IndexOutOfBoundsException("index -1 is out of bounds for axis 0 with size 0");
        }
        if (!method.discrete() && dtype.isBool()) {
            throw new ArgumentTypeException("numpy boolean subtract, the `-` operator, is not supported");
        }
        NDArray flat = q.reshape(q.size());
        int count = Math.toIntExact(q.size());
        long[] previous = new long[count];
        long[] next = new long[count];
        double[] gamma = new double[count];
        for (int i = 0; i < count; i++) {
            double quantile = flat.getDouble(i);
            if (method.discrete()) {
                previous[i] = next[i] = discreteIndex(method, n, quantile);
                continue;
            }
            double virtual = virtualIndex(method, n, quantile);
            double below = Math.floor(virtual);
            double above = below + 1;
            if (virtual >= n - 1) {
                below = -1;
                above = -1;
            }
            if (virtual < 0) {
                below = 0;
                above = 0;
            }
            double fraction = virtual - below;
            gamma[i] = switch (method) {
                case MIDPOINT -> pythonRemainder(virtual, 1) == 0 ? 0 : 0.5;
                case AVERAGED_INVERTED_CDF -> fraction == 0 ? 0.5 : 1;
                default -> fraction;
            };
            previous[i] = below < 0 ? n - 1 : (long) below;
            next[i] = above < 0 ? n - 1 : (long) above;
        }
        DType result;
        if (method.discrete()) {
            result = dtype;
        } else if (weak) {
            result = dtype.isFloat() ? dtype : DType.FLOAT64;
        } else {
            result = DType.FLOAT64;
        }
        return new Plan(dtype, n, q.shape(), method.discrete(), previous, next, gamma, result, false);
    }

    /** The plan of {@code np.median} for lanes of {@code n} elements (n may be 0: NaN results). */
    public static Plan medianPlan(DType dtype, long n) {
        requireReal(dtype);
        DType result = dtype == DType.FLOAT16 || dtype == DType.FLOAT32 || dtype == DType.FLOAT64 ? dtype : DType.FLOAT64;
        long[] previous = {n % 2 == 1 ? (n - 1) / 2 : n / 2 - 1};
        long[] next = {n % 2 == 1 ? (n - 1) / 2 : n / 2};
        return new Plan(dtype, n, new long[0], false, previous, next, new double[1], result, true);
    }

    /** NumPy's virtual index of the continuous methods (and midpoint, averaged_inverted_cdf), in its own arithmetic. */
    private static double virtualIndex(Method method, long n, double q) {
        return switch (method) {
            case LINEAR -> (n - 1) * q;
            case AVERAGED_INVERTED_CDF -> (n * q) - 1;
            case INTERPOLATED_INVERTED_CDF -> hyndmanFan(n, q, 0, 1);
            case HAZEN -> hyndmanFan(n, q, 0.5, 0.5);
            case WEIBULL -> hyndmanFan(n, q, 0, 0);
            case MEDIAN_UNBIASED -> hyndmanFan(n, q, 1 / 3.0, 1 / 3.0);
            case NORMAL_UNBIASED -> hyndmanFan(n, q, 3 / 8.0, 3 / 8.0);
            case MIDPOINT -> 0.5 * (Math.floor((n - 1) * q) + Math.ceil((n - 1) * q));
            default -> throw new IllegalStateException("no virtual index for " + method);
        };
    }

    /** {@code n * q + (alpha + q * (1 - alpha - beta)) - 1}, NumPy's _compute_virtual_index. */
    private static double hyndmanFan(long n, double q, double alpha, double beta) {
        return n * q + (alpha + q * (1 - alpha - beta)) - 1;
    }

    /** The element index of the discrete methods. */
    private static long discreteIndex(Method method, long n, double q) {
        return switch (method) {
            case LOWER -> (long) Math.floor((n - 1) * q);
            case HIGHER -> (long) Math.ceil((n - 1) * q);
            case NEAREST -> (long) Math.rint((n - 1) * q);
            case INVERTED_CDF -> boundary((n * q) - 1, false);
            case CLOSEST_OBSERVATION -> boundary((n * q) - 1 - 0.5, true);
            default -> throw new IllegalStateException("no element index for " + method);
        };
    }

    /** NumPy's _discrete_interpolation_to_boundaries, negative indices clipped to 0. */
    private static long boundary(double index, boolean closestObservation) {
        double previous = Math.floor(index);
        double next = previous + 1;
        double gamma = index - previous;
        boolean takePrevious = gamma == 0 && (!closestObservation || pythonRemainder(previous, 2) == 1);
        long chosen = (long) (takePrevious ? previous : next);
        return Math.max(0, chosen);
    }

    /** Python's {@code x % m} for floats: the sign of the divisor. */
    private static double pythonRemainder(double x, double m) {
        double remainder = x % m;
        return remainder != 0 && (remainder < 0) != (m < 0) ? remainder + m : remainder;
    }

    /**
     * Which sorted elements of a lane a quantile or median reads, and how it combines them. Lanes
     * are combined a row at a time: row r is the element of sorted rank r of every lane, an array
     * of the lanes' shape (the input's shape without the reduced axis).
     */
    public static final class Plan {
        private final DType input;
        private final long n;
        private final long[] qShape;
        private final boolean discrete;
        private final long[] previous;
        private final long[] next;
        private final double[] gamma;
        private final DType result;
        private final boolean median;

        Plan(DType input, long n, long[] qShape, boolean discrete, long[] previous, long[] next, double[] gamma, DType result, boolean median) {
            this.input = input;
            this.n = n;
            this.qShape = qShape;
            this.discrete = discrete;
            this.previous = previous;
            this.next = next;
            this.gamma = gamma;
            this.result = result;
            this.median = median;
        }

        /** The dtype of the result. */
        public DType resultType() {
            return result;
        }

        /** The shape q contributes in front of the lanes' shape ({@code ()} for a scalar q and for median). */
        public long[] qShape() {
            return qShape.clone();
        }

        /** The lane length the plan was made for. */
        public long length() {
            return n;
        }

        /** The distinct sorted ranks whose rows {@link #combine} reads (the last too where NaN is possible). */
        public long[] ranks() {
            if (n == 0) {
                return new long[0];
            }
            TreeSet<Long> ranks = new TreeSet<>();
            for (int i = 0; i < previous.length; i++) {
                ranks.add(previous[i]);
                ranks.add(next[i]);
            }
            if (input.isFloat()) {
                ranks.add(n - 1);
            }
            return ranks.stream().mapToLong(Long::longValue).toArray();
        }

        /**
         * The result, of shape {@code qShape() + rest}: {@code row} gives the row of a sorted rank
         * (one of {@link #ranks()}), an array of shape {@code rest} in the input dtype.
         */
        public NDArray combine(LongFunction<NDArray> row, long[] rest) {
            long[] shape = Arrays.copyOf(qShape, qShape.length + rest.length);
            System.arraycopy(rest, 0, shape, qShape.length, rest.length);
            NDArray output = NDArray.zeros(result, shape);
            long width = Shapes.size(rest);
            NDArray flat = output.reshape((long) previous.length, width);
            if (width == 0) {
                return output;
            }
            if (n == 0) {
                // Only a median gets here: the mean of nothing.
                flat.fill(Double.NaN);
                return output;
            }
            NDArray last = input.isFloat() ? flatRow(row, n - 1) : null;
            for (int i = 0; i < previous.length; i++) {
                NDArray below = flatRow(row, previous[i]);
                NDArray above = previous[i] == next[i] ? below : flatRow(row, next[i]);
                NDArray target = flat.take(0, i);
                for (long e = 0; e < width; e++) {
                    if (last != null && Double.isNaN(last.getDouble(e))) {
                        target.setDouble(last.getDouble(e), e);
                    } else if (discrete) {
                        copyElement(below, target, e);
                    } else if (median) {
                        target.setDouble(mean(below, above, e, previous[i] == next[i]), e);
                    } else {
                        target.setDouble(lerp(below, above, gamma[i], e), e);
                    }
                }
            }
            return output;
        }

        private static NDArray flatRow(LongFunction<NDArray> row, long rank) {
            NDArray values = row.apply(rank);
            return values.copy().reshape(values.size());
        }

        private void copyElement(NDArray from, NDArray to, long e) {
            switch (input.kind()) {
                case FLOAT -> to.setDouble(from.getDouble(e), e);
                default -> to.setLong(from.getLong(e), e);
            }
        }

        /** NumPy's _lerp: {@code a + (b - a) * t}, or {@code b - (b - a) * (1 - t)} where t >= 0.5, in the result dtype. */
        private double lerp(NDArray below, NDArray above, double t, long e) {
            if (input.isFloat()) {
                double a = below.getDouble(e);
                double b = above.getDouble(e);
                double difference = roundTo(input, b - a);
                return switch (result) {
                    case FLOAT64 -> t >= 0.5 ? b - difference * (1 - t) : a + difference * t;
                    case FLOAT32 -> t >= 0.5 ? (float) b - (float) difference * (float) (1 - t) : (float) a + (float) difference * (float) t;
                    case FLOAT16 -> {
                        double weight = toHalf(t >= 0.5 ? 1 - t : t);
                        yield t >= 0.5 ? half(b - half(difference * weight)) : half(a + half(difference * weight));
                    }
                    default -> throw new IllegalStateException("a float quantile of dtype " + result);
                };
            }
            long a = below.getLong(e);
            long b = above.getLong(e);
            double difference = integerAsDouble(wrap(b - a));
            return t >= 0.5 ? integerAsDouble(b) - difference * (1 - t) : integerAsDouble(a) + difference * t;
        }

        /** NumPy's mean of the middle element(s), accumulated as np.mean does (float32 for float16 data). */
        private double mean(NDArray below, NDArray above, long e, boolean one) {
            switch (input) {
                case FLOAT32 -> {
                    float a = (float) below.getDouble(e);
                    return one ? a : (a + (float) above.getDouble(e)) / 2f;
                }
                case FLOAT16 -> {
                    float a = (float) below.getDouble(e);
                    return half(one ? a : (a + (float) above.getDouble(e)) / 2f);
                }
                case FLOAT64 -> {
                    double a = below.getDouble(e);
                    return one ? a : (a + above.getDouble(e)) / 2;
                }
                default -> {
                    double a = integerAsDouble(below.getLong(e));
                    return one ? a : (a + integerAsDouble(above.getLong(e))) / 2;
                }
            }
        }

        /** {@code b - a} as the input's integer type computes it (wrapping at its width). */
        private long wrap(long value) {
            return switch (input) {
                case INT8 -> (byte) value;
                case INT16 -> (short) value;
                case INT32 -> (int) value;
                case UINT8 -> value & 0xFF;
                case UINT16 -> value & 0xFFFF;
                case UINT32 -> value & 0xFFFF_FFFFL;
                default -> value;
            };
        }

        private double integerAsDouble(long value) {
            if (input == DType.UINT64 && value < 0) {
                return (double) (value >>> 1 | (value & 1)) * 2.0;
            }
            return value;
        }
    }

    /** {@code value} rounded to the precision of {@code dtype} (float16, float32; float64 as is). */
    private static double roundTo(DType dtype, double value) {
        return switch (dtype) {
            case FLOAT32 -> (float) value;
            case FLOAT16 -> half(value);
            default -> value;
        };
    }

    /** A float32 result rounded to float16, as NumPy's half loops store what they compute in float32. */
    private static double half(double value) {
        return Float.float16ToFloat(Float.floatToFloat16((float) value));
    }

    /** A double rounded straight to float16 (not through float32, which could round twice), ties to even. */
    static double toHalf(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value) || value == 0) {
            return value;
        }
        double candidate = half(value);
        if (candidate == value || Double.isInfinite(candidate)) {
            return candidate;
        }
        short bits = Float.floatToFloat16((float) candidate);
        double neighbour = Float.float16ToFloat((short) (bits + ((candidate < value) == (candidate > 0) ? 1 : -1)));
        double candidateError = Math.abs(candidate - value);
        double neighbourError = Math.abs(neighbour - value);
        if (neighbourError < candidateError) {
            return neighbour;
        }
        if (neighbourError == candidateError) {
            return (Float.floatToFloat16((float) neighbour) & 1) == 0 ? neighbour : candidate;
        }
        return candidate;
    }
}

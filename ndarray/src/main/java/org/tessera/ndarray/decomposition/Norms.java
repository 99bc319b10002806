package org.tessera.ndarray.decomposition;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * NumPy's {@code linalg.norm} without {@code axis}: the 2-norm of the flattened array when no
 * order is given, else a vector norm for 1-D and a matrix norm for 2-D arrays. The result is a
 * 0-d array, float32 for float32 input and float64 otherwise.
 */
public final class Norms {
    private Norms() {
    }

    /** The square root of the sum of squared magnitudes of all elements, whatever the number of axes. */
    public static NDArray norm(NDArray x) {
        DenseMatrix.requireReal(x, "norm");
        double[] values = flat(x);
        return scalar(euclidean(values), x);
    }

    public static NDArray norm(NDArray x, NormOrder order) {
        DenseMatrix.requireReal(x, "norm");
        return switch (x.ndim()) {
            case 1 -> scalar(vectorNorm(flat(x), order), x);
            case 2 -> scalar(matrixNorm(DenseMatrix.of(x, "norm"), order), x);
            default -> throw new IllegalArgumentException("norm: an order (" + order + ") needs a 1-D or 2-D array, got shape " + Shapes.format(x.shape()));
        };
    }

    /** A vector norm of {@code values} (see {@link NormOrder}). */
    public static double vectorNorm(double[] values, NormOrder order) {
        if (order.kind() != NormOrder.Kind.POWER) {
            throw new IllegalArgumentException("norm: Invalid norm order '" + order + "' for vectors");
        }
        double p = order.p();
        if (p == Double.POSITIVE_INFINITY || p == Double.NEGATIVE_INFINITY) {
            double extreme = p > 0 ? 0 : Double.POSITIVE_INFINITY;
            for (double value : values) {
                extreme = p > 0 ? Math.max(extreme, Math.abs(value)) : Math.min(extreme, Math.abs(value));
            }
            return values.length == 0 && p < 0 ? Double.POSITIVE_INFINITY : extreme;
        }
        if (p == 0) {
            double count = 0;
            for (double value : values) {
                count += value != 0 ? 1 : 0;
            }
            return count;
        }
        if (p == 2) {
            return euclidean(values);
        }
        double sum = 0;
        for (double value : values) {
            sum += p == 1 ? Math.abs(value) : Math.pow(Math.abs(value), p);
        }
        return p == 1 ? sum : Math.pow(sum, 1 / p);
    }

    static double matrixNorm(DenseMatrix matrix, NormOrder order) {
        return switch (order.kind()) {
            case FROBENIUS -> euclidean(matrix.values);
            case NUCLEAR -> {
                double sum = 0;
                for (double value : JacobiSvd.of(matrix, "norm").singularValues) {
                    sum += value;
                }
                yield sum;
            }
            case POWER -> {
                double p = order.p();
                if (Math.abs(p) == 2) {
                    double[] s = JacobiSvd.of(matrix, "norm").singularValues;
                    yield s.length == 0 ? 0 : p > 0 ? s[0] : s[s.length - 1];
                }
                if (Math.abs(p) == 1) {
                    yield extremeOfSums(matrix.transpose(), p > 0);
                }
                if (Double.isInfinite(p)) {
                    yield extremeOfSums(matrix, p > 0);
                }
                throw new IllegalArgumentException("norm: Invalid norm order " + order + " for matrices (use ±1, ±2, ±inf, fro or nuc)");
            }
        };
    }

    /** The largest (or smallest) sum of absolute values over the rows. */
    private static double extremeOfSums(DenseMatrix matrix, boolean largest) {
        double extreme = largest ? 0 : Double.POSITIVE_INFINITY;
        for (int row = 0; row < matrix.rows; row++) {
            double sum = 0;
            for (int column = 0; column < matrix.columns; column++) {
                sum += Math.abs(matrix.get(row, column));
            }
            extreme = largest ? Math.max(extreme, sum) : Math.min(extreme, sum);
        }
        return extreme;
    }

    /** The 2-norm, scaled by the largest magnitude so that squares neither overflow nor underflow. */
    static double euclidean(double[] values) {
        double largest = 0;
        for (double value : values) {
            if (Double.isNaN(value)) {
                return Double.NaN;
            }
            largest = Math.max(largest, Math.abs(value));
        }
        if (largest == 0 || Double.isInfinite(largest)) {
            return largest;
        }
        double sum = 0;
        for (double value : values) {
            double scaled = value / largest;
            sum += scaled * scaled;
        }
        return largest * Math.sqrt(sum);
    }

    private static double[] flat(NDArray x) {
        return DenseMatrix.of(x.reshape(1, x.size()), "norm").values;
    }

    private static NDArray scalar(double value, NDArray x) {
        NDArray result = NDArray.scalar(value);
        return DenseMatrix.resultType(x) == DType.FLOAT32 ? result.astype(DType.FLOAT32) : result;
    }
}

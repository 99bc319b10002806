package org.tessera.ndarray.linalg;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.layout.Shapes;

/**
 * NumPy's {@code dot}, {@code vdot}, {@code inner}, {@code outer} and {@code tensordot}, each
 * reduced to {@link Matmul#matmul}: contractions become (free × summed) @ (summed × free) after a
 * transpose and a reshape, and an elementwise product is a matrix product with a depth of 1, which
 * rounds each product exactly once as NumPy's multiply does.
 */
public final class Products {
    private Products() {}

    /** NumPy's {@code dot}: scalar product, inner product, matrix product, or a sum over a's last and b's second-to-last axis. */
    public static NDArray dot(NDArray a, NDArray b) {
        if (a.ndim() == 0 || b.ndim() == 0) {
            return multiply(a, b);
        }
        if (b.ndim() <= 2) {
            long summed = b.shape(b.ndim() == 1 ? 0 : -2);
            if (a.shape(-1) != summed) {
                throw notAligned(a, b, b.ndim() == 1 ? 0 : b.ndim() - 2);
            }
            return Matmul.matmul(a, b);
        }
        if (a.shape(-1) != b.shape(-2)) {
            throw notAligned(a, b, b.ndim() - 2);
        }
        return tensordot(a, b, new int[] {a.ndim() - 1}, new int[] {b.ndim() - 2});
    }

    private static ShapeMismatchException notAligned(NDArray a, NDArray b, int bAxis) {
        return new ShapeMismatchException("shapes " + Shapes.format(a.shape()) + " and " + Shapes.format(b.shape())
                + " not aligned: " + a.shape(-1) + " (dim " + (a.ndim() - 1) + ") != " + b.shape(bAxis) + " (dim " + bAxis + ")");
    }

    /** NumPy's {@code vdot}: both operands flattened, the first conjugated; a 0-d result. */
    public static NDArray vdot(NDArray a, NDArray b) {
        if (a.size() != b.size()) {
            throw new ShapeMismatchException("vdot: cannot take the dot product of arrays of sizes " + a.size() + " "
                    + Shapes.format(a.shape()) + " and " + b.size() + " " + Shapes.format(b.shape()));
        }
        NDArray flat = a.ravel();
        if (a.dtype().isComplex()) {
            flat = flat.copy();
            for (long i = 0; i < flat.size(); i++) {
                Complex value = flat.getComplex(i);
                flat.setComplex(new Complex(value.real(), -value.imag()), i);
            }
        }
        return Matmul.matmul(flat, b.ravel());
    }

    /** NumPy's {@code inner}: the sum over the last axes of both operands. */
    public static NDArray inner(NDArray a, NDArray b) {
        if (a.ndim() == 0 || b.ndim() == 0) {
            return multiply(a, b);
        }
        if (a.shape(-1) != b.shape(-1)) {
            throw new ShapeMismatchException("inner: shapes " + Shapes.format(a.shape()) + " and " + Shapes.format(b.shape())
                    + ": last dimensions " + a.shape(-1) + " != " + b.shape(-1));
        }
        return tensordot(a, b, new int[] {-1}, new int[] {-1});
    }

    /** NumPy's {@code outer}: both operands flattened, result[i, j] = a[i] × b[j]. */
    public static NDArray outer(NDArray a, NDArray b) {
        return Matmul.matmul(a.reshape(a.size(), 1), b.reshape(1, b.size()));
    }

    /** NumPy's {@code tensordot} with an integer: the last {@code axisCount} axes of a against the first of b. */
    public static NDArray tensordot(NDArray a, NDArray b, int axisCount) {
        if (axisCount < 0 || axisCount > a.ndim() || axisCount > b.ndim()) {
            throw new IllegalArgumentException("tensordot: cannot sum over " + axisCount + " axes of arrays of shapes "
                    + Shapes.format(a.shape()) + " and " + Shapes.format(b.shape()));
        }
        int[] aAxes = new int[axisCount];
        int[] bAxes = new int[axisCount];
        for (int i = 0; i < axisCount; i++) {
            aAxes[i] = a.ndim() - axisCount + i;
            bAxes[i] = i;
        }
        return tensordot(a, b, aAxes, bAxes);
    }

    /** NumPy's {@code tensordot} with a pair of axis lists: sums a's {@code aAxes} against b's {@code bAxes}. */
    public static NDArray tensordot(NDArray a, NDArray b, int[] aAxes, int[] bAxes) {
        if (aAxes.length != bAxes.length) {
            throw new ShapeMismatchException("tensordot: shape-mismatch for sum: " + aAxes.length + " axes of "
                    + Shapes.format(a.shape()) + " against " + bAxes.length + " axes of " + Shapes.format(b.shape()));
        }
        int[] aSummed = AxisLists.normalize(aAxes, a.ndim());
        int[] bSummed = AxisLists.normalize(bAxes, b.ndim());
        long depth = 1;
        for (int i = 0; i < aSummed.length; i++) {
            if (a.shape(aSummed[i]) != b.shape(bSummed[i])) {
                throw new ShapeMismatchException("tensordot: shape-mismatch for sum: axis " + aSummed[i] + " of "
                        + Shapes.format(a.shape()) + " has length " + a.shape(aSummed[i]) + " but axis " + bSummed[i]
                        + " of " + Shapes.format(b.shape()) + " has " + b.shape(bSummed[i]));
            }
            depth *= a.shape(aSummed[i]);
        }
        int[] aFree = AxisLists.complement(aSummed, a.ndim());
        int[] bFree = AxisLists.complement(bSummed, b.ndim());
        NDArray left = a.transpose(AxisLists.concat(aFree, aSummed)).reshape(AxisLists.product(a, aFree), depth);
        NDArray right = b.transpose(AxisLists.concat(bSummed, bFree)).reshape(depth, AxisLists.product(b, bFree));
        long[] resultShape = AxisLists.concat(AxisLists.lengthsOf(a, aFree), AxisLists.lengthsOf(b, bFree));
        return Matmul.matmul(left, right).reshape(resultShape);
    }

    /** A 0-d operand times the other operand: a matrix product of depth 1 rounds each product once. */
    static NDArray multiply(NDArray a, NDArray b) {
        NDArray array = a.ndim() == 0 ? b : a;
        NDArray scalar = a.ndim() == 0 ? a : b;
        NDArray column = array.reshape(array.size(), 1);
        NDArray result = a.ndim() == 0 ? Matmul.matmul(scalar.reshape(1, 1), column.reshape(1, array.size()))
                : Matmul.matmul(column, scalar.reshape(1, 1));
        return result.reshape(array.shape());
    }
}

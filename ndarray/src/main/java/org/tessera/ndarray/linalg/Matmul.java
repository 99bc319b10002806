package org.tessera.ndarray.linalg;

import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.blas.Blas;
import org.tessera.ndarray.blas.Gemm;
import org.tessera.ndarray.blas.Matrix;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.dtype.Promotion;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.iteration.OffsetWalk;
import org.tessera.ndarray.iteration.Operand;
import org.tessera.ndarray.layout.Shapes;

/**
 * NumPy's {@code matmul}: the last two axes are matrices, the others are batch axes that broadcast.
 * A 1-D first operand is a row (a 1 is prepended to its shape and removed from the result), a 1-D
 * second operand a column (a 1 is appended and removed). Operands are cast to the promoted dtype
 * and every batch element is one {@link Gemm} call.
 */
public final class Matmul {
    private Matmul() {}

    /** {@code a @ b} with the selected BLAS provider. */
    public static NDArray matmul(NDArray a, NDArray b) {
        return matmul(a, b, Blas.selected());
    }

    /** {@code a @ b} with a given provider. */
    public static NDArray matmul(NDArray a, NDArray b, Gemm gemm) {
        for (int operand = 0; operand < 2; operand++) {
            if ((operand == 0 ? a : b).ndim() == 0) {
                throw new ShapeMismatchException("matmul: Input operand " + operand
                        + " does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)");
            }
        }
        NDArray left = a.ndim() == 1 ? a.expandDims(0) : a;
        NDArray right = b.ndim() == 1 ? b.expandDims(1) : b;
        long depth = left.shape(-1);
        if (right.shape(-2) != depth) {
            throw new ShapeMismatchException("matmul: " + Shapes.format(a.shape()) + " and " + Shapes.format(b.shape())
                    + ": core dimension " + depth + " != " + right.shape(-2));
        }
        long[] leftBatch = Arrays.copyOf(left.shape(), left.ndim() - 2);
        long[] rightBatch = Arrays.copyOf(right.shape(), right.ndim() - 2);
        long[] batch;
        try {
            batch = Shapes.broadcast(leftBatch, rightBatch);
        } catch (ShapeMismatchException mismatch) {
            throw new ShapeMismatchException("matmul: " + Shapes.format(a.shape()) + " and " + Shapes.format(b.shape())
                    + ": batch dimensions " + Shapes.format(leftBatch) + " and " + Shapes.format(rightBatch)
                    + " do not broadcast");
        }
        DType dtype = Promotion.resultType(a.dtype(), b.dtype());
        long rowCount = left.shape(-2);
        long columnCount = right.shape(-1);
        NDArray result = NDArray.zeros(dtype, AxisLists.concat(batch, new long[] {rowCount, columnCount}));
        multiplyBatches(cast(left, dtype).broadcastTo(AxisLists.concat(batch, new long[] {rowCount, depth})),
                cast(right, dtype).broadcastTo(AxisLists.concat(batch, new long[] {depth, columnCount})), result, gemm);
        if (a.ndim() == 1) {
            result = result.squeeze(-2);
        }
        if (b.ndim() == 1) {
            result = result.squeeze(-1);
        }
        return result;
    }

    /**
     * {@code out = a @ b}, or where {@code add} {@code out += a @ b}, for matrices of {@code out}'s
     * dtype (float32 or float64 to add) in one gemm call into memory the caller holds: a sum of
     * products made without an array for each product, each added as BLAS forms it (as one product
     * over the joined depth adds its panels), not rounded to a product of its own first.
     */
    public static void matmulInto(NDArray a, NDArray b, NDArray out, boolean add) {
        matmulInto(a, b, out, add, Blas.selected());
    }

    /** {@link #matmulInto(NDArray, NDArray, NDArray, boolean)} with a given provider. */
    public static void matmulInto(NDArray a, NDArray b, NDArray out, boolean add, Gemm gemm) {
        checkInto(a, b, out);
        Matrix left = matrix(a, a.byteOffset()), right = matrix(b, b.byteOffset()), result = matrix(out, out.byteOffset());
        if (add) {
            gemm.multiplyAdd(left, right, result);
        } else {
            gemm.multiply(left, right, result);
        }
    }

    /**
     * {@code b.T @ b} into the square {@code out} (added where {@code add}), right on and above the
     * diagonal only, the rest left unspecified: a sum of such products gets its lower triangle once,
     * from {@link #mirrorUpper}, instead of with every product (see {@link Gemm#gramUpper}).
     */
    public static void gramUpperInto(NDArray b, NDArray out, boolean add) {
        checkInto(b.transpose(), b, out);
        Blas.selected().gramUpper(matrix(b, b.byteOffset()), matrix(out, out.byteOffset()), add);
    }

    /** Copies the upper triangle of a square float32 or float64 matrix onto its lower one, bit for bit. */
    public static void mirrorUpper(NDArray square) {
        if (square.ndim() != 2 || !square.isWriteable()) {
            throw new IllegalArgumentException("mirror: needs a writeable square matrix, not " + square.dtype() + " " + Shapes.format(square.shape())
                    + (square.isWriteable() ? "" : " (read-only)"));
        }
        Gemm.mirrorUpper(matrix(square, square.byteOffset()));
    }

    private static void checkInto(NDArray a, NDArray b, NDArray out) {
        if (a.ndim() != 2 || b.ndim() != 2 || out.ndim() != 2 || a.shape(1) != b.shape(0) || out.shape(0) != a.shape(0)
                || out.shape(1) != b.shape(1) || a.dtype() != out.dtype() || b.dtype() != out.dtype()) {
            throw new ShapeMismatchException("matmul into: cannot multiply " + a.dtype() + " " + Shapes.format(a.shape()) + " by " + b.dtype()
                    + " " + Shapes.format(b.shape()) + " into " + out.dtype() + " " + Shapes.format(out.shape()));
        }
        if (!out.isWriteable() || out.mayShareMemory(a) || out.mayShareMemory(b)) {
            throw new IllegalArgumentException("matmul into: the output " + Shapes.format(out.shape())
                    + (out.isWriteable() ? " shares memory with an operand" : " is read-only"));
        }
    }

    /** Runs one gemm per batch index; the three arrays have the same batch shape. */
    static void multiplyBatches(NDArray left, NDArray right, NDArray result, Gemm gemm) {
        long[] batch = Arrays.copyOf(result.shape(), result.ndim() - 2);
        Operand[] operands = {batchOperand(left, batch), batchOperand(right, batch), batchOperand(result, batch)};
        OffsetWalk.forEachPosition(batch, operands, offsets ->
                gemm.multiply(matrix(left, offsets[0]), matrix(right, offsets[1]), matrix(result, offsets[2])));
    }

    private static Operand batchOperand(NDArray array, long[] batch) {
        return new Operand(array.dtype(), array.segment(), array.byteOffset(),
                Arrays.copyOf(array.byteStrides(), batch.length));
    }

    /** The matrix formed by the last two axes of {@code array}, starting at {@code byteOffset}. */
    static Matrix matrix(NDArray array, long byteOffset) {
        return new Matrix(array.dtype(), array.segment(), byteOffset, array.shape(-2), array.shape(-1),
                array.byteStride(-2), array.byteStride(-1));
    }

    static NDArray cast(NDArray array, DType dtype) {
        return array.dtype() == dtype ? array : array.astype(dtype);
    }
}

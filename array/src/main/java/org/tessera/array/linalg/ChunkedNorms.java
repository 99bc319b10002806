package org.tessera.array.linalg;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.ndarray.decomposition.NormOrder;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * NumPy's {@code linalg.norm} on chunked arrays, as reductions over the blocks: without an order
 * the 2-norm of all elements; with one, a vector norm of a 1-D array (or along {@code axis}) and a
 * matrix norm of a 2-D array. The matrix norms 2, -2 and "nuc" need singular values: they come
 * from the TSQR of the matrix (or of its transpose when it is wide), after a rechunk to one block
 * across the shorter side, so no n x n block larger than the shorter side squared is formed.
 * Results are 0-d (or (n-1)-d along an axis), float32 for float32 input and float64 otherwise.
 */
public final class ChunkedNorms {
    private ChunkedNorms() {
    }

    public static ChunkedArray norm(ChunkedArray x) {
        ChunkedArray values = floating(x);
        return values.multiply(values).sum().apply(Ufuncs.SQRT);
    }

    public static ChunkedArray norm(ChunkedArray x, NormOrder order) {
        return switch (x.ndim()) {
            case 1 -> vectorNorm(floating(x), order, 0);
            case 2 -> matrixNorm(floating(x), order);
            default -> throw new IllegalArgumentException("norm: an order (" + order + ") needs a 1-D or 2-D array, got shape " + TaskLayers.shape(x));
        };
    }

    /** The vector norm of every line along {@code axis} (negative counts from the end). */
    public static ChunkedArray norm(ChunkedArray x, NormOrder order, int axis) {
        int normalized = axis < 0 ? axis + x.ndim() : axis;
        if (normalized < 0 || normalized >= x.ndim()) {
            throw new IllegalArgumentException("norm: axis " + axis + " is out of bounds for an array of shape " + TaskLayers.shape(x));
        }
        return vectorNorm(floating(x), order, normalized);
    }

    private static ChunkedArray vectorNorm(ChunkedArray x, NormOrder order, int axis) {
        if (order.kind() != NormOrder.Kind.POWER) {
            throw new IllegalArgumentException("norm: Invalid norm order '" + order + "' for vectors");
        }
        double p = order.p();
        ChunkedArray magnitudes = x.abs();
        if (p == Double.POSITIVE_INFINITY) {
            return magnitudes.max(axis);
        }
        if (p == Double.NEGATIVE_INFINITY) {
            return magnitudes.min(axis);
        }
        if (p == 0) {
            return x.notEqual(0).astype(x.dtype()).sum(axis);
        }
        if (p == 1) {
            return magnitudes.sum(axis);
        }
        if (p == 2) {
            return x.multiply(x).sum(axis).apply(Ufuncs.SQRT);
        }
        return magnitudes.power(p).sum(axis).power(1 / p);
    }

    private static ChunkedArray matrixNorm(ChunkedArray x, NormOrder order) {
        return switch (order.kind()) {
            case FROBENIUS -> x.multiply(x).sum().apply(Ufuncs.SQRT);
            case NUCLEAR -> singularValues(x).sum();
            case POWER -> {
                double p = order.p();
                if (Math.abs(p) == 2) {
                    ChunkedArray s = singularValues(x);
                    yield p > 0 ? s.max() : s.min();
                }
                if (Math.abs(p) == 1) {
                    ChunkedArray columnSums = x.abs().sum(0);
                    yield p > 0 ? columnSums.max() : columnSums.min();
                }
                if (Double.isInfinite(p)) {
                    ChunkedArray rowSums = x.abs().sum(1);
                    yield p > 0 ? rowSums.max() : rowSums.min();
                }
                throw new IllegalArgumentException("norm: Invalid norm order " + order + " for matrices (use ±1, ±2, ±inf, fro or nuc)");
            }
        };
    }

    private static ChunkedArray singularValues(ChunkedArray x) {
        ChunkedArray tall = x.shape(0) >= x.shape(1) ? x : x.T();
        return TallSkinny.svd(tall.rechunk(ChunkSpec.explicit(tall.chunks().axis(0), new long[] {tall.shape(1)}))).singularValues();
    }

    /** Integers and booleans as float64, as NumPy's norm converts them. */
    private static ChunkedArray floating(ChunkedArray x) {
        TaskLayers.resultType(x.dtype());
        return x.dtype().isFloat() ? x : x.astype(DType.FLOAT64);
    }
}

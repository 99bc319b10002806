package org.tessera.array.linalg;

import java.util.Map;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.reduction.LayerMemory;
import org.tessera.array.reduction.ChunkedStatistics;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.decomposition.Decompositions;
import org.tessera.ndarray.decomposition.LeastSquaresSolution;
import org.tessera.ndarray.dtype.DType;

/**
 * Least squares {@code min |A x - b|} for a tall-and-skinny chunked A, as Dask's {@code lstsq}:
 * with {@code A = Q R} by TSQR, {@code |A x - b|} is smallest where {@code R x = Q^T b}, a small
 * system solved in memory (by the SVD of R, so a rank-deficient A gets the minimum-norm x). Only
 * A's row blocks and n x n matrices are ever held.
 */
public final class LeastSquares {
    private static final TaskFunction SMALL_LSTSQ = TaskFunction.named("lstsq-small", arguments -> {
        LeastSquaresSolution solution = Decompositions.lstsq(Blocks.dense(arguments.get(0), "least squares"), Blocks.dense(arguments.get(1), "least squares"));
        return new NDArray[] {solution.solution(), NDArray.scalar((long) solution.rank()), solution.singularValues()};
    });

    private LeastSquares() {
    }

    /** x, the residual sums of squares, the rank and the singular values of A (see {@link ChunkedLeastSquares}). */
    public static ChunkedLeastSquares lstsq(ChunkedArray a, ChunkedArray b) {
        TallSkinny.requireTallSkinny(a, "lstsq");
        if (b.ndim() != 1 && b.ndim() != 2) {
            throw new IllegalArgumentException("lstsq: the right-hand side must be 1-D or 2-D, got shape " + TaskLayers.shape(b));
        }
        b.chunks().requireKnownShape("lstsq");
        if (b.shape(0) != a.shape(0)) {
            throw new IllegalArgumentException("lstsq: the right-hand side of shape " + TaskLayers.shape(b) + " does not match the matrix of shape "
                    + TaskLayers.shape(a) + " (" + a.shape(0) + " rows expected)");
        }
        DType dtype = TaskLayers.resultType(a.dtype()) == TaskLayers.resultType(b.dtype()) ? TaskLayers.resultType(a.dtype()) : DType.FLOAT64;
        ChunkedArray input = a.astype(dtype);
        ChunkedArray rightHandSide = b.astype(dtype);
        ChunkedQr qr = TallSkinny.qr(input);
        ChunkedArray projected = qr.q().T().matmul(rightHandSide);
        ChunkedArray projectedBlock = SquareLinearAlgebra.singleBlock(projected, "lstsq", Long.MAX_VALUE);
        long n = a.shape(1);
        String token = Tokens.token("lstsq", qr.r().name(), projectedBlock.name());
        String name = "lstsq-" + token;
        Key key = Key.of(name, 0);
        long[] solutionShape = b.ndim() == 1 ? new long[] {n} : new long[] {n, b.shape(1)};
        long columns = b.ndim() == 1 ? 1 : b.shape(1);
        long singular = Math.min(a.shape(0), n);
        long item = dtype.byteSize();
        // x (n x columns), the rank and the singular values; R's SVD (on float64 copies: R, U, V^T) and the right-hand side solved against it.
        HighLevelGraph graph = TaskLayers.with(HighLevelGraph.merge(qr.r().graph(), projectedBlock.graph()), name,
                Map.of(key, Task.call(SMALL_LSTSQ, qr.r().key(0, 0), projectedBlock.key(new int[b.ndim()]))),
                unused -> LayerMemory.arrayBytes(0, item, 3) + (n * columns + 1 + singular) * item,
                unused -> 3 * TaskLayers.matrixBytes(n, n, DType.FLOAT64) + 2 * TaskLayers.matrixBytes(n, columns, DType.FLOAT64),
                qr.r().name(), projectedBlock.name());
        ChunkedArray solution = TaskLayers.component(graph, key, 0, "lstsq-x-" + token, solutionShape, dtype);
        ChunkedArray rank = TaskLayers.component(graph, key, 1, "lstsq-rank-" + token, new long[0], DType.INT64);
        ChunkedArray singularValues = TaskLayers.component(graph, key, 2, "lstsq-s-" + token, new long[] {Math.min(a.shape(0), n)}, dtype);
        ChunkedArray difference = input.matmul(solution).subtract(rightHandSide);
        ChunkedArray residuals = ChunkedStatistics.sum(difference.multiply(difference), ChunkedStatistics.Request.axes(0).keepdims(b.ndim() == 1));
        return new ChunkedLeastSquares(solution, residuals, rank, singularValues);
    }
}

package org.tessera.array.linalg;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Working;
import org.tessera.array.reduction.LayerMemory;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.decomposition.Decompositions;
import org.tessera.ndarray.decomposition.QrDecomposition;
import org.tessera.ndarray.decomposition.SingularValueDecomposition;
import org.tessera.ndarray.dtype.DType;

/**
 * QR and SVD of a tall-and-skinny chunked matrix (many rows, few columns, chunked along rows only)
 * by TSQR, the communication-avoiding QR that Dask's {@code tsqr} implements:
 *
 * <ol>
 * <li>each row block {@code A_i} is factored on its own, {@code A_i = Q_i R_i};</li>
 * <li>the small {@code R_i} are stacked and factored once more, {@code [R_1; ...; R_b] = Q' R};</li>
 * <li>{@code Q} is, block by block, {@code Q_i} times the rows of {@code Q'} that belong to block i.</li>
 * </ol>
 *
 * Only the stacked Rs (at most n rows per block, n columns) meet in one task, so memory is bounded
 * by one row block plus {@code blocks x n x n}; a single level of stacking is used, which serves
 * any number of blocks whose stacked Rs fit in memory. For the SVD, the small R is decomposed
 * in memory, {@code R = U_R S V^T}, and {@code U = Q U_R} block by block. R's diagonal is made
 * non-negative, so the factors equal the in-memory ones of {@link Decompositions#qr} up to rounding.
 */
public final class TallSkinny {
    private static final TaskFunction BLOCK_QR = TaskFunction.named("tsqr-block", arguments -> {
        QrDecomposition qr = Decompositions.qr(Blocks.dense(arguments.get(0), "tall skinny"));
        return new NDArray[] {qr.q(), qr.r()};
    });
    private static final TaskFunction STACKED_QR = TaskFunction.named("tsqr-stacked", arguments -> {
        List<NDArray> rs = new ArrayList<>();
        for (Object blockQr : (List<?>) arguments.get(0)) {
            rs.add(((NDArray[]) blockQr)[1]);
        }
        QrDecomposition qr = Decompositions.qr(NDArrays.concatenate(rs, 0));
        return new NDArray[] {qr.q(), qr.r()};
    });
    private static final TaskFunction MULTIPLY_BACK = TaskFunction.named("tsqr-q", arguments -> {
        NDArray blockQ = ((NDArray[]) arguments.get(0))[0];
        NDArray stackedQ = ((NDArray[]) arguments.get(1))[0];
        long start = (Long) arguments.get(2);
        return NDArrays.matmul(blockQ, stackedQ.slice(0, start, 1, blockQ.shape(1)));
    });
    private static final TaskFunction SMALL_SVD = TaskFunction.named("tsqr-svd", arguments -> {
        SingularValueDecomposition svd = Decompositions.svd(Blocks.dense(arguments.get(0), "tall skinny"));
        return new NDArray[] {svd.u(), svd.singularValues(), svd.vt()};
    });
    private static final TaskFunction TIMES_FIRST_COMPONENT = TaskFunction.named("tsqr-u",
            arguments -> NDArrays.matmul(Blocks.dense(arguments.get(0), "tall skinny"), ((NDArray[]) arguments.get(1))[0]));

    private TallSkinny() {
    }

    /**
     * The reduced QR of {@code a}: Q chunked along rows as {@code a} with one column block, R one
     * {@code k x n} block, {@code k = min(m, n)}.
     *
     * @throws IllegalArgumentException when {@code a} is not 2-D, has unknown chunks, or more than one column block
     */
    public static ChunkedQr qr(ChunkedArray a) {
        requireTallSkinny(a, "qr");
        long n = a.shape(1);
        long[] rowLengths = a.chunks().axis(0);
        DType dtype = TaskLayers.resultType(a.dtype());
        String token = Tokens.token("tsqr", a.name());
        String blockName = "tsqr-block-" + token;
        String stackedName = "tsqr-stacked-" + token;
        Map<Key, Task> blockTasks = TaskLayers.tasks();
        List<Object> blockRefs = new ArrayList<>();
        long[] starts = new long[rowLengths.length];
        long stackedRows = 0;
        for (int block = 0; block < rowLengths.length; block++) {
            Key key = Key.of(blockName, block);
            blockTasks.put(key, Task.call(BLOCK_QR, a.key(block, 0)));
            blockRefs.add(key);
            starts[block] = stackedRows;
            stackedRows += Math.min(rowLengths[block], n);
        }
        long k = Math.min(stackedRows, n);
        long item = dtype.byteSize();
        long total = stackedRows;
        // Each block's Q_i (rows x k_i) and R_i (k_i x n), k_i = min(rows, n); the factorisation works on a float64 copy of the block.
        HighLevelGraph graph = TaskLayers.with(a.graph(), blockName, blockTasks,
                key -> blockQrBytes(rowLengths[key.index(0)], n, item),
                key -> TaskLayers.matrixBytes(rowLengths[key.index(0)], n, DType.FLOAT64), a.name());
        Key stackedKey = Key.of(stackedName, 0);
        // The stacked Rs joined (stackedRows x n), factored on a float64 copy: Q' (stackedRows x k) and R (k x n).
        graph = TaskLayers.with(graph, stackedName, Map.of(stackedKey, Task.call(STACKED_QR, blockRefs)),
                key -> LayerMemory.arrayBytes(0, item, 2) + TaskLayers.matrixBytes(total, k, dtype) + TaskLayers.matrixBytes(k, n, dtype),
                key -> TaskLayers.matrixBytes(total, n, dtype) + TaskLayers.matrixBytes(total, n, DType.FLOAT64), blockName);

        String qName = "tsqr-q-" + token;
        Map<Key, Task> qTasks = TaskLayers.tasks();
        for (int block = 0; block < rowLengths.length; block++) {
            qTasks.put(Key.of(qName, block, 0), Task.call(MULTIPLY_BACK, Key.of(blockName, block), stackedKey, starts[block]));
        }
        // Q_i times its rows of Q': the product's operands and result copied to BLAS scratch memory.
        Working multiplyBack = (key, resultBytes) -> {
            long rows = rowLengths[Math.min(key.index(0), rowLengths.length - 1)];
            long ki = Math.min(rows, n);
            return TaskLayers.matrixBytes(rows, ki, dtype) + TaskLayers.matrixBytes(ki, k, dtype) + resultBytes;
        };
        ChunkedArray q = TaskLayers.array(graph, qName, qTasks, Chunks.of(rowLengths, new long[] {k}), dtype, multiplyBack, blockName, stackedName);
        ChunkedArray r = TaskLayers.component(graph, stackedKey, 1, "tsqr-r-" + token, new long[] {k, n}, dtype);
        return new ChunkedQr(q, r);
    }

    /**
     * The reduced SVD of a tall-and-skinny {@code a} through its TSQR: U chunked along rows as
     * {@code a}, the singular values (descending) and V^T one block each.
     */
    public static ChunkedSvd svd(ChunkedArray a) {
        ChunkedQr qr = qr(a);
        long k = qr.r().shape(0);
        long n = qr.r().shape(1);
        long rank = Math.min(k, n);
        DType dtype = qr.q().dtype();
        String token = Tokens.token("tsqr-svd", qr.r().name());
        String smallName = "tsqr-small-svd-" + token;
        Key smallKey = Key.of(smallName, 0);
        HighLevelGraph graph = HighLevelGraph.merge(qr.q().graph(), qr.r().graph());
        // U_R (k x rank), S (rank) and V^T (rank x n) of R, decomposed on float64 copies of R.
        graph = TaskLayers.with(graph, smallName, Map.of(smallKey, Task.call(SMALL_SVD, qr.r().key(0, 0))),
                key -> LayerMemory.arrayBytes(0, 1, 3) + TaskLayers.matrixBytes(k, rank, dtype) + TaskLayers.matrixBytes(rank, 1, dtype)
                        + TaskLayers.matrixBytes(rank, n, dtype),
                key -> 2 * TaskLayers.matrixBytes(k, n, DType.FLOAT64) + TaskLayers.matrixBytes(n, n, DType.FLOAT64), qr.r().name());
        String uName = "tsqr-u-" + token;
        Map<Key, Task> uTasks = TaskLayers.tasks();
        long[] rowLengths = qr.q().chunks().axis(0);
        for (int block = 0; block < rowLengths.length; block++) {
            uTasks.put(Key.of(uName, block, 0), Task.call(TIMES_FIRST_COMPONENT, qr.q().key(block, 0), smallKey));
        }
        // Q's block times U_R: the product's operands and result copied to BLAS scratch memory.
        Working timesU = (key, resultBytes) -> TaskLayers.matrixBytes(rowLengths[Math.min(key.index(0), rowLengths.length - 1)], k, dtype)
                + TaskLayers.matrixBytes(k, rank, dtype) + resultBytes;
        ChunkedArray u = TaskLayers.array(graph, uName, uTasks, Chunks.of(rowLengths, new long[] {rank}), dtype, timesU, qr.q().name(), smallName);
        ChunkedArray s = TaskLayers.component(graph, smallKey, 1, "tsqr-s-" + token, new long[] {rank}, dtype);
        ChunkedArray vt = TaskLayers.component(graph, smallKey, 2, "tsqr-vt-" + token, new long[] {rank, n}, dtype);
        return new ChunkedSvd(u, s, vt);
    }

    /** What a block's QR returns: Q_i (rows x k_i) and R_i (k_i x n), k_i = min(rows, n), as the scheduler counts them. */
    private static long blockQrBytes(long rows, long n, long item) {
        long ki = Math.min(rows, n);
        return LayerMemory.arrayBytes(0, item, 2) + (rows * ki + ki * n) * item;
    }

    static void requireTallSkinny(ChunkedArray a, String operation) {
        if (a.ndim() != 2) {
            throw new IllegalArgumentException(operation + ": a tall-and-skinny QR needs a 2-D array, got shape " + TaskLayers.shape(a));
        }
        a.chunks().requireKnownShape(operation);
        if (a.chunks().blockCount(1) != 1) {
            throw new IllegalArgumentException(operation + ": the input must be tall-and-skinny, chunked along rows only, but the array of shape "
                    + TaskLayers.shape(a) + " has chunks " + a.chunks() + " with " + a.chunks().blockCount(1)
                    + " column blocks; rechunk it to one column block first (x.rechunk(ChunkSpec.perAxis(rows, ChunkSpec.whole())))");
        }
    }
}

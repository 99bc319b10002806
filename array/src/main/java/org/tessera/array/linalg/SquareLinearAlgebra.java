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
import org.tessera.ndarray.decomposition.Decompositions;
import org.tessera.ndarray.decomposition.LuDecomposition;
import org.tessera.ndarray.dtype.DType;

/**
 * {@code cholesky}, {@code lu}, {@code solve} and {@code inv} of square chunked matrices.
 *
 * <p>Policy: these gather the matrix into one block (a rechunk) and decompose it in memory with
 * {@link Decompositions}, then hand the results back chunked as the inputs. That is exact and
 * simple, and right for the matrices that square decompositions are asked of in practice (a few
 * thousand rows); it is refused, with an exception naming the shape and the bytes needed, when the
 * single block would exceed a memory limit ({@link #DEFAULT_MEMORY_LIMIT_BYTES} unless given).
 * Dask's blocked Cholesky and LU, which keep blocks apart, are not implemented. Tall-and-skinny
 * matrices need no such limit: see {@link TallSkinny} and {@link LeastSquares}.
 */
public final class SquareLinearAlgebra {
    /** 512 MiB: an 8192 x 8192 float64 matrix. */
    public static final long DEFAULT_MEMORY_LIMIT_BYTES = 512L << 20;

    private static final TaskFunction CHOLESKY = TaskFunction.named("cholesky", arguments -> Decompositions.cholesky(Blocks.dense(arguments.get(0), "square linear algebra")));
    private static final TaskFunction INV = TaskFunction.named("inv", arguments -> Decompositions.inv(Blocks.dense(arguments.get(0), "square linear algebra")));
    private static final TaskFunction SOLVE = TaskFunction.named("solve",
            arguments -> Decompositions.solve(Blocks.dense(arguments.get(0), "square linear algebra"), Blocks.dense(arguments.get(1), "square linear algebra")));
    private static final TaskFunction LU = TaskFunction.named("lu", arguments -> {
        LuDecomposition lu = Decompositions.lu(Blocks.dense(arguments.get(0), "square linear algebra"));
        return new NDArray[] {lu.permutationMatrix(), lu.lower(), lu.upper()};
    });

    private SquareLinearAlgebra() {
    }

    /** The lower-triangular L with {@code A = L L^T}, chunked as {@code a}. */
    public static ChunkedArray cholesky(ChunkedArray a) {
        return cholesky(a, DEFAULT_MEMORY_LIMIT_BYTES);
    }

    public static ChunkedArray cholesky(ChunkedArray a, long memoryLimitBytes) {
        ChunkedArray single = singleBlock(requireSquare(a, "cholesky"), "cholesky", memoryLimitBytes);
        return unary(single, CHOLESKY, "cholesky").rechunk(a.chunks());
    }

    /** The inverse of {@code a}, chunked as {@code a}. */
    public static ChunkedArray inv(ChunkedArray a) {
        return inv(a, DEFAULT_MEMORY_LIMIT_BYTES);
    }

    public static ChunkedArray inv(ChunkedArray a, long memoryLimitBytes) {
        ChunkedArray single = singleBlock(requireSquare(a, "inv"), "inv", memoryLimitBytes);
        return unary(single, INV, "inv").rechunk(a.chunks());
    }

    /** {@code P A = L U} with partial pivoting, each factor chunked as {@code a}. */
    public static ChunkedLu lu(ChunkedArray a) {
        return lu(a, DEFAULT_MEMORY_LIMIT_BYTES);
    }

    public static ChunkedLu lu(ChunkedArray a, long memoryLimitBytes) {
        ChunkedArray single = singleBlock(requireSquare(a, "lu"), "lu", memoryLimitBytes);
        long n = a.shape(0);
        DType dtype = TaskLayers.resultType(a.dtype());
        String token = Tokens.token("lu", single.name());
        String name = "lu-" + token;
        Key key = Key.of(name, 0);
        long item = dtype.byteSize();
        // P, L and U (n x n each), factored on a float64 copy of the matrix with its pivots.
        HighLevelGraph graph = TaskLayers.with(single.graph(), name, Map.of(key, Task.call(LU, single.key(0, 0))),
                unused -> LayerMemory.arrayBytes(n * n, item, 3), unused -> 2 * TaskLayers.matrixBytes(n, n, DType.FLOAT64), single.name());
        List<ChunkedArray> factors = new ArrayList<>();
        String[] labels = {"lu-p-", "lu-l-", "lu-u-"};
        for (int component = 0; component < 3; component++) {
            factors.add(TaskLayers.component(graph, key, component, labels[component] + token, new long[] {n, n}, dtype).rechunk(a.chunks()));
        }
        return new ChunkedLu(factors.get(0), factors.get(1), factors.get(2));
    }

    /** x with {@code A x = b} (b 1-D or 2-D), chunked as {@code b}. */
    public static ChunkedArray solve(ChunkedArray a, ChunkedArray b) {
        return solve(a, b, DEFAULT_MEMORY_LIMIT_BYTES);
    }

    public static ChunkedArray solve(ChunkedArray a, ChunkedArray b, long memoryLimitBytes) {
        requireSquare(a, "solve");
        if (b.ndim() != 1 && b.ndim() != 2) {
            throw new IllegalArgumentException("solve: the right-hand side must be 1-D or 2-D, got shape " + TaskLayers.shape(b));
        }
        b.chunks().requireKnownShape("solve");
        if (b.shape(0) != a.shape(0)) {
            throw new IllegalArgumentException("solve: the right-hand side of shape " + TaskLayers.shape(b) + " does not match the matrix of shape "
                    + TaskLayers.shape(a) + " (" + a.shape(0) + " rows expected)");
        }
        ChunkedArray singleA = singleBlock(a, "solve", memoryLimitBytes);
        ChunkedArray singleB = singleBlock(b, "solve", memoryLimitBytes);
        DType dtype = TaskLayers.resultType(a.dtype()) == TaskLayers.resultType(b.dtype()) ? TaskLayers.resultType(a.dtype()) : DType.FLOAT64;
        String name = Tokens.name("solve", singleA.name(), singleB.name());
        Key key = Key.of(name, new int[b.ndim()]);
        HighLevelGraph graph = HighLevelGraph.merge(singleA.graph(), singleB.graph());
        Map<Key, Task> tasks = Map.of(key, Task.call(SOLVE, singleA.key(0, 0), singleB.key(new int[b.ndim()])));
        long n = a.shape(0);
        // The matrix's LU on a float64 copy with its pivots, and the right-hand side copied to be solved in place.
        Working solving = (unused, resultBytes) -> 2 * TaskLayers.matrixBytes(n, n, DType.FLOAT64) + 2 * resultBytes;
        return TaskLayers.array(graph, name, tasks, singleB.chunks(), dtype, solving, singleA.name(), singleB.name()).rechunk(b.chunks());
    }

    private static ChunkedArray unary(ChunkedArray single, TaskFunction function, String label) {
        String name = Tokens.name(label, single.name());
        Map<Key, Task> tasks = Map.of(Key.of(name, 0, 0), Task.call(function, single.key(0, 0)));
        DType dtype = TaskLayers.resultType(single.dtype());
        // The decomposition works on a float64 copy of the matrix (an inverse also on the LU it solves against): two float64 matrices.
        Working working = Working.ofResult(2.0 * Long.BYTES / dtype.byteSize());
        return TaskLayers.array(single.graph(), name, tasks, single.chunks(), dtype, working, single.name());
    }

    static ChunkedArray requireSquare(ChunkedArray a, String operation) {
        if (a.ndim() != 2) {
            throw new IllegalArgumentException(operation + ": needs a 2-D array, got shape " + TaskLayers.shape(a));
        }
        long[] shape = a.chunks().requireKnownShape(operation);
        if (shape[0] != shape[1]) {
            throw new IllegalArgumentException(operation + ": Last 2 dimensions of the array must be square, got shape " + TaskLayers.shape(a));
        }
        return a;
    }

    /** {@code a} as one block, or an exception naming the shape when that block would exceed the limit. */
    static ChunkedArray singleBlock(ChunkedArray a, String operation, long memoryLimitBytes) {
        long[] shape = a.chunks().requireKnownShape(operation);
        long bytes = Long.MAX_VALUE;
        try {
            bytes = 8;
            for (long length : shape) {
                bytes = Math.multiplyExact(bytes, length);
            }
        } catch (ArithmeticException beyondLong) {
            bytes = Long.MAX_VALUE;
        }
        if (bytes > memoryLimitBytes) {
            throw new IllegalArgumentException(operation + ": the array of shape " + TaskLayers.shape(a) + " needs " + bytes
                    + " bytes as the single in-memory block this operation decomposes, above the limit of " + memoryLimitBytes
                    + " bytes; raise the limit or, for a tall-and-skinny matrix, use TallSkinny.qr / svd or LeastSquares.lstsq");
        }
        long[][] whole = new long[shape.length][];
        for (int axis = 0; axis < shape.length; axis++) {
            whole[axis] = new long[] {shape[axis]};
        }
        return a.rechunk(Chunks.of(whole));
    }
}

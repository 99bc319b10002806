package org.tessera.array.creation;

import java.io.Serial;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.blockwise.Workings;
import org.tessera.array.chunks.ChunkNormalization;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;

/**
 * Arrays defined by their diagonals: NumPy's {@code diag} in both directions and {@code tri}.
 *
 * <p>A vector placed on diagonal {@code k} gets the vector's block boundaries on both axes plus one
 * extra block of {@code |k|} along each axis (the last rows and the first columns for {@code k > 0},
 * the other way round for {@code k < 0}). Then every vector block lands inside exactly one output
 * block, on that block's main diagonal, and every other block is zeros. For a vector in blocks
 * {@code (2, 3)} and {@code k = 1} the output has row blocks {@code (2, 3, 1)} and column blocks
 * {@code (1, 2, 3)}; vector block 0 is the diagonal of output block (0, 1), block 1 of (1, 2).
 *
 * That layer holds a task per output block, {@code (m + 1)^2} for {@code m} vector blocks, as
 * Dask's does: the zero blocks are cheap, but there are many of them.
 *
 * <p>The diagonal of a matrix crosses a chain of blocks; each stretch inside one block becomes one
 * output block, so the output's boundaries are where the diagonal crosses a block boundary.
 */
public final class Diagonals {
    private Diagonals() {
    }

    /** The int64 arrays of a block's length that putting a vector on a block's diagonal makes: positions, and the assignment's index arrays. */
    private static final long DIAGONAL_INDEX_ARRAYS = 4;

    /** {@link #diag(ChunkedArray, long)} with {@code k = 0}. */
    public static ChunkedArray diag(ChunkedArray array) {
        return diag(array, 0);
    }

    /**
     * As NumPy's {@code diag}: a 1-D array becomes the {@code k}-th diagonal of a square array of side
     * {@code length + |k|}; a 2-D array gives its {@code k}-th diagonal as a 1-D array (empty when
     * {@code k} lies outside the array). Blocks are copies.
     *
     * @throws IllegalArgumentException when the array is neither 1-D nor 2-D
     */
    public static ChunkedArray diag(ChunkedArray array, long k) {
        return switch (array.ndim()) {
            case 1 -> vectorOnDiagonal(array, k);
            case 2 -> diagonalOf(array, k);
            default -> throw new IllegalArgumentException("diag: input must be 1-d or 2-d, got shape " + Arrays.toString(array.shape())
                    + " (" + array.ndim() + " axes)");
        };
    }

    public static ChunkedArray diag(ChunkedArray array, long k, Object like) {
        return LikeArrays.inFamilyOf(diag(array, k), like);
    }

    private static ChunkedArray vectorOnDiagonal(ChunkedArray vector, long k) {
        long length = vector.chunks().requireKnownShape("diag")[0];
        if (k == Long.MIN_VALUE) {
            throw new IllegalArgumentException("diag: k " + k + " has no absolute value in a long");
        }
        long offset = Math.abs(k);
        DType dtype = vector.dtype();
        if (length == 0) {
            return Creation.zeros(new long[] {offset, offset}, dtype, ChunkSpec.whole());
        }
        long[] vectorLengths = vector.chunks().axis(0);
        long[] rowLengths = k < 0 ? prepend(offset, vectorLengths) : k > 0 ? append(vectorLengths, offset) : vectorLengths;
        long[] columnLengths = k > 0 ? prepend(offset, vectorLengths) : k < 0 ? append(vectorLengths, offset) : vectorLengths;
        int rowShift = k < 0 ? 1 : 0;
        int columnShift = k > 0 ? 1 : 0;
        String name = Tokens.name("diag", vector.name(), k);
        Map<Key, Task> tasks = new LinkedHashMap<>();
        for (int rowBlock = 0; rowBlock < rowLengths.length; rowBlock++) {
            for (int columnBlock = 0; columnBlock < columnLengths.length; columnBlock++) {
                int vectorBlock = rowBlock - rowShift;
                boolean onDiagonal = vectorBlock >= 0 && vectorBlock < vectorLengths.length && columnBlock - columnShift == vectorBlock;
                tasks.put(Key.of(name, rowBlock, columnBlock), onDiagonal
                        ? Task.call(new VectorOnBlockDiagonal(), Task.ref(vector.key(vectorBlock)))
                        : Task.call(new ZeroBlock(dtype), Task.literal(new long[] {rowLengths[rowBlock], columnLengths[columnBlock]})));
            }
        }
        HighLevelGraph graph = HighLevelGraph.merge(vector.graph()).with(new MaterializedLayer(name, tasks), Set.of(vector.name()));
        // A block on the diagonal makes int64 positions of its length and the index arrays of the assignment; zero blocks nothing.
        long[] positionBytes = Arrays.stream(rowLengths).map(rows -> DIAGONAL_INDEX_ARRAYS * rows * Long.BYTES).toArray();
        graph = Footprints.declare(graph, name, Workings.alongAxis(0, positionBytes));
        return new ChunkedArray(graph, name, Chunks.of(rowLengths, columnLengths), ChunkedArray.metaOf(dtype, 2));
    }

    private static ChunkedArray diagonalOf(ChunkedArray matrix, long k) {
        long[] shape = matrix.chunks().requireKnownShape("diag");
        // Saturated so that a k far outside the array (even Long.MIN_VALUE) just gives an empty diagonal.
        long firstRow = k >= 0 ? 0 : -Math.max(k, -shape[0]);
        long firstColumn = k >= 0 ? Math.min(k, shape[1]) : 0;
        long length = Math.max(0, Math.min(shape[0] - firstRow, shape[1] - firstColumn));
        String name = Tokens.name("diagonal", matrix.name(), k);
        DType dtype = matrix.dtype();
        if (length == 0) {
            Map<Key, Task> empty = Map.of(Key.of(name, 0), Task.call(new ZeroBlock(dtype), Task.literal(new long[] {0})));
            HighLevelGraph graph = Footprints.declare(HighLevelGraph.empty().with(new MaterializedLayer(name, empty), Set.of()), name, Working.none());
            return new ChunkedArray(graph, name, Chunks.of(new long[] {0}), ChunkedArray.metaOf(dtype, 1));
        }
        long[] rowOffsets = matrix.chunks().offsets(0);
        long[] columnOffsets = matrix.chunks().offsets(1);
        Map<Key, Task> tasks = new LinkedHashMap<>();
        List<Long> pieceLengths = new java.util.ArrayList<>();
        int rowBlock = 0;
        int columnBlock = 0;
        long row = firstRow;
        long column = firstColumn;
        while (row - firstRow < length) {
            // Blocks of length 0 end where they start and are skipped here.
            while (rowOffsets[rowBlock + 1] <= row) {
                rowBlock++;
            }
            while (columnOffsets[columnBlock + 1] <= column) {
                columnBlock++;
            }
            long piece = Math.min(Math.min(rowOffsets[rowBlock + 1] - row, columnOffsets[columnBlock + 1] - column), length - (row - firstRow));
            BlockDiagonal function = new BlockDiagonal(row - rowOffsets[rowBlock], column - columnOffsets[columnBlock], piece);
            tasks.put(Key.of(name, pieceLengths.size()), Task.call(function, Task.ref(matrix.key(rowBlock, columnBlock))));
            pieceLengths.add(piece);
            row += piece;
            column += piece;
        }
        long[] lengths = pieceLengths.stream().mapToLong(Long::longValue).toArray();
        HighLevelGraph graph = HighLevelGraph.merge(matrix.graph()).with(new MaterializedLayer(name, tasks), Set.of(matrix.name()));
        // A piece is a copy of a diagonal view of one block: the copy is the result.
        graph = Footprints.declare(graph, name, Working.none());
        return new ChunkedArray(graph, name, Chunks.of(lengths), ChunkedArray.metaOf(dtype, 1));
    }

    /** {@link #tri(long, long, long, DType, ChunkSpec)} of a square with {@code k = 0}. */
    public static ChunkedArray tri(long rows, DType dtype, ChunkSpec spec) {
        return tri(rows, rows, 0, dtype, spec);
    }

    /**
     * As NumPy's {@code tri}: a {@code rows x columns} array with ones at and below diagonal
     * {@code k} (where {@code column <= row + k}) and zeros elsewhere.
     *
     * @throws IllegalArgumentException when {@code rows} or {@code columns} is negative
     */
    public static ChunkedArray tri(long rows, long columns, long k, DType dtype, ChunkSpec spec) {
        long[] shape = Creation.requireDimensions("tri", rows, columns);
        Chunks chunks = ChunkNormalization.normalize(spec, shape, dtype);
        // Any k beyond the array's corners draws the same picture; clamping keeps the sums below from overflowing.
        long boundedK = Math.clamp(k, -rows - 1, columns + 1);
        return CreationLayer.create(Tokens.name("tri", rows, columns, boundedK, dtype.numpyName(), chunks), chunks, ChunkedArray.metaOf(dtype, 2), "tri",
                (index, blockShape, start) -> triangleBlock(dtype, boundedK, blockShape, start), Working.none());
    }

    public static ChunkedArray tri(long rows, long columns, long k, DType dtype, ChunkSpec spec, Object like) {
        return LikeArrays.inFamilyOf(tri(rows, columns, k, dtype, spec), like);
    }

    private static NDArray triangleBlock(DType dtype, long k, long[] blockShape, long[] start) {
        long lastColumn = start[1] + blockShape[1] - 1;
        if (lastColumn <= start[0] + k) {
            return NDArrays.ones(dtype, blockShape);
        }
        NDArray block = NDArray.zeros(dtype, blockShape);
        for (long row = 0; row < blockShape[0]; row++) {
            // Global column <= global row + k holds for this many leading columns of the block.
            long ones = Math.clamp(start[0] + row + k - start[1] + 1, 0, blockShape[1]);
            if (ones > 0) {
                block.slice(0, row, 1, 1).slice(1, 0, 1, ones).fill(1.0);
            }
        }
        return block;
    }

    private static long[] prepend(long first, long[] rest) {
        long[] result = new long[rest.length + 1];
        result[0] = first;
        System.arraycopy(rest, 0, result, 1, rest.length);
        return result;
    }

    private static long[] append(long[] rest, long last) {
        long[] result = Arrays.copyOf(rest, rest.length + 1);
        result[rest.length] = last;
        return result;
    }

    /** A block of zeros of the given shape (the literal argument). */
    record ZeroBlock(DType dtype) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return NDArray.zeros(dtype, (long[]) arguments.getFirst());
        }

        @Override
        public String displayName() {
            return "zeros";
        }
    }

    /** A square block with the vector block on its main diagonal. */
    record VectorOnBlockDiagonal() implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray vector = Blocks.dense(arguments.getFirst(), "diagonals");
            long length = vector.shape(0);
            NDArray square = NDArray.zeros(vector.dtype(), length, length);
            Index positions = Index.of(NDArrays.arange(length));
            // Advanced-index assignment copies every dtype exactly (no detour through double).
            NDArrays.set(square, vector, positions, positions);
            return square;
        }

        @Override
        public String displayName() {
            return "diag";
        }
    }

    /** A stretch of {@code length} diagonal elements of a block, from local position (row, column). */
    record BlockDiagonal(long row, long column, long length) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray block = Blocks.dense(arguments.getFirst(), "diagonals");
            return block.slice(0, row, 1, length).slice(1, column, 1, length).diagonal().copy();
        }

        @Override
        public String displayName() {
            return "diagonal";
        }
    }
}

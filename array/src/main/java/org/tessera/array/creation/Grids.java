package org.tessera.array.creation;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
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
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.BlockwiseArgument;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/**
 * Coordinate grids: NumPy's {@code indices} and {@code meshgrid}. Both are blockwise layers that
 * allocate nothing until a block is computed, so a grid over a huge domain costs a few objects.
 */
public final class Grids {
    private Grids() {
    }

    /**
     * As NumPy's {@code indices}: an array of shape {@code (n, *dimensions)} for {@code n} dimensions
     * whose slice {@code [a]} holds every element's position along axis {@code a}. {@code spec}
     * chunks the grid axes; the first axis is a single block of length {@code n}.
     *
     * @throws IllegalArgumentException when a dimension is negative or {@code spec} does not fit
     */
    public static ChunkedArray indices(long[] dimensions, DType dtype, ChunkSpec spec) {
        long[] grid = Creation.requireDimensions("indices", dimensions);
        Chunks gridChunks = ChunkNormalization.normalize(spec, grid, dtype);
        long[][] lengths = new long[grid.length + 1][];
        lengths[0] = new long[] {grid.length};
        for (int axis = 0; axis < grid.length; axis++) {
            lengths[axis + 1] = gridChunks.axis(axis);
        }
        Chunks chunks = Chunks.of(lengths);
        // A block makes one int64 line of positions per grid axis, as long as the block along that axis.
        long[][] lineBytes = new long[lengths.length][];
        for (int axis = 1; axis < lengths.length; axis++) {
            lineBytes[axis] = Arrays.stream(lengths[axis]).map(length -> length * Long.BYTES).toArray();
        }
        return CreationLayer.create(Tokens.name("indices", grid, dtype.numpyName(), chunks), chunks, ChunkedArray.metaOf(dtype, grid.length + 1),
                "indices", (index, blockShape, start) -> positionsBlock(dtype, blockShape, start), Workings.alongAxes(lineBytes));
    }

    public static ChunkedArray indices(long[] dimensions, DType dtype, ChunkSpec spec, Object like) {
        return LikeArrays.inFamilyOf(indices(dimensions, dtype, spec), like);
    }

    private static NDArray positionsBlock(DType dtype, long[] blockShape, long[] start) {
        NDArray block = NDArray.zeros(dtype, blockShape);
        int gridAxes = blockShape.length - 1;
        for (int axis = 0; axis < gridAxes; axis++) {
            long[] lineShape = new long[gridAxes];
            Arrays.fill(lineShape, 1);
            lineShape[axis] = blockShape[axis + 1];
            long first = start[axis + 1];
            // A line of positions along one axis, broadcast over the others by assign.
            block.take(0, axis).assign(NDArrays.arange(first, first + blockShape[axis + 1], 1).reshape(lineShape));
        }
        return block;
    }

    /**
     * As NumPy's {@code meshgrid}: for vectors of lengths {@code n0, n1, ...} one array per vector,
     * each of shape {@code (n0, n1, ...)} ("ij" indexing) or {@code (n1, n0, ...)} ("xy", the
     * default in NumPy, which swaps the first two axes), holding its vector repeated along the
     * other axes. Each output keeps its vector's dtype; along each axis the blocks are those of the
     * vector for that axis. Blocks are copies, as NumPy's default {@code copy=True}.
     *
     * @throws IllegalArgumentException when {@code indexing} is neither "xy" nor "ij", or a vector is not 1-D
     */
    public static List<ChunkedArray> meshgrid(String indexing, ChunkedArray... vectors) {
        boolean cartesian = switch (indexing) {
            case "xy" -> true;
            case "ij" -> false;
            case null, default -> throw new IllegalArgumentException("meshgrid: indexing must be \"xy\" or \"ij\", got " + indexing);
        };
        for (int position = 0; position < vectors.length; position++) {
            if (vectors[position].ndim() != 1) {
                throw new IllegalArgumentException("meshgrid: vector " + position + " has shape " + Arrays.toString(vectors[position].shape())
                        + "; give 1-d arrays (flatten others first)");
            }
        }
        int count = vectors.length;
        int[] vectorOfAxis = new int[count];
        Arrays.setAll(vectorOfAxis, axis -> axis);
        if (cartesian && count > 1) {
            vectorOfAxis[0] = 1;
            vectorOfAxis[1] = 0;
        }
        String vectorLetters = CreationLayer.AXIS_LETTERS.substring(0, count);
        StringBuilder outputLetters = new StringBuilder();
        long[][] lengths = new long[count][];
        for (int axis = 0; axis < count; axis++) {
            outputLetters.append(vectorLetters.charAt(vectorOfAxis[axis]));
            lengths[axis] = vectors[vectorOfAxis[axis]].chunks().axis(0);
        }
        List<BlockwiseArgument> arguments = new ArrayList<>();
        Map<Character, Integer> blockCounts = new HashMap<>();
        Set<String> dependencies = new LinkedHashSet<>();
        List<Object> token = new ArrayList<>(List.of(indexing));
        for (int position = 0; position < count; position++) {
            ChunkedArray vector = vectors[position];
            arguments.add(BlockwiseArgument.blocks(vector.name(), vectorLetters.substring(position, position + 1), vector.numBlocks()));
            blockCounts.put(vectorLetters.charAt(position), vector.numBlocks()[0]);
            dependencies.add(vector.name());
            token.add(vector.name());
        }
        HighLevelGraph inputs = HighLevelGraph.merge(Arrays.stream(vectors).map(ChunkedArray::graph).toArray(HighLevelGraph[]::new));
        Chunks chunks = Chunks.of(lengths);
        List<ChunkedArray> grids = new ArrayList<>(count);
        for (int position = 0; position < count; position++) {
            String name = Tokens.name("meshgrid", token, position);
            GridBlock function = new GridBlock(position, vectorOfAxis);
            BlockwiseLayer layer = new BlockwiseLayer(name, outputLetters.toString(), function, arguments, blockCounts, null);
            // A block is a copy of a broadcast view of the vector's block: the copy is the result.
            HighLevelGraph graph = Footprints.declare(inputs.with(layer, dependencies), name, Working.none());
            grids.add(new ChunkedArray(graph, name, chunks, ChunkedArray.metaOf(vectors[position].dtype(), count)));
        }
        return grids;
    }

    public static List<ChunkedArray> meshgrid(String indexing, List<ChunkedArray> vectors, Object like) {
        return meshgrid(indexing, vectors.toArray(ChunkedArray[]::new)).stream().map(grid -> LikeArrays.inFamilyOf(grid, like)).toList();
    }

    /**
     * One block of grid {@code vector}: the arguments are one block of every vector (their lengths
     * give the block's shape), and vector's block is repeated along the other axes.
     */
    record GridBlock(int vector, int[] vectorOfAxis) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        GridBlock {
            vectorOfAxis = vectorOfAxis.clone();
        }

        @Override
        public Object apply(List<Object> arguments) {
            long[] blockShape = new long[vectorOfAxis.length];
            long[] lineShape = new long[vectorOfAxis.length];
            for (int axis = 0; axis < blockShape.length; axis++) {
                blockShape[axis] = Blocks.dense(arguments.get(vectorOfAxis[axis]), "meshgrid").shape(0);
                lineShape[axis] = vectorOfAxis[axis] == vector ? blockShape[axis] : 1;
            }
            return Blocks.dense(arguments.get(vector), "meshgrid").reshape(lineShape).broadcastTo(blockShape).copy();
        }

        @Override
        public String displayName() {
            return "meshgrid";
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof GridBlock block && vector == block.vector && Arrays.equals(vectorOfAxis, block.vectorOfAxis);
        }

        @Override
        public int hashCode() {
            return vector * 31 + Arrays.hashCode(vectorOfAxis);
        }

        @Override
        public String toString() {
            return "GridBlock[vector=" + vector + ", vectorOfAxis=" + Arrays.toString(vectorOfAxis) + "]";
        }
    }
}

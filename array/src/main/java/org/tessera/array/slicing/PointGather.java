package org.tessera.array.slicing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.BlockGrid;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.blockwise.Workings;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.chunks.UnknownChunksException;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.graph.memory.Footprint.PartMaking;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * Advanced indexing of a chunked array: integer arrays on some axes pick points, and each output
 * block reads only the input blocks its points fall in.
 *
 * <p>The points (the broadcast index arrays, in C order) are cut into output blocks along the first
 * point axis: a new block starts at a row whose points fall in other input blocks than the previous
 * row's. With one 1-D array this is Dask's {@code take}: a new output block wherever the input block
 * changes, so a sorted index keeps the input's blocking and an unsorted one makes a block per run.
 * The other point axes are one block each; the axes that are not indexed keep their blocks.
 *
 * <p>An unsorted index along one axis whose points come back to an input block after leaving it
 * gathers in two steps with the same values and blocks: each input block's distinct points once
 * ({@link PickRows}), then the index's points from those (see {@code pickedFirst}).
 */
final class PointGather {
    private PointGather() {
    }

    /**
     * @param view          the array after the basic part of the index
     * @param axes          the axes of {@code view} that the point arrays index, in order
     * @param arrays        int64 in-bounds positions, one array per axis, broadcasting to {@code pointShape}
     * @param pointPosition where the point axes go among the other axes of {@code view}
     * @param oneBlock      all points in one block along each point axis (Dask's vindex), instead of runs
     */
    static ChunkedArray gather(ChunkedArray view, int[] axes, NDArray[] arrays, long[] pointShape, int pointPosition, boolean oneBlock,
            List<Object> tokenParts) {
        if (!oneBlock && axes.length == 1 && view.chunks().isKnown(axes[0])) {
            ChunkedArray picked = pickedFirst(view, axes[0], arrays[0].broadcastTo(pointShape).ravel(), pointShape, pointPosition, tokenParts);
            if (picked != null) {
                return picked;
            }
        }
        return gathered(view, axes, arrays, pointShape, pointPosition, oneBlock, tokenParts);
    }

    /**
     * An unsorted index along one axis as two gathers, or null where one does: first each input
     * block's distinct points in order ({@code x[u]}, u the sorted distinct positions, one task per
     * input block), then the index's points from those ({@code x[u][inverse]}, the same values and
     * the same output blocks). Where the points return to an input block after leaving it, as a
     * shuffled index does, the direct gather reads that block in every output block of a run of its
     * points, so the block is made whole and held until the last of them: the picks are made once,
     * from the input block alone (read deferred, only the rows asked), and hold only the points.
     */
    private static ChunkedArray pickedFirst(ChunkedArray view, int axis, NDArray flat, long[] pointShape, int pointPosition,
            List<Object> tokenParts) {
        long[] offsets = offsets(view.chunks().axis(axis));
        int points = (int) flat.size();
        long[] positions = new long[points];
        int runs = 0;
        int previousBlock = -1;
        for (int point = 0; point < points; point++) {
            positions[point] = flat.getLong(point);
            int block = blockHolding(offsets, positions[point]);
            if (block != previousBlock) {
                runs++;
                previousBlock = block;
            }
        }
        long[] distinct = Arrays.stream(positions).distinct().sorted().toArray();
        BlockPoints byBlock = BlockPoints.of(distinct, offsets);
        if (runs <= byBlock.blocks().size()) {
            return null;
        }
        NDArray inverse = NDArray.zeros(DType.INT64, points);
        for (int point = 0; point < points; point++) {
            inverse.setLong(Arrays.binarySearch(distinct, positions[point]), point);
        }
        ChunkedArray picks = picks(view, axis, distinct, byBlock);
        return gathered(picks, new int[] {axis}, new NDArray[] {inverse.reshape(pointShape)}, pointShape, pointPosition, false, tokenParts);
    }

    /**
     * Sorted distinct points grouped by the input block that holds them.
     *
     * @param blocks the blocks with points, in order
     * @param within per such block, its points' positions within it
     */
    private record BlockPoints(List<Integer> blocks, List<long[]> within) {
        static BlockPoints of(long[] distinct, long[] offsets) {
            List<Integer> blocks = new ArrayList<>();
            List<long[]> within = new ArrayList<>();
            for (int first = 0; first < distinct.length;) {
                int block = blockHolding(offsets, distinct[first]);
                int end = first;
                while (end < distinct.length && distinct[end] < offsets[block + 1]) {
                    end++;
                }
                blocks.add(block);
                within.add(Arrays.stream(distinct, first, end).map(position -> position - offsets[block]).toArray());
                first = end;
            }
            return new BlockPoints(blocks, within);
        }
    }

    /** {@code view[u]} along {@code axis} for sorted distinct positions u: a task per input block with points, its points in order. */
    private static ChunkedArray picks(ChunkedArray view, int axis, long[] distinct, BlockPoints byBlock) {
        List<Integer> touched = byBlock.blocks();
        List<long[]> within = byBlock.within();
        long[][] chunks = new long[view.ndim()][];
        for (int other = 0; other < chunks.length; other++) {
            chunks[other] = view.chunks().axis(other);
        }
        chunks[axis] = within.stream().mapToLong(points -> points.length).toArray();
        String name = Tokens.name("take-picks", view.name(), axis, GatherBlock.int64(distinct));
        int[] counts = Arrays.stream(chunks).mapToInt(lengths -> lengths.length).toArray();
        Map<Key, Task> tasks = new LinkedHashMap<>();
        BlockGrid.forEach(counts, index -> {
            int[] input = index.clone();
            input[axis] = touched.get(index[axis]);
            tasks.put(Key.of(name, index), Task.call(new PickRows(axis, within.get(index[axis])), view.key(input)));
        });
        Chunks result = Chunks.of(chunks);
        // The input's slabs at the points, stacked in scratch memory as large as the picks, which are copied out of it.
        HighLevelGraph graph = Footprints.declare(view.graph().with(new MaterializedLayer(name, tasks), Set.of(view.name())), name,
                Working.ofResult(1).makingParts(PartMaking.MADE, false, true));
        return new ChunkedArray(graph, name, result, ChunkedArray.metaOf(view.dtype(), result.ndim()));
    }

    private static ChunkedArray gathered(ChunkedArray view, int[] axes, NDArray[] arrays, long[] pointShape, int pointPosition, boolean oneBlock,
            List<Object> tokenParts) {
        Chunks chunks = view.chunks();
        int gatheredCount = axes.length;
        long totalPoints = Shapes.size(pointShape);
        if (totalPoints > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("indexing arrays of shape " + IndexText.shape(pointShape) + " select more than 2^31 points");
        }
        int points = (int) totalPoints;
        long[][] offsets = new long[gatheredCount][];
        int[][] blockOf = new int[gatheredCount][points];
        long[][] localOf = new long[gatheredCount][points];
        long[] radix = new long[gatheredCount];
        long nextRadix = 1;
        for (int gathered = gatheredCount - 1; gathered >= 0; gathered--) {
            radix[gathered] = nextRadix;
            nextRadix *= chunks.blockCount(axes[gathered]);
        }
        long[] tupleOf = new long[points];
        for (int gathered = 0; gathered < gatheredCount; gathered++) {
            int axis = axes[gathered];
            if (!chunks.isKnown(axis)) {
                throw new UnknownChunksException("indexing axis " + axis + " of chunks " + chunks + " with an integer array needs its block lengths");
            }
            offsets[gathered] = offsets(chunks.axis(axis));
            NDArray flat = arrays[gathered].broadcastTo(pointShape).ravel();
            for (int point = 0; point < points; point++) {
                long position = flat.getLong(point);
                int block = blockHolding(offsets[gathered], position);
                blockOf[gathered][point] = block;
                localOf[gathered][point] = position - offsets[gathered][block];
                tupleOf[point] += block * radix[gathered];
            }
        }
        List<int[]> groups = rowGroups(pointShape, tupleOf, oneBlock);

        int[] restAxes = restAxes(view.ndim(), axes);
        List<long[]> outputChunks = new ArrayList<>();
        for (int axis : restAxes) {
            outputChunks.add(chunks.axis(axis));
        }
        List<long[]> pointChunks = new ArrayList<>();
        pointChunks.add(groups.stream().mapToLong(group -> group[1] - group[0]).toArray());
        for (int pointAxis = 1; pointAxis < pointShape.length; pointAxis++) {
            pointChunks.add(new long[] {pointShape[pointAxis]});
        }
        outputChunks.addAll(pointPosition, pointChunks);

        String name = Tokens.name("take", view.name(), axes, Arrays.asList(arrays), pointPosition, oneBlock, tokenParts);
        long rowSize = pointShape[0] == 0 ? 0 : totalPoints / pointShape[0];
        int[] restCounts = Arrays.stream(restAxes).map(chunks::blockCount).toArray();
        Map<Key, Task> tasks = new LinkedHashMap<>();
        long[] indexBytes = new long[groups.size()];
        for (int group = 0; group < groups.size(); group++) {
            long groupPoints = (long) (groups.get(group)[1] - groups.get(group)[0]) * rowSize;
            // Per input block an int64 array of its points' coordinates per indexed axis and one of their places;
            // the indexing itself may make each again.
            indexBytes[group] = 2 * groupPoints * (gatheredCount + 1) * Long.BYTES;
        }
        for (int group = 0; group < groups.size(); group++) {
            int firstPoint = (int) (groups.get(group)[0] * rowSize);
            int endPoint = (int) (groups.get(group)[1] * rowSize);
            Map<Long, List<Integer>> pointsByTuple = new LinkedHashMap<>();
            for (int point = firstPoint; point < endPoint; point++) {
                pointsByTuple.computeIfAbsent(tupleOf[point], tuple -> new ArrayList<>()).add(point);
            }
            long[] groupShape = pointShape.clone();
            groupShape[0] = groups.get(group)[1] - groups.get(group)[0];
            GatherBlock function = gatherFunction(axes, localOf, pointsByTuple, firstPoint, groupShape, pointPosition);
            int groupIndex = group;
            BlockGrid.forEach(restCounts, rest -> {
                List<Key> inputs = new ArrayList<>();
                if (pointsByTuple.isEmpty()) {
                    // No points: one input block still gives the output its dtype and other lengths.
                    inputs.add(view.key(inputIndex(view.ndim(), axes, new int[gatheredCount], restAxes, rest)));
                }
                for (List<Integer> tuplePoints : pointsByTuple.values()) {
                    int[] blocks = new int[gatheredCount];
                    for (int gathered = 0; gathered < gatheredCount; gathered++) {
                        blocks[gathered] = blockOf[gathered][tuplePoints.getFirst()];
                    }
                    inputs.add(view.key(inputIndex(view.ndim(), axes, blocks, restAxes, rest)));
                }
                int[] output = new int[outputChunks.size()];
                for (int position = 0, restPosition = 0; position < output.length; position++) {
                    if (position < pointPosition || position >= pointPosition + pointShape.length) {
                        output[position] = rest[restPosition++];
                    } else if (position == pointPosition) {
                        output[position] = groupIndex;
                    }
                }
                tasks.put(Key.of(name, output), Task.call(function, inputs));
            });
        }
        Chunks result = Chunks.of(outputChunks.toArray(long[][]::new));
        // A block allocates its result, the points picked from each input block (as many again), a byte per element
        // that writing them to their places through integer positions marks, and the index arrays.
        Working picked = Working.ofResult(1 + 1.0 / Math.max(1, view.dtype().byteSize()));
        HighLevelGraph graph = Footprints.declare(view.graph().with(new MaterializedLayer(name, tasks), Set.of(view.name())), name,
                Workings.plus(picked, Workings.alongAxis(pointPosition, indexBytes)).makingParts(PartMaking.WHOLE, false, true));
        return new ChunkedArray(graph, name, result,
                ChunkedArray.metaOf(view.dtype(), result.ndim()));
    }

    /** Where each block starts, and the axis length last (Chunks.offsets needs every axis known). */
    static long[] offsets(long[] lengths) {
        long[] offsets = new long[lengths.length + 1];
        for (int block = 0; block < lengths.length; block++) {
            offsets[block + 1] = offsets[block] + lengths[block];
        }
        return offsets;
    }

    /** The block of an axis with block boundaries {@code offsets} that holds {@code position} (never an empty block). */
    static int blockHolding(long[] offsets, long position) {
        int low = 0;
        int high = offsets.length - 2;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (offsets[middle + 1] > position) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    }

    /** Rows of the first point axis grouped into output blocks, as [first row, end row) pairs. */
    private static List<int[]> rowGroups(long[] pointShape, long[] tupleOf, boolean oneBlock) {
        int rows = (int) pointShape[0];
        int rowSize = rows == 0 ? 0 : tupleOf.length / rows;
        List<int[]> groups = new ArrayList<>();
        if (oneBlock || rows == 0 || rowSize == 0) {
            groups.add(new int[] {0, rows});
            return groups;
        }
        long[] previous = null;
        for (int row = 0; row < rows; row++) {
            long[] tuples = Arrays.stream(tupleOf, row * rowSize, (row + 1) * rowSize).distinct().sorted().toArray();
            if (previous == null || !Arrays.equals(previous, tuples)) {
                groups.add(new int[] {row, row + 1});
            } else {
                groups.getLast()[1] = row + 1;
            }
            previous = tuples;
        }
        return groups;
    }

    private static int[] restAxes(int ndim, int[] axes) {
        return java.util.stream.IntStream.range(0, ndim).filter(axis -> Arrays.stream(axes).noneMatch(gathered -> gathered == axis)).toArray();
    }

    private static int[] inputIndex(int ndim, int[] axes, int[] gatheredBlocks, int[] restAxes, int[] restBlocks) {
        int[] index = new int[ndim];
        for (int gathered = 0; gathered < axes.length; gathered++) {
            index[axes[gathered]] = gatheredBlocks[gathered];
        }
        for (int rest = 0; rest < restAxes.length; rest++) {
            index[restAxes[rest]] = restBlocks[rest];
        }
        return index;
    }

    private static GatherBlock gatherFunction(int[] axes, long[][] localOf, Map<Long, List<Integer>> pointsByTuple,
            int firstPoint, long[] groupShape, int pointPosition) {
        int inputCount = Math.max(1, pointsByTuple.size());
        long[][][] coordinates = new long[inputCount][axes.length][0];
        long[][] positions = new long[inputCount][0];
        int input = 0;
        for (List<Integer> tuplePoints : pointsByTuple.values()) {
            coordinates[input] = new long[axes.length][tuplePoints.size()];
            positions[input] = new long[tuplePoints.size()];
            for (int point = 0; point < tuplePoints.size(); point++) {
                int flat = tuplePoints.get(point);
                positions[input][point] = flat - firstPoint;
                for (int gathered = 0; gathered < axes.length; gathered++) {
                    coordinates[input][gathered][point] = localOf[gathered][flat];
                }
            }
            input++;
        }
        return new GatherBlock(axes.clone(), coordinates, positions, groupShape, pointPosition);
    }
}

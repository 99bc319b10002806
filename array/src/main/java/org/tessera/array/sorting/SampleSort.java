package org.tessera.array.sorting;

import java.io.Serial;
import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.BlockGrid;
import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.LayerFootprint;
import org.tessera.array.plan.Working;
import org.tessera.array.reduction.LayerMemory;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.graph.memory.Sized;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.sort.Quantiles;
import org.tessera.ndarray.sort.SortKind;
import org.tessera.ndarray.sort.Sorting;

/**
 * The graph of a sample sort along one axis of a chunked array. The blocks along the axis that
 * share their position on every other axis form a <i>group</i>, sorted on its own:
 *
 * <ol>
 *   <li>{@code runs}: each block sorted along the axis (stably), a {@link SortedRun} held in memory
 *       or written under a fresh name to the sort's scratch directory (out of core); the run task
 *       reads its block and nothing else, so the block's read is fused into it;</li>
 *   <li>{@code splits}: for every boundary between output blocks, whose rank is known up front
 *       (the output has the input's chunks), the cut of every run of the group at that rank
 *       ({@link RankSelection}): the regular samples of a file run, every {@value SortedRun#PAGE}-th
 *       key, make each search read one page;</li>
 *   <li>the output blocks: each the merge of the pieces of every run between its two cuts (the
 *       bounded all-to-all: a block reads from each run only its own piece).</li>
 * </ol>
 *
 * A quantile replaces the splits and merges by one selection task per group that finds the
 * elements of the ranks it needs and combines them ({@link Quantiles.Plan}).
 */
final class SampleSort {
    private SampleSort() {
    }

    /** The cuts of every lane of a group at one rank, and the key of the element just before the rank. */
    record Boundary(long[] cuts, long[] previousKeys, boolean[] hasPrevious) implements Serializable, Sized {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long byteSize() {
            return 64 + 8L * cuts.length + 9L * previousKeys.length;
        }
    }

    /** The runs (and, for a sort, the splits) of one axis of an array: what the output layers read. */
    static final class Plan {
        final ChunkedArray x;
        final int axis;
        final int along;
        final long[] offsets;
        final int[] groupCounts;
        final String token;
        final String runsName;
        final String splitsName;
        /** The scratch directory of an out-of-core sort; null when the runs stay in memory. */
        final String scratchDirectory;
        HighLevelGraph graph;

        private Plan(ChunkedArray x, int axis, String token, String scratchDirectory, HighLevelGraph graph) {
            this.x = x;
            this.axis = axis;
            this.along = x.chunks().blockCount(axis);
            this.offsets = x.chunks().offsets(axis);
            this.groupCounts = x.numBlocks();
            this.groupCounts[axis] = 1;
            this.token = token;
            this.runsName = "sort-runs-" + token;
            this.splitsName = "sort-splits-" + token;
            this.scratchDirectory = scratchDirectory;
            this.graph = graph;
        }

        /** The run keys of the group at {@code group} (its axis position ignored), in axis order. */
        List<Key> runs(int[] group) {
            List<Key> keys = new ArrayList<>(along);
            int[] index = group.clone();
            for (int block = 0; block < along; block++) {
                index[axis] = block;
                keys.add(Key.of(runsName, index));
            }
            return keys;
        }

        /** The split key at the start of block {@code block} of the group (null for the first block and past the last). */
        Key split(int[] group, int block) {
            if (block <= 0 || block >= along) {
                return null;
            }
            int[] index = group.clone();
            index[axis] = block - 1;
            return Key.of(splitsName, index);
        }
    }

    /**
     * The runs of {@code x} along {@code axis} (carrying each element's position along the axis
     * where {@code positions}), and with {@code splits} the cuts at every block boundary.
     */
    static Plan plan(ChunkedArray x, int axis, boolean positions, boolean splits, ChunkedSort.Options options) {
        DType dtype = x.dtype();
        if (dtype.isComplex()) {
            throw OrderKeys.complex(dtype);
        }
        long[] shape = x.chunks().requireKnownShape("sort");
        long axisLength = shape[axis];
        long widestGroup = 1;
        long[] largest = x.chunks().largestBlock();
        for (int other = 0; other < shape.length; other++) {
            if (other != axis) {
                widestGroup = Math.multiplyExact(widestGroup, largest[other]);
            }
        }
        long groupBytes = Math.multiplyExact(Math.multiplyExact(widestGroup, axisLength), dtype.byteSize() + (positions ? Long.BYTES : 0));
        boolean outOfCore = groupBytes > options.inMemoryBytes();
        String scratch = options.scratch().toAbsolutePath().toString();
        // Sorts and selections never share runs: a selection deletes the runs it read, which a merge may still need.
        String token = Tokens.token("sample-sort", x.name(), axis, positions, splits ? "merged" : "selected", outOfCore ? scratch : "memory");
        String directory = outOfCore ? ScratchSession.directory(scratch, token) : null;
        Plan plan = new Plan(x, axis, token, directory, x.graph());

        int sortAxis = axis;
        TaskFunction runFunction = TaskFunction.named("sort-run", arguments -> sortBlock(Blocks.dense(arguments.get(0), "sort"), sortAxis,
                (Long) arguments.get(1), positions, (String) arguments.get(2), (String) arguments.get(3)));
        Map<Key, Task> runTasks = new LinkedHashMap<>();
        BlockGrid.forEach(x.numBlocks(), index -> {
            Key key = Key.of(plan.runsName, index);
            // The run reads the block and nothing else, so the block's read is fused into it.
            runTasks.put(key, Task.call(runFunction, x.key(index), plan.offsets[index[axis]], directory, "run-" + blockName(index)));
        });
        plan.graph = plan.graph.with(new MaterializedLayer(plan.runsName, runTasks), Set.of(x.name()));
        plan.graph = declareRuns(plan, positions);

        if (splits && plan.along > 1) {
            TaskFunction splitFunction = TaskFunction.named("sort-split", arguments -> split(runsOf(arguments.get(1)), (Long) arguments.get(0)));
            Map<Key, Task> splitTasks = new LinkedHashMap<>();
            BlockGrid.forEach(plan.groupCounts, group -> {
                for (int block = 1; block < plan.along; block++) {
                    splitTasks.put(plan.split(group, block), Task.call(splitFunction, plan.offsets[block], plan.runs(group)));
                }
            });
            plan.graph = plan.graph.with(new MaterializedLayer(plan.splitsName, splitTasks), Set.of(plan.runsName));
            // The cuts of every lane of the group, and the key before each: a boundary's arrays; a file run's reader each.
            Chunks chunks = x.chunks();
            int runs = plan.along;
            long readers = plan.scratchDirectory == null ? 0 : runs * SortedRun.readerBytes(dtype);
            plan.graph = LayerMemory.tasks(plan.graph, plan.splitsName, key -> {
                long lines = lines(chunks, axis, key);
                return 64 + 8 * lines * runs + 9 * lines;
            }, key -> readers);
        }
        return plan;
    }

    /**
     * The runs' footprint. A run in memory is the block's values sorted (and their positions), made
     * from the block's lanes, a copy where the axis is not the last; a run in a file is a handle of
     * samples, and its task allocates the sorted arrays it writes and the buffer it writes through.
     */
    private static HighLevelGraph declareRuns(Plan plan, boolean positions) {
        Chunks chunks = plan.x.chunks();
        long item = plan.x.dtype().byteSize();
        long runItem = item + (positions ? Long.BYTES : 0);
        if (plan.scratchDirectory == null) {
            LayerFootprint values = new LayerFootprint(chunks, chunks, runItem, new LayerMemory.PerBlock(chunks, item, 0, 0),
                    LayerFootprint.Traffic.NONE);
            // SortedRun counts 256 bytes beside its arrays.
            return plan.graph.withFootprint(plan.runsName, new LayerMemory.Parts(values, 256 - LayerFootprint.HEADER_BYTES));
        }
        int axis = plan.axis;
        String directory = plan.scratchDirectory;
        return LayerMemory.tasks(plan.graph, plan.runsName,
                key -> SortedRun.fileHandleBytes(lines(chunks, axis, key), chunks.length(axis, Math.min(key.index(axis), chunks.blockCount(axis) - 1)),
                        directory),
                key -> LayerMemory.elements(chunks, key) * (runItem + item) + SortedRun.WRITE_BUFFER_BYTES);
    }

    /** The lanes of the group at {@code key}: the elements of its blocks on the axes other than {@code axis}. */
    private static long lines(Chunks chunks, int axis, Key key) {
        long lines = 1;
        for (int other = 0; other < chunks.ndim(); other++) {
            if (other != axis) {
                lines *= chunks.length(other, Math.min(key.rank() == chunks.ndim() ? key.index(other) : 0, chunks.blockCount(other) - 1));
            }
        }
        return lines;
    }

    /** The sorted array (values) or its argsort (int64 positions along the axis), in the input's chunks. */
    static ChunkedArray sorted(ChunkedArray x, int axis, boolean positions, ChunkedSort.Options options) {
        return sorted(plan(x, axis, positions, true, options), positions);
    }

    private static ChunkedArray sorted(Plan plan, boolean positions) {
        ChunkedArray x = plan.x;
        int axis = plan.axis;
        String name = (positions ? "argsort-" : "sort-") + plan.token;
        int sortAxis = axis;
        int along = plan.along;
        TaskFunction mergeFunction = TaskFunction.named(positions ? "argsort-merge" : "sort-merge", arguments -> {
            SortedRun[] runs = runsOf(arguments.get(2));
            NDArray block = merge(runs, (Boundary) arguments.get(0), (Boundary) arguments.get(1), (long[]) arguments.get(3), sortAxis, positions);
            ScratchSession.finished(runs, (Integer) arguments.get(4), along);
            return block;
        });
        Map<Key, Task> tasks = new LinkedHashMap<>();
        BlockGrid.forEach(x.numBlocks(), index -> {
            int[] group = index.clone();
            group[axis] = 0;
            Key previous = plan.split(group, index[axis]);
            Key next = plan.split(group, index[axis] + 1);
            tasks.put(Key.of(name, index), Task.call(mergeFunction, previous == null ? Task.literal(null) : previous,
                    next == null ? Task.literal(null) : next, plan.runs(group), x.chunks().blockShape(index), index[axis]));
        });
        Set<String> dependencies = plan.along > 1 ? Set.of(plan.runsName, plan.splitsName) : Set.of(plan.runsName);
        HighLevelGraph graph = plan.graph.with(new MaterializedLayer(name, tasks), dependencies);
        // The merge fills the values and, for argsort, the positions (the result) too; a file run's reader and window each.
        long item = x.dtype().byteSize();
        long runItem = item + (positions ? Long.BYTES : 0);
        long files = plan.scratchDirectory == null ? 0 : along * (SortedRun.readerBytes(x.dtype()) + (long) RunMerge.WINDOW * runItem);
        Working merging = (key, resultBytes) -> (positions ? resultBytes / Long.BYTES * item : 0) + files;
        graph = Footprints.declare(graph, name, merging);
        return new ChunkedArray(graph, name, x.chunks(), positions ? DType.INT64 : x.dtype());
    }

    /**
     * The distinct values of a 1-D array in sorted order, NaNs as one (NumPy 2's equal_nan): its
     * sort, each block keeping the elements unequal to the one before (for the first, the last
     * element of the block before, which the split at its start names). Block lengths are unknown
     * until computed.
     */
    static ChunkedArray unique(ChunkedArray flat, ChunkedSort.Options options) {
        Plan plan = plan(flat, 0, false, true, options);
        ChunkedArray sorted = sorted(plan, false);
        String name = "unique-" + plan.token;
        TaskFunction keepFirsts = TaskFunction.named("unique-block", arguments -> distinct(Blocks.dense(arguments.get(0), "unique"), (Boundary) arguments.get(1)));
        Map<Key, Task> tasks = new LinkedHashMap<>();
        int blocks = plan.along;
        long[] lengths = new long[blocks];
        for (int block = 0; block < blocks; block++) {
            Key previous = plan.split(new int[] {0}, block);
            tasks.put(Key.of(name, block), Task.call(keepFirsts, sorted.key(block), previous == null ? Task.literal(null) : previous));
            lengths[block] = Chunks.UNKNOWN;
        }
        Set<String> dependencies = plan.along > 1 ? Set.of(sorted.name(), plan.splitsName) : Set.of(sorted.name());
        HighLevelGraph graph = sorted.graph().with(new MaterializedLayer(name, tasks), dependencies);
        // At most the sorted block's elements are kept: the block made contiguous, the kept elements, their copy when fewer.
        graph = Footprints.declareBounded(graph, name, Working.ofResult(2), flat.chunks());
        return new ChunkedArray(graph, name, Chunks.of(lengths), flat.dtype());
    }

    /**
     * NumPy's quantile or median along {@code axis} by the plan made for that axis's length: one
     * task per group finds, in every lane, the elements of the ranks the plan reads (without
     * merging anything) and combines them. The result's first axes are q's, then the other axes
     * in their input chunks (the reduced one kept as length 1 with {@code keepdims}).
     */
    static ChunkedArray quantile(ChunkedArray x, int axis, boolean keepdims, Integer userAxis, long[] originalShape, QuantileRequest request,
                                 ChunkedSort.Options options) {
        Plan plan = plan(x, axis, false, false, options);
        long n = x.shape(axis);
        Quantiles.Plan quantiles = request.plan(x.dtype(), n);
        long[] qShape = quantiles.qShape();
        String name = request.label() + "-" + Tokens.token(plan.token, request.label(), Arrays.toString(request.q()), qShape, request.weak(),
                request.method(), keepdims);
        DType dtype = x.dtype();
        int sortAxis = axis;
        TaskFunction select = TaskFunction.named(request.label() + "-select", arguments -> {
            long[] blockShape = (long[]) arguments.get(1);
            SortedRun[] runs = runsOf(arguments.get(0));
            NDArray block = selectAndCombine(runs, request.plan(dtype, n), blockShape, sortAxis, keepdims);
            ScratchSession.release(runs);
            return block;
        });
        int ndim = x.ndim();
        Map<Key, Task> tasks = new LinkedHashMap<>();
        BlockGrid.forEach(plan.groupCounts, group -> {
            long[] blockShape = x.chunks().blockShape(group);
            blockShape[axis] = n;
            int[] outputIndex = outputIndex(group, axis, qShape.length, keepdims);
            tasks.put(Key.of(name, outputIndex), Task.call(select, plan.runs(group), blockShape));
        });
        long[][] lengths = new long[qShape.length + ndim - (keepdims ? 0 : 1)][];
        for (int i = 0; i < qShape.length; i++) {
            lengths[i] = new long[] {qShape[i]};
        }
        for (int other = 0, at = qShape.length; other < ndim; other++) {
            if (other == axis) {
                if (keepdims) {
                    lengths[at++] = new long[] {1};
                }
                continue;
            }
            lengths[at++] = x.chunks().axis(other);
        }
        HighLevelGraph graph = plan.graph.with(new MaterializedLayer(name, tasks), Set.of(plan.runsName));
        // The elements of the plan's ranks in every lane (ranks x lanes), the combination's arithmetic in a few arrays of the result's
        // size, and a file run's reader each.
        long ranks = quantiles.ranks().length;
        long qElements = Arrays.stream(qShape).reduce(1, Math::multiplyExact);
        long resultItem = quantiles.resultType().byteSize();
        long readers = plan.scratchDirectory == null ? 0 : plan.along * SortedRun.readerBytes(dtype);
        Working selecting = (key, resultBytes) -> ranks * (resultBytes / Math.max(1, qElements * resultItem)) * dtype.byteSize()
                + 4 * resultBytes + readers;
        graph = Footprints.declare(graph, name, selecting);
        ChunkedArray result = new ChunkedArray(graph, name, Chunks.of(lengths), quantiles.resultType());
        if (userAxis == null && keepdims) {
            // The flattened array's one kept axis becomes one per axis of the input.
            long[] kept = Quantiles.keptShape(qShape, originalShape, null);
            return result.reshape(kept);
        }
        return result;
    }

    /** A block index as a file name part: {@code 0-3-1}. */
    private static String blockName(int[] index) {
        StringBuilder name = new StringBuilder();
        for (int position : index) {
            name.append(name.isEmpty() ? "" : "-").append(position);
        }
        return name.isEmpty() ? "0" : name.toString();
    }

    private static int[] outputIndex(int[] group, int axis, int qAxes, boolean keepdims) {
        int[] index = new int[qAxes + group.length - (keepdims ? 0 : 1)];
        for (int other = 0, at = qAxes; other < group.length; other++) {
            if (other == axis && !keepdims) {
                continue;
            }
            index[at++] = other == axis ? 0 : group[other];
        }
        return index;
    }

    /** What a quantile task computes: q (flat, with its shape), whether q was a Python float, the method; or a median. */
    record QuantileRequest(String label, double[] q, long[] qShape, boolean weak, String method, boolean median) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;

        Quantiles.Plan plan(DType dtype, long n) {
            if (median) {
                return Quantiles.medianPlan(dtype, n);
            }
            NDArray values = NDArray.zeros(DType.FLOAT64, qShape);
            NDArray flat = values.reshape(values.size());
            for (int i = 0; i < q.length; i++) {
                flat.setDouble(q[i], i);
            }
            return Quantiles.plan(dtype, n, values, weak, method);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // What the tasks compute

    private static SortedRun[] runsOf(Object list) {
        List<?> items = (List<?>) list;
        SortedRun[] runs = new SortedRun[items.size()];
        for (int i = 0; i < runs.length; i++) {
            runs[i] = (SortedRun) items.get(i);
        }
        return runs;
    }

    private static SortedRun.Reader[] open(SortedRun[] runs) {
        SortedRun.Reader[] readers = new SortedRun.Reader[runs.length];
        for (int i = 0; i < runs.length; i++) {
            readers[i] = runs[i].open();
        }
        return readers;
    }

    private static void close(SortedRun.Reader[] readers) {
        for (SortedRun.Reader reader : readers) {
            if (reader != null) {
                reader.close();
            }
        }
    }

    /** The lanes of {@code block} along {@code axis}: a (lines, length) view or copy, lanes in C order of the other axes. */
    static NDArray lanes(NDArray block, int axis) {
        long length = block.shape(axis);
        long lines = 1;
        for (int other = 0; other < block.ndim(); other++) {
            if (other != axis) {
                lines *= block.shape(other);
            }
        }
        NDArray moved = block.moveAxis(axis, -1);
        NDArray contiguous = moved.isCContiguous() ? moved : moved.copy();
        return contiguous.reshape(lines, length);
    }

    /** Sorts every lane of a block (stably), with positions along the axis from {@code offset} where asked. */
    static SortedRun sortBlock(NDArray block, int axis, long offset, boolean withPositions, String directory, String name) {
        if (block.dtype().isComplex()) {
            throw OrderKeys.complex(block.dtype());
        }
        NDArray lanes = lanes(block, axis);
        NDArray values;
        NDArray positions = null;
        if (lanes.size() == 0) {
            values = NDArray.zeros(block.dtype(), lanes.shape());
            positions = withPositions ? NDArray.zeros(DType.INT64, lanes.shape()) : null;
        } else if (withPositions) {
            NDArray order = Sorting.argsort(lanes, 1, SortKind.STABLE);
            values = NDArray.zeros(block.dtype(), lanes.shape());
            positions = order;
            int itemSize = block.dtype().byteSize();
            long lines = lanes.shape(0);
            long length = lanes.shape(1);
            for (long line = 0; line < lines; line++) {
                for (long t = 0; t < length; t++) {
                    long source = order.getLong(line, t);
                    OrderKeys.copy(lanes.segment(), lanes.byteOffset() + (line * length + source) * itemSize, values.segment(),
                            (line * length + t) * itemSize, itemSize);
                    positions.setLong(source + offset, line, t);
                }
            }
        } else {
            values = sortValues(lanes);
        }
        return directory == null ? SortedRun.inMemory(values, positions) : SortedRun.toFile(values, positions, directory, name);
    }

    /** The lanes sorted; float64 and int64 lanes in place in one primitive array (the block's size once more, no more). */
    private static NDArray sortValues(NDArray lanes) {
        long lines = lanes.shape(0);
        long length = lanes.shape(1);
        long size = lanes.size();
        DType dtype = lanes.dtype();
        if ((dtype == DType.FLOAT64 || dtype == DType.INT64) && size <= Integer.MAX_VALUE - 8) {
            long[] strides = {length * Long.BYTES, Long.BYTES};
            if (dtype == DType.FLOAT64) {
                double[] data = new double[(int) size];
                MemorySegment.copy(lanes.segment(), ValueLayout.JAVA_DOUBLE_UNALIGNED, lanes.byteOffset(), data, 0, (int) size);
                for (long line = 0; line < lines; line++) {
                    sortDoubles(data, (int) (line * length), (int) ((line + 1) * length));
                }
                return NDArray.wrap(MemorySegment.ofArray(data), 0, new long[] {lines, length}, strides, dtype, true);
            }
            long[] data = new long[(int) size];
            MemorySegment.copy(lanes.segment(), ValueLayout.JAVA_LONG_UNALIGNED, lanes.byteOffset(), data, 0, (int) size);
            for (long line = 0; line < lines; line++) {
                Arrays.sort(data, (int) (line * length), (int) ((line + 1) * length));
            }
            return NDArray.wrap(MemorySegment.ofArray(data), 0, new long[] {lines, length}, strides, dtype, true);
        }
        return Sorting.sort(lanes, 1, SortKind.STABLE);
    }

    /**
     * Sorts {@code [from, to)} in NumPy's order with the zeros in their input order (Java's sort puts
     * -0.0 before 0.0; NumPy's stable sort keeps them as they came), NaNs last.
     */
    static void sortDoubles(double[] data, int from, int to) {
        int zeros = 0;
        for (int i = from; i < to; i++) {
            if (data[i] == 0) {
                zeros++;
            }
        }
        boolean[] negative = zeros == 0 ? null : new boolean[zeros];
        if (negative != null) {
            for (int i = from, z = 0; i < to; i++) {
                if (data[i] == 0) {
                    negative[z++] = Double.doubleToRawLongBits(data[i]) != 0;
                }
            }
        }
        Arrays.sort(data, from, to);
        if (negative != null) {
            int first = from;
            while (!(data[first] == 0)) {
                first++;
            }
            for (int z = 0; z < zeros; z++) {
                data[first + z] = negative[z] ? -0.0 : 0.0;
            }
        }
    }

    /** The cuts of every lane of a group at {@code rank}. */
    static Boundary split(SortedRun[] runs, long rank) {
        SortedRun.Reader[] readers = open(runs);
        try {
            int k = runs.length;
            int lines = runs[0].lines;
            long[] cuts = new long[lines * k];
            long[] previousKeys = new long[lines];
            boolean[] hasPrevious = new boolean[lines];
            for (int line = 0; line < lines; line++) {
                long[] lineCuts = RankSelection.cuts(readers, line, rank);
                System.arraycopy(lineCuts, 0, cuts, line * k, k);
                int before = RankSelection.runBeforeRank(readers, line, lineCuts);
                if (before >= 0) {
                    hasPrevious[line] = true;
                    previousKeys[line] = readers[before].key(line, lineCuts[before] - 1);
                }
            }
            return new Boundary(cuts, previousKeys, hasPrevious);
        } finally {
            close(readers);
        }
    }

    /** One output block: in each lane, the pieces of the runs between the cuts merged, then laid out as the block. */
    static NDArray merge(SortedRun[] runs, Boundary previous, Boundary next, long[] blockShape, int axis, boolean positions) {
        SortedRun.Reader[] readers = open(runs);
        try {
            int k = runs.length;
            int lines = runs[0].lines;
            long length = blockShape[axis];
            NDArray values = NDArray.zeros(runs[0].dtype, lines, length);
            NDArray order = positions ? NDArray.zeros(DType.INT64, lines, length) : null;
            long[] from = new long[k];
            long[] to = new long[k];
            for (int line = 0; line < lines; line++) {
                for (int i = 0; i < k; i++) {
                    from[i] = previous == null ? 0 : previous.cuts()[line * k + i];
                    to[i] = next == null ? runs[i].length : next.cuts()[line * k + i];
                }
                RunMerge.merge(readers, line, from, to, new RunMerge.Target(values.segment(), values.byteOffset() + line * length * values.dtype().byteSize(),
                        order == null ? null : order.segment(), order == null ? 0 : order.byteOffset() + line * length * Long.BYTES));
            }
            return asBlock(positions ? order : values, blockShape, axis);
        } finally {
            close(readers);
        }
    }

    /** A (lines, length) array as the block of {@code blockShape}, its lanes along {@code axis}. */
    private static NDArray asBlock(NDArray lanes, long[] blockShape, int axis) {
        long[] moved = new long[blockShape.length];
        for (int other = 0, at = 0; other < blockShape.length; other++) {
            if (other != axis) {
                moved[at++] = blockShape[other];
            }
        }
        moved[blockShape.length - 1] = blockShape[axis];
        return lanes.reshape(moved).moveAxis(-1, axis);
    }

    /** The elements of a sorted 1-D block that differ from the one before (for the first, from {@code boundary}'s). */
    static NDArray distinct(NDArray sorted, Boundary boundary) {
        NDArray block = sorted.isCContiguous() ? sorted : sorted.copy();
        int itemSize = block.dtype().byteSize();
        OrderKeys.KeyReader keys = OrderKeys.reader(block.dtype());
        long length = block.size();
        NDArray kept = NDArray.zeros(block.dtype(), length);
        long count = 0;
        boolean hasPrevious = boundary != null && boundary.hasPrevious()[0];
        long previous = hasPrevious ? boundary.previousKeys()[0] : 0;
        for (long i = 0; i < length; i++) {
            long key = keys.key(block.segment(), block.byteOffset() + i * itemSize);
            if (!hasPrevious || key != previous) {
                OrderKeys.copy(block.segment(), block.byteOffset() + i * itemSize, kept.segment(), count * itemSize, itemSize);
                count++;
            }
            previous = key;
            hasPrevious = true;
        }
        return count == length ? kept : kept.slice(0, 0, 1, count).copy();
    }

    /** A quantile's block: the plan's ranks found in every lane of the group, combined as NumPy does. */
    static NDArray selectAndCombine(SortedRun[] runs, Quantiles.Plan plan, long[] blockShape, int axis, boolean keepdims) {
        long[] rest = Quantiles.restShape(blockShape, axis);
        long[] ranks = plan.ranks();
        DType dtype = runs[0].dtype;
        int lines = runs[0].lines;
        NDArray rows = NDArray.zeros(dtype, ranks.length, lines);
        if (ranks.length > 0 && lines > 0) {
            SortedRun.Reader[] readers = open(runs);
            try {
                int itemSize = dtype.byteSize();
                byte[] bytes = new byte[Long.BYTES];
                ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
                MemorySegment scratch = MemorySegment.ofArray(bytes);
                for (int line = 0; line < lines; line++) {
                    for (int r = 0; r < ranks.length; r++) {
                        long[] cuts = RankSelection.cuts(readers, line, ranks[r]);
                        int run = RankSelection.runAtRank(readers, line, cuts);
                        MemorySegment element = readers[run].values(line, cuts[run], 1, scratch, buffer);
                        OrderKeys.copy(element, 0, rows.segment(), rows.byteOffset() + ((long) r * lines + line) * itemSize, itemSize);
                    }
                }
            } finally {
                close(readers);
            }
        }
        NDArray result = plan.combine(rank -> rows.take(0, Arrays.binarySearch(ranks, rank)).reshape(rest), rest);
        if (!keepdims) {
            return result;
        }
        long[] kept = plan.qShape();
        long[] shape = Arrays.copyOf(kept, kept.length + blockShape.length);
        for (int other = 0; other < blockShape.length; other++) {
            shape[kept.length + other] = other == axis ? 1 : blockShape[other];
        }
        return result.reshape(shape);
    }
}

package org.tessera.array.reduction;

import java.io.Serial;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.BlockGrid;
import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.blockwise.BlockFunction;
import org.tessera.array.blockwise.Blockwise;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.CreationLayer;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.array.reshape.Flatten;
import org.tessera.graph.Deferring;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.graph.memory.Footprint.PartMaking;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Statistics;
import org.tessera.ndarray.ufunc.Ufunc;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * cumsum, cumprod and their nan-variants as Dask's cumulative reduction: each block is scanned on
 * its own, then block i is shifted by the running total of the last slices of blocks before it
 * along the axis. {@link Method} says how those running totals are found: a chain of small
 * carries, one per block ({@code SEQUENTIAL}, Dask's default), or Blelloch's work-efficient
 * parallel prefix over the blocks ({@code BLELLOCH}), whose critical path is 2 log2(n) combines
 * instead of n, so long axes of many blocks do not wait on a chain.
 */
public final class CumulativeScan {
    private CumulativeScan() {
    }

    /** Which scan. */
    public enum Kind {
        CUMSUM(Ufuncs.ADD, false), CUMPROD(Ufuncs.MULTIPLY, false), NANCUMSUM(Ufuncs.ADD, true), NANCUMPROD(Ufuncs.MULTIPLY, true);

        final Ufunc combine;
        final boolean skipNan;

        Kind(Ufunc combine, boolean skipNan) {
            this.combine = combine;
            this.skipNan = skipNan;
        }

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** How the running totals of the blocks along the axis are combined (Dask's {@code method}). */
    public enum Method {
        /** A chain: total(i) = total(i - 1) + last(i - 1); n - 1 combines one after another. */
        SEQUENTIAL,
        /** An up-sweep of pairwise partial totals and a down-sweep that completes them: about 2n combines, 2 log2(n) deep. */
        BLELLOCH
    }

    /** The sequential scan. */
    public static ChunkedArray scan(ChunkedArray x, Kind kind, Integer axis, DType dtype) {
        return scan(x, kind, axis, dtype, Method.SEQUENTIAL);
    }

    /**
     * @param axis null scans the flattened array (which Dask then splits into blocks of as many
     *             elements as the input had blocks)
     */
    public static ChunkedArray scan(ChunkedArray x, Kind kind, Integer axis, DType dtype, Method method) {
        java.util.Objects.requireNonNull(method, "the scan method");
        ChunkedArray input = x;
        int scanAxis;
        if (axis == null) {
            x.chunks().requireKnownShape(kind.label() + " of the flattened array");
            int partitions = (int) x.chunks().totalBlocks();
            // NumPy scans a 0-d array as the 1-D array of its one element.
            ChunkedArray flat = x.ndim() == 0 ? org.tessera.array.reshape.Reshape.reshape(x, 1) : Flatten.flatten(x);
            input = Rechunk.rechunk(flat, Chunks.regular(flat.shape(), new long[] {partitions}));
            scanAxis = 0;
        } else {
            scanAxis = TreeReduction.normalizeAxes(new int[] {axis}, x.ndim(), kind.label())[0];
        }
        NDArray sample = blockScan(kind, NDArray.zeros(input.dtype(), 1), 0, dtype);
        String letters = CreationLayer.AXIS_LETTERS.substring(0, input.ndim());
        BlockScan blockScan = new BlockScan(kind, scanAxis, dtype);
        // A scan that stays deferred is read in strips by the last slices (see LastSliceWorking) and by reductions.
        boolean deferred = blockScan.defersCheaply();
        ChunkedArray scanned = Blockwise.of(kind.label() + "-block", blockScan, letters).input(input, letters)
                .token(kind, scanAxis, dtype == null ? "" : dtype.numpyName()).meta(ChunkedArray.metaOf(sample.dtype(), input.ndim()))
                .working(new ScanWorking(input.chunks(), scanAxis, sample.dtype().byteSize(), input.dtype() != sample.dtype(), kind.skipNan)
                        .makingParts(deferred ? PartMaking.MADE : PartMaking.WHOLE, scanAxis == 0, true))
                .build();

        return method == Method.SEQUENTIAL ? sequential(scanned, kind, scanAxis, deferred) : blelloch(scanned, kind, scanAxis, deferred);
    }

    private static ChunkedArray sequential(ChunkedArray scanned, Kind kind, int scanAxis, boolean deferred) {
        String token = Tokens.token(scanned.name(), kind.label());
        String name = kind.label() + "-" + token;
        String lastName = kind.label() + "-last-" + token;
        int count = scanned.numBlocks()[scanAxis];
        // One carry layer per block position: carry i reads carry i - 1, and culling follows reads between layers only.
        List<Map<Key, Task>> carries = new java.util.ArrayList<>();
        for (int position = 0; position < count; position++) {
            carries.add(new LinkedHashMap<>());
        }
        // The last slices are tasks of their own, not calls inside the carries: a block read by its last slice alone
        // (the blocks before the last of x.cumsum(0)[-1]) is then fused into it and scanned in strips, in parallel
        // with the other blocks, where a carry that read it would have the block scanned whole and held.
        Map<Key, Task> lasts = new LinkedHashMap<>();
        Map<Key, Task> outputs = new LinkedHashMap<>();
        TaskFunction last = new LastSlice(scanAxis);
        TaskFunction combine = new Combine(kind.combine, scanAxis);
        TaskFunction combineTotals = new CombineTotals(kind.combine, scanAxis);
        BlockGrid.forEach(scanned.numBlocks(), index -> {
            int position = index[scanAxis];
            Key block = scanned.key(index);
            if (position == 0) {
                outputs.put(Key.of(name, index), Task.ref(block));
                return;
            }
            int[] previous = index.clone();
            previous[scanAxis] = position - 1;
            Key lastOfPrevious = Key.of(lastName, previous);
            lasts.put(lastOfPrevious, Task.call(last, scanned.key(previous)));
            Task carry = position == 1 ? Task.ref(lastOfPrevious)
                    : Task.call(combineTotals, Key.of(carryName(kind, token, position - 1), previous), lastOfPrevious);
            Key carryKey = Key.of(carryName(kind, token, position), index);
            carries.get(position).put(carryKey, carry);
            outputs.put(Key.of(name, index), Task.call(combine, block, carryKey));
        });
        var graph = scanned.graph();
        Set<String> outputReads = new java.util.LinkedHashSet<>(Set.of(scanned.name()));
        Chunks slices = lastSlices(scanned.chunks(), scanAxis);
        if (count > 1) {
            graph = graph.with(new MaterializedLayer(lastName, lasts), Set.of(scanned.name()));
            graph = Footprints.blocks(graph, lastName, slices, scanned.dtype(),
                    new LastSliceWorking(scanned.chunks(), scanAxis, scanned.dtype().byteSize(), deferred));
        }
        for (int position = 1; position < count; position++) {
            Set<String> reads = position == 1 ? Set.of(lastName) : Set.of(lastName, carryName(kind, token, position - 1));
            graph = graph.with(new MaterializedLayer(carryName(kind, token, position), carries.get(position)), reads);
            // A carry is the last slice of the block before, combined with the carry before it.
            graph = Footprints.blocks(graph, carryName(kind, token, position), slices, scanned.dtype(), Working.ofResult(1));
            outputReads.add(carryName(kind, token, position));
        }
        graph = graph.with(new MaterializedLayer(name, outputs), outputReads);
        // Each block combined with its carry: the result, and its cast back where the combine promotes.
        graph = Footprints.declare(graph, name, combined(deferred, scanAxis));
        return new ChunkedArray(graph, name, scanned.chunks(), scanned.meta());
    }

    /** A block combined with its carry (and cast back): a part of a deferred scan is its part combined with the carry. */
    private static Working combined(boolean deferred, int scanAxis) {
        return Working.ofResult(1).makingParts(deferred ? PartMaking.MADE : PartMaking.WHOLE, scanAxis == 0, true);
    }

    /** The chunks of the last slices of {@code blocks} along {@code axis}: length 1 there, a slice per block. */
    private static Chunks lastSlices(Chunks blocks, int axis) {
        long[][] lengths = new long[blocks.ndim()][];
        for (int other = 0; other < lengths.length; other++) {
            lengths[other] = blocks.axis(other);
        }
        lengths[axis] = new long[blocks.blockCount(axis)];
        java.util.Arrays.fill(lengths[axis], 1);
        return Chunks.of(lengths);
    }

    /**
     * The working memory of a block's scan: copies of the block where the scan runs along another
     * axis than its rows' contiguous one or the block is not C-ordered (a view: two), the block cast
     * to the scan's dtype, the NaN mask and the NaN-free copy of the nan-variants.
     *
     * @param blocks   the scanned blocks
     * @param axis     the axis scanned
     * @param itemSize the bytes of an element of the scan
     * @param cast     whether the block is cast to another dtype
     * @param skipNan  whether NaNs are replaced first
     * @param ordered  whether the block is a new C-ordered array: scanned along its first axis, it is not copied
     */
    record ScanWorking(Chunks blocks, int axis, long itemSize, boolean cast, boolean skipNan, boolean ordered) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        ScanWorking(Chunks blocks, int axis, long itemSize, boolean cast, boolean skipNan) {
            this(blocks, axis, itemSize, cast, skipNan, false);
        }

        @Override
        public Working takingOrdered() {
            return new ScanWorking(blocks, axis, itemSize, cast, skipNan, true);
        }

        @Override
        public long bytes(Key key, long resultBytes) {
            // Along the first axis of an ordered block the scan runs in place of copies, with a slice or two.
            long copies = ordered && axis == 0 ? 0 : 2 * resultBytes;
            long slices = ordered && axis == 0 ? 2 * sliceBytes(key) : 0;
            return copies + slices + (cast ? resultBytes : 0) + (skipNan ? resultBytes + resultBytes / 8 + 8 : 0);
        }

        /**
         * A part of a deferred scan also folds the slices before it in strips of up to
         * {@value DeferredBlock#STRIP_ELEMENTS} elements, or a slice, and at most the block: each
         * strip and the slice it folds onto, in a scratch, and each strip's running total kept
         * outside it.
         */
        @Override
        public long partBytes(Key key, long partBytes) {
            long block = blockBytes(key);
            long slice = sliceBytes(key);
            long strip = Math.min(block, Math.max(DeferredBlock.STRIP_ELEMENTS * itemSize, slice));
            long totals = (Math.ceilDiv(block, Math.max(1, strip)) + 1) * slice;
            return bytes(key, partBytes) + LayerMemory.inScratch(strip + slice) + totals;
        }

        private long blockBytes(Key key) {
            return LayerMemory.elements(blocks, key) * itemSize;
        }

        /** The bytes of a slice of the block at {@code key} across the scanned axis. */
        private long sliceBytes(Key key) {
            return blockBytes(key) / Math.max(1, LayerMemory.blockShape(blocks, key)[axis]);
        }
    }

    /**
     * The working memory of a task that takes the last slice of a block's scan: the combine with a
     * carry and its cast back (a slice each). Of a scan that stays deferred ({@link DeferredScan}),
     * the slices before the last are folded in strips in a scratch the task borrows (each strip and
     * the slice it folds onto: new slabs when no scratch is idle), and the last slice continues the
     * running total (their join, its scan, the total kept).
     *
     * @param blocks   the scan's blocks, at the task's key
     * @param axis     the axis scanned
     * @param itemSize the bytes of an element of the scan
     * @param deferred whether the scan may stay deferred
     * @param inParts  whether the scan comes deferred, its strips counted in its part
     */
    record LastSliceWorking(Chunks blocks, int axis, long itemSize, boolean deferred, boolean inParts) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        LastSliceWorking(Chunks blocks, int axis, long itemSize, boolean deferred) {
            this(blocks, axis, itemSize, deferred, false);
        }

        /** The last slice along the first axis is a row. */
        @Override
        public boolean asksRowParts() {
            return axis == 0;
        }

        @Override
        public boolean pullsInParts() {
            return deferred;
        }

        /** Of a scan that comes deferred, the last slice alone is asked. */
        @Override
        public long pulledElements(Key key, long resultElements) {
            return resultElements;
        }

        /** The scan comes deferred: its part, the strips before it included, is counted as its own (see ScanWorking). */
        @Override
        public Working takingParts() {
            return new LastSliceWorking(blocks, axis, itemSize, deferred, true);
        }

        @Override
        public long bytes(Key key, long resultBytes) {
            if (!deferred) {
                return resultBytes;
            }
            if (inParts) {
                return 5 * resultBytes;
            }
            long strip = Math.min(LayerMemory.elements(blocks, key), DeferredBlock.STRIP_ELEMENTS) * itemSize;
            return 5 * resultBytes + LayerMemory.inScratch(strip + resultBytes);
        }
    }

    private static String carryName(Kind kind, String token, int position) {
        return kind.label() + "-carry-" + position + "-" + token;
    }

    /**
     * The running totals by Blelloch's prefix scan over the last slices L(0..n-1) of each line of
     * blocks along the axis, without an identity element (a total is only ever combined with
     * another). Up-sweep: for stride 1, 2, 4, ..., node i = 2 stride k - 1 becomes node(i - stride)
     * + node(i), so node i ends holding the total of the largest aligned range ending at i. Down-
     * sweep: for the strides back down, node i = 3 stride - 1 + 2 stride k adds node(i - stride),
     * which by then holds the total of everything before its range; afterwards node i holds
     * L(0) + ... + L(i), and block i + 1 is shifted by it. Each combine is a task on one slice.
     */
    private static ChunkedArray blelloch(ChunkedArray scanned, Kind kind, int scanAxis, boolean deferred) {
        String token = Tokens.token(scanned.name(), kind.label(), "blelloch");
        String lastName = kind.label() + "-last-" + token;
        String name = kind.label() + "-blelloch-" + token;
        TaskFunction last = new LastSlice(scanAxis);
        TaskFunction combine = new Combine(kind.combine, scanAxis);
        TaskFunction combineTotals = new CombineTotals(kind.combine, scanAxis);
        int count = scanned.numBlocks()[scanAxis];
        // One layer per sweep level: a layer's keys then read only earlier layers, which culling relies on.
        Map<String, Map<Key, Task>> levels = new LinkedHashMap<>();
        Map<String, Set<String>> reads = new LinkedHashMap<>();
        levels.put(lastName, new LinkedHashMap<>());
        reads.put(lastName, Set.of(scanned.name()));
        Map<Key, Task> outputs = new LinkedHashMap<>();
        int[] lineCounts = scanned.numBlocks();
        lineCounts[scanAxis] = 1;
        BlockGrid.forEach(lineCounts, line -> {
            // node[i] is the key that holds node i's current value.
            Key[] node = new Key[count];
            for (int position = 0; position < count - 1; position++) {
                int[] index = line.clone();
                index[scanAxis] = position;
                node[position] = Key.of(lastName, index);
                levels.get(lastName).put(node[position], Task.call(last, scanned.key(index)));
            }
            int stride = 1;
            int level = 0;
            for (; stride < count - 1; stride *= 2, level++) {
                String levelName = kind.label() + "-up-sweep-" + level + "-" + token;
                for (int position = 2 * stride - 1; position < count - 1; position += 2 * stride) {
                    node[position] = sweep(levels, reads, levelName, line, scanAxis, position, combineTotals, node[position - stride],
                            node[position]);
                }
            }
            for (stride /= 2, level--; stride >= 1; stride /= 2, level--) {
                String levelName = kind.label() + "-down-sweep-" + level + "-" + token;
                for (int position = 3 * stride - 1; position < count - 1; position += 2 * stride) {
                    node[position] = sweep(levels, reads, levelName, line, scanAxis, position, combineTotals, node[position - stride],
                            node[position]);
                }
            }
            for (int position = 0; position < count; position++) {
                int[] index = line.clone();
                index[scanAxis] = position;
                outputs.put(Key.of(name, index), position == 0 ? Task.ref(scanned.key(index))
                        : Task.call(combine, scanned.key(index), node[position - 1]));
            }
        });
        var graph = scanned.graph();
        Chunks slices = lastSlices(scanned.chunks(), scanAxis);
        for (var level : levels.entrySet()) {
            graph = graph.with(new MaterializedLayer(level.getKey(), level.getValue()), reads.get(level.getKey()));
            // Last slices, and the sweeps' combines of two slices: a slice, cast back where the combine promotes.
            graph = Footprints.blocks(graph, level.getKey(), slices, scanned.dtype(), level.getKey().equals(lastName)
                    ? new LastSliceWorking(scanned.chunks(), scanAxis, scanned.dtype().byteSize(), deferred) : Working.ofResult(1));
        }
        Set<String> outputReads = new java.util.LinkedHashSet<>(levels.keySet());
        outputReads.add(scanned.name());
        graph = graph.with(new MaterializedLayer(name, outputs), outputReads);
        graph = Footprints.declare(graph, name, combined(deferred, scanAxis));
        return new ChunkedArray(graph, name, scanned.chunks(), scanned.meta());
    }

    /** Adds to layer {@code levelName} the combine of two node values at {@code position}; returns its key. */
    private static Key sweep(Map<String, Map<Key, Task>> levels, Map<String, Set<String>> reads, String levelName, int[] line, int scanAxis,
            int position, TaskFunction combine, Key earlier, Key later) {
        int[] index = line.clone();
        index[scanAxis] = position;
        Key combined = Key.of(levelName, index);
        levels.computeIfAbsent(levelName, unused -> new LinkedHashMap<>()).put(combined, Task.call(combine, earlier, later));
        Set<String> layerReads = reads.computeIfAbsent(levelName, unused -> new java.util.LinkedHashSet<>());
        layerReads.add(earlier.name());
        layerReads.add(later.name());
        return combined;
    }

    static NDArray blockScan(Kind kind, NDArray block, int axis, DType dtype) {
        return switch (kind) {
            case CUMSUM -> Statistics.cumsum(block, axis, dtype);
            case CUMPROD -> Statistics.cumprod(block, axis, dtype);
            case NANCUMSUM -> Statistics.nancumsum(block, axis, dtype);
            case NANCUMPROD -> Statistics.nancumprod(block, axis, dtype);
        };
    }

    /**
     * The scan of one block. A sum or product of a block not computed yet, in its own dtype, stays
     * deferred ({@link DeferredScan}): readers that want its last slice, or a part, compute only that.
     */
    record BlockScan(Kind kind, int axis, DType dtype) implements BlockFunction, Deferring {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(List<Object> arguments) {
            return blockScan(kind, Blocks.dense(arguments.getFirst(), "cumulative scan"), axis, dtype);
        }

        @Override
        public boolean acceptsDeferred(int position) {
            return position == 0;
        }

        @Override
        public Object applyDeferring(List<Object> arguments) throws Exception {
            if (arguments.getFirst() instanceof DeferredBlock block) {
                return defersCheaply() ? new DeferredScan(kind, axis, block) : apply(List.of(block.force()));
            }
            return apply(arguments);
        }

        /** Whether the scan of a deferred block stays deferred: sums and products in the block's own dtype. */
        @Override
        public boolean defersCheaply() {
            return dtype == null && (kind == Kind.CUMSUM || kind == Kind.CUMPROD);
        }
    }

    /**
     * Whether a running total is absent: the last slice of a block empty along the axis, which has
     * length 0 there. An empty block adds nothing to the totals after it, and an absent total
     * combines as nothing, never as an identity element: NumPy's scan starts from the first element
     * itself, and {@code 1 * x} is not x for every complex x ({@code (1+0j)(-0.25-infj)} is
     * {@code nan-infj}, as {@code 0 * inf} is NaN), nor {@code 0 + x} for x = -0.0.
     */
    static boolean absent(NDArray total, int axis) {
        return total.shape(axis) == 0;
    }

    /**
     * The last slice along the axis, kept with length 1: the running total at the block's end; for
     * a block empty along the axis, an absent total (length 0 there, see {@link #absent}).
     */
    record LastSlice(int axis) implements TaskFunction, Deferring {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray block = Blocks.dense(arguments.getFirst(), "cumulative scan");
            long length = block.shape(axis);
            return length == 0 ? block : block.slice(axis, length - 1, 1, 1);
        }

        @Override
        public boolean acceptsDeferred(int position) {
            return position == 0;
        }

        @Override
        public Object applyDeferring(List<Object> arguments) throws Exception {
            if (!(arguments.getFirst() instanceof DeferredBlock block)) {
                return apply(arguments);
            }
            long[] shape = block.shape();
            long[] start = new long[shape.length];
            if (shape[axis] > 0) {
                start[axis] = shape[axis] - 1;
                shape[axis] = 1;
            }
            return block.part(start, shape);
        }

        @Override
        public String displayName() {
            return "last-slice";
        }
    }

    /**
     * Adds (or multiplies) a carry into a block, broadcasting along the axis; an absent carry (only
     * empty blocks before this one) leaves the block as it is. A deferred block stays deferred, each
     * part combined alone.
     */
    record Combine(Ufunc ufunc, int axis) implements TaskFunction, Deferring {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return combine(Blocks.dense(arguments.get(0), "cumulative scan"), Blocks.dense(arguments.get(1), "cumulative scan"));
        }

        private NDArray combine(NDArray block, NDArray carry) {
            if (absent(carry, axis)) {
                return block;
            }
            NDArray result = ufunc.apply(block, carry);
            return result.dtype() == block.dtype() ? result : result.astype(block.dtype());
        }

        @Override
        public boolean acceptsDeferred(int position) {
            return position == 0;
        }

        @Override
        public Object applyDeferring(List<Object> arguments) {
            if (!(arguments.get(0) instanceof DeferredBlock block)) {
                return apply(arguments);
            }
            NDArray carry = Blocks.dense(arguments.get(1), "cumulative scan");
            return absent(carry, axis) ? block : new CombinedBlock(this, block, carry);
        }

        @Override
        public boolean defersCheaply() {
            return true;
        }

        @Override
        public String displayName() {
            return ufunc.name();
        }
    }

    /**
     * Combines two running totals, the earlier first (a carry and the last slice after it, or two
     * nodes of Blelloch's sweeps): where one is absent (see {@link #absent}), the other as it is.
     */
    record CombineTotals(Ufunc ufunc, int axis) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray earlier = Blocks.dense(arguments.get(0), "cumulative scan");
            NDArray later = Blocks.dense(arguments.get(1), "cumulative scan");
            if (absent(later, axis)) {
                return earlier;
            }
            if (absent(earlier, axis)) {
                return later;
            }
            NDArray result = ufunc.apply(earlier, later);
            return result.dtype() == earlier.dtype() ? result : result.astype(earlier.dtype());
        }

        @Override
        public String displayName() {
            return ufunc.name();
        }
    }

    /** A deferred block with a carry combined in, part by part. */
    private record CombinedBlock(Combine combine, DeferredBlock block, NDArray carry) implements DeferredBlock {
        @Override
        public long[] shape() {
            return block.shape();
        }

        @Override
        public NDArray part(long[] start, long[] shape) throws Exception {
            return combine.combine(block.part(start, shape), (NDArray) DeferredBlock.cut(carry, shape.length, start, shape));
        }
    }
}

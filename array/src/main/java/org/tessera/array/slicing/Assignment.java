package org.tessera.array.slicing;

import java.io.Serial;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.BlockGrid;
import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.blockwise.BlockFunction;
import org.tessera.array.blockwise.Blockwise;
import org.tessera.array.blockwise.Workings;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.CreationLayer;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.index.Indexing;

/**
 * {@code x[index] = value} as a new chunked array with x's chunks (Dask's {@code setitem_array}):
 * a block the selection misses is x's block itself (the same key), a block it meets is computed
 * from a copy of x's block and the part of the value it needs, read from the value's blocks when
 * the value is chunked. The value is broadcast to the selection as NumPy broadcasts it and cast
 * as NumPy's setitem casts (unsafely, except that Java integers must fit the dtype).
 */
final class Assignment {
    private Assignment() {
    }

    /** One axis of one block: the step that selects within the block and the result range it fills. */
    private record AxisPart(BlockSlice.Step step, long resultStart, long resultCount) {
    }

    static ChunkedArray set(ChunkedArray array, Index[] index, Object value) {
        long[] shape = array.chunks().requireKnownShape("assignment to index " + IndexText.index(index));
        ResolvedIndex resolved = IndexResolver.resolve(shape, index, IndexResolver.Mode.NUMPY);
        Object source = value instanceof ChunkedArray chunked ? chunked : asArray(value, array.dtype());
        long[] valueShape = source instanceof ChunkedArray chunked ? chunked.chunks().requireKnownShape("assignment of a chunked value")
                : ((NDArray) source).shape();
        long[] resultShape = resultShape(shape, resolved);
        // NumPy's broadcasting of a setitem value (it throws where the value does not fit). A value whose
        // shape it reads differently fits only an empty selection, whose blocks never read it.
        try {
            Indexing.assignedValueShape(valueShape, resultShape, resolved.gathers());
        } catch (ShapeMismatchException refused) {
            throw new ShapeMismatchException(resolved.gathers()
                    ? "shape mismatch: value array of shape " + IndexText.shape(valueShape) + " could not be broadcast to indexing result of shape "
                            + IndexText.shape(resultShape)
                    : "could not broadcast input array from shape " + IndexText.shape(valueShape) + " into shape " + IndexText.shape(resultShape));
        }

        Chunks chunks = array.chunks();
        List<AxisSelector> selectors = resolved.selectors();
        int[] selectorAxis = new int[selectors.size()];
        List<AxisPart[]> parts = new ArrayList<>();
        for (int position = 0, axis = 0; position < selectors.size(); position++) {
            if (selectors.get(position) instanceof AxisSelector.Insert) {
                selectorAxis[position] = -1;
                parts.add(null);
            } else {
                selectorAxis[position] = axis;
                parts.add(axisParts(selectors.get(position), chunks.axis(axis)));
                axis++;
            }
        }
        Points points = resolved.gathers() ? Points.of(resolved, selectors, selectorAxis, chunks) : null;

        String name = Tokens.name("setitem", array.name(), selectors.stream().map(Object::toString).toList(), resolved.pointArrays(),
                source instanceof ChunkedArray chunked ? chunked.name() : source);
        Map<Key, Task> tasks = new LinkedHashMap<>();
        Map<List<Integer>, Long> working = new java.util.HashMap<>();
        BlockGrid.forEach(array.numBlocks(), block -> {
            Planned planned = blockTask(array, block, selectors, selectorAxis, parts, points, resolved, resultShape, source, valueShape);
            tasks.put(Key.of(name, block), planned == null ? Task.ref(array.key(block)) : planned.task());
            if (planned != null && planned.workingBytes() > 0) {
                working.put(Arrays.stream(block).boxed().toList(), planned.workingBytes());
            }
        });
        if (tasks.values().stream().allMatch(Task.Ref.class::isInstance)) {
            // The selection is empty: nothing changes, so the array is its own result.
            return array;
        }
        Set<String> dependencies = new LinkedHashSet<>(List.of(array.name()));
        HighLevelGraph graph = array.graph();
        if (source instanceof ChunkedArray chunked) {
            dependencies.add(chunked.name());
            graph = HighLevelGraph.merge(graph, chunked.graph());
        }
        // A block the selection meets copies x's block (its result) and allocates what workingBytes says; one it misses is x's block.
        graph = Footprints.declare(graph.with(new MaterializedLayer(name, tasks), dependencies), name, Workings.perBlock(working, 0));
        return new ChunkedArray(graph, name, chunks, array.meta());
    }

    /** A block's task and what it allocates besides its result. */
    private record Planned(Task task, long workingBytes) {
    }

    /**
     * What the task of one block allocates besides the copy of x's block: the part of the value it
     * needs (joined from the value's blocks along each axis it spans when the value is chunked,
     * and possibly copied once more to drop leading axes) and, with points, the values picked for
     * them and the int64 index arrays of picking and writing (which the indexing may copy again).
     */
    private static long workingBytes(Object source, long[] regionShape, int pointCount, int indexArrays, long boxElements) {
        long valueItem = source instanceof ChunkedArray chunked ? chunked.dtype().byteSize() : ((NDArray) source).dtype().byteSize();
        int valueNdim = source instanceof ChunkedArray chunked ? chunked.ndim() : ((NDArray) source).ndim();
        long regionElements = 1;
        for (long length : regionShape) {
            regionElements *= length;
        }
        long regionBytes = regionElements * valueItem;
        long bytes = source instanceof ChunkedArray ? regionBytes * (valueNdim + 1L) : regionBytes;
        if (pointCount > 0) {
            long restElements = boxElements == 0 ? 0 : regionElements / boxElements;
            // The values picked for the points, a byte per element written through integer positions, the index arrays.
            bytes += pointCount * restElements * (valueItem + 1) + 2L * pointCount * indexArrays * Long.BYTES;
        }
        return bytes;
    }

    /** The task of one block, or null when the selection misses it. */
    private static Planned blockTask(ChunkedArray array, int[] block, List<AxisSelector> selectors, int[] selectorAxis, List<AxisPart[]> parts,
            Points points, ResolvedIndex resolved, long[] resultShape, Object source, long[] valueShape) {
        List<BlockSlice.Step> steps = new ArrayList<>(selectors.size());
        List<Long> restStarts = new ArrayList<>();
        List<Long> restCounts = new ArrayList<>();
        for (int position = 0; position < selectors.size(); position++) {
            AxisSelector selector = selectors.get(position);
            if (selector instanceof AxisSelector.Insert) {
                steps.add(new BlockSlice.Insert());
                restStarts.add(0L);
                restCounts.add(1L);
                continue;
            }
            AxisPart part = parts.get(position)[block[selectorAxis[position]]];
            if (part == null) {
                return null;
            }
            steps.add(part.step());
            if (selector instanceof AxisSelector.Whole || selector instanceof AxisSelector.Stride) {
                restStarts.add(part.resultStart());
                restCounts.add(part.resultCount());
            }
        }
        long[] regionStart = restStarts.stream().mapToLong(Long::longValue).toArray();
        long[] regionShape = restCounts.stream().mapToLong(Long::longValue).toArray();
        SetBlock function;
        long working;
        if (points == null) {
            function = new SetBlock(steps, new int[0], new long[0][], regionShape, 0, new long[0][]);
            working = workingBytes(source, regionShape, 0, 0, 1);
        } else {
            List<Integer> blockPoints = points.inBlock(block);
            if (blockPoints == null) {
                return null;
            }
            long[] pointShape = resolved.pointShape();
            long[][] pointCoordinates = new long[pointShape.length][blockPoints.size()];
            long[] low = new long[pointShape.length];
            long[] high = new long[pointShape.length];
            Arrays.fill(low, Long.MAX_VALUE);
            Arrays.fill(high, Long.MIN_VALUE);
            for (int point = 0; point < blockPoints.size(); point++) {
                long remainder = blockPoints.get(point);
                for (int axis = pointShape.length - 1; axis >= 0; axis--) {
                    long coordinate = remainder % pointShape[axis];
                    remainder /= pointShape[axis];
                    pointCoordinates[axis][point] = coordinate;
                    low[axis] = Math.min(low[axis], coordinate);
                    high[axis] = Math.max(high[axis], coordinate);
                }
            }
            for (int axis = 0; axis < pointShape.length; axis++) {
                for (int point = 0; point < blockPoints.size(); point++) {
                    pointCoordinates[axis][point] -= low[axis];
                }
            }
            long[] boxShape = new long[pointShape.length];
            for (int axis = 0; axis < boxShape.length; axis++) {
                boxShape[axis] = high[axis] - low[axis] + 1;
            }
            regionStart = insert(regionStart, resolved.pointPosition(), low);
            regionShape = insert(regionShape, resolved.pointPosition(), boxShape);
            function = new SetBlock(steps, resolved.gatheredViewAxes(), points.localCoordinates(blockPoints), regionShape, resolved.pointPosition(),
                    pointCoordinates);
            long boxElements = Arrays.stream(boxShape).reduce(1, Math::multiplyExact);
            working = workingBytes(source, regionShape, blockPoints.size(), pointShape.length + resolved.gatheredViewAxes().length + 1, boxElements);
        }
        return new Planned(Task.call(function, array.key(block), valueRegion(source, valueShape, resultShape, regionStart, regionShape)), working);
    }

    /** The part of the value that the result region {@code [start, start + shape)} takes, in the value's axes. */
    private static Task valueRegion(Object source, long[] valueShape, long[] resultShape, long[] start, long[] shape) {
        long[] from = new long[valueShape.length];
        long[] to = new long[valueShape.length];
        for (int axis = 0; axis < valueShape.length; axis++) {
            int resultAxis = axis - (valueShape.length - resultShape.length);
            boolean broadcast = resultAxis < 0 || valueShape[axis] == 1;
            from[axis] = broadcast ? 0 : start[resultAxis];
            to[axis] = broadcast ? 1 : start[resultAxis] + shape[resultAxis];
        }
        if (source instanceof ChunkedArray chunked) {
            return valueShape.length == 0 ? Task.ref(chunked.key()) : RegionAssembly.region(chunked, from, to);
        }
        NDArray region = (NDArray) source;
        for (int axis = 0; axis < from.length; axis++) {
            if (from[axis] != 0 || to[axis] != region.shape(axis)) {
                region = region.slice(axis, from[axis], 1, to[axis] - from[axis]);
            }
        }
        return Task.literal(region);
    }

    /** The selector's part of each block of its axis; null where it selects nothing. */
    private static AxisPart[] axisParts(AxisSelector selector, long[] lengths) {
        AxisPart[] parts = new AxisPart[lengths.length];
        long blockStart = 0;
        for (int block = 0; block < lengths.length; block++) {
            long length = lengths[block];
            parts[block] = switch (selector) {
                case AxisSelector.Whole ignored -> length == 0 ? null : new AxisPart(new BlockSlice.Keep(), blockStart, length);
                case AxisSelector.Gathered ignored -> new AxisPart(new BlockSlice.Keep(), 0, 0);
                case AxisSelector.Point point -> point.position() >= blockStart && point.position() < blockStart + length
                        ? new AxisPart(new BlockSlice.At(point.position() - blockStart), 0, 0) : null;
                case AxisSelector.Stride stride -> stridePart(stride, blockStart, length);
                case AxisSelector.Insert ignored -> throw new IllegalArgumentException("a new axis has no blocks");
            };
            blockStart += length;
        }
        return parts;
    }

    /** The elements of a slice within the block {@code [blockStart, blockStart + length)}. */
    private static AxisPart stridePart(AxisSelector.Stride stride, long blockStart, long length) {
        long start = stride.start();
        long step = stride.step();
        long first;
        long end;
        if (step > 0) {
            first = Math.max(0, Math.ceilDiv(blockStart - start, step));
            end = Math.min(stride.count(), Math.ceilDiv(blockStart + length - start, step));
        } else {
            first = Math.max(0, Math.floorDiv(start - blockStart - length, -step) + 1);
            end = Math.min(stride.count(), Math.floorDiv(start - blockStart, -step) + 1);
        }
        if (first >= end) {
            return null;
        }
        return new AxisPart(new BlockSlice.Range(start + first * step - blockStart, step, end - first), first, end - first);
    }

    /** NumPy's shape of {@code x[index]}. */
    static long[] resultShape(long[] shape, ResolvedIndex resolved) {
        List<Long> rest = new ArrayList<>();
        int axis = 0;
        for (AxisSelector selector : resolved.selectors()) {
            switch (selector) {
                case AxisSelector.Whole ignored -> rest.add(shape[axis++]);
                case AxisSelector.Stride stride -> {
                    rest.add(stride.count());
                    axis++;
                }
                case AxisSelector.Insert ignored -> rest.add(1L);
                case AxisSelector.Point ignored -> axis++;
                case AxisSelector.Gathered ignored -> axis++;
            }
        }
        long[] restShape = rest.stream().mapToLong(Long::longValue).toArray();
        return resolved.gathers() ? insert(restShape, resolved.pointPosition(), resolved.pointShape()) : restShape;
    }

    private static long[] insert(long[] values, int position, long[] inserted) {
        long[] result = new long[values.length + inserted.length];
        System.arraycopy(values, 0, result, 0, position);
        System.arraycopy(inserted, 0, result, position, inserted.length);
        System.arraycopy(values, position, result, position + inserted.length, values.length - position);
        return result;
    }

    /**
     * A value as an array: NDArrays are copied (the assignment reads the value as it is now, as
     * NumPy does), Java scalars become 0-d arrays, and a Java integer must fit an integer dtype
     * (NumPy 2 raises OverflowError for {@code x_uint8[0] = 300}).
     */
    static NDArray asArray(Object value, DType dtype) {
        return switch (value) {
            case NDArray array -> array.copy();
            case Boolean flag -> NDArray.scalar(flag);
            case Double real -> NDArray.scalar(real);
            case Float real -> NDArray.scalar(real.doubleValue());
            case Complex complex -> {
                NDArray scalar = NDArray.zeros(DType.COMPLEX128);
                scalar.setComplex(complex);
                yield scalar;
            }
            case Long integer -> integerScalar(integer, dtype);
            case Integer integer -> integerScalar(integer, dtype);
            case Short integer -> integerScalar(integer, dtype);
            case Byte integer -> integerScalar(integer, dtype);
            case null -> throw new IllegalArgumentException("cannot assign null to an array of dtype " + dtype);
            default -> throw new IllegalArgumentException("cannot assign a " + value.getClass().getName() + " to an array of dtype " + dtype
                    + ": give a Java number or boolean, an NDArray or a ChunkedArray");
        };
    }

    private static NDArray integerScalar(long value, DType dtype) {
        if (dtype.isInteger()) {
            int bits = dtype.byteSize() * 8;
            BigInteger exact = BigInteger.valueOf(value);
            BigInteger low = dtype.isUnsigned() ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(bits - 1).negate();
            BigInteger high = (dtype.isUnsigned() ? BigInteger.ONE.shiftLeft(bits) : BigInteger.ONE.shiftLeft(bits - 1)).subtract(BigInteger.ONE);
            if (exact.compareTo(low) < 0 || exact.compareTo(high) > 0) {
                throw new ArithmeticException("Python integer " + value + " out of bounds for " + dtype);
            }
        }
        return NDArray.scalar(value);
    }

    /** The points of an advanced index grouped by the input block they fall in. */
    private record Points(int[] gatheredAxes, Map<Long, List<Integer>> byBlock, long[] radix, long[][] localOf) {

        static Points of(ResolvedIndex resolved, List<AxisSelector> selectors, int[] selectorAxis, Chunks chunks) {
            List<Integer> axes = new ArrayList<>();
            for (int position = 0; position < selectors.size(); position++) {
                if (selectors.get(position) instanceof AxisSelector.Gathered) {
                    axes.add(selectorAxis[position]);
                }
            }
            int[] gatheredAxes = axes.stream().mapToInt(Integer::intValue).toArray();
            NDArray[] arrays = resolved.gatheredArrays();
            int points = Math.toIntExact(Arrays.stream(resolved.pointShape()).reduce(1, Math::multiplyExact));
            long[] radix = new long[gatheredAxes.length];
            long next = 1;
            for (int gathered = gatheredAxes.length - 1; gathered >= 0; gathered--) {
                radix[gathered] = next;
                next *= chunks.blockCount(gatheredAxes[gathered]);
            }
            long[] tupleOf = new long[points];
            long[][] localOf = new long[gatheredAxes.length][points];
            for (int gathered = 0; gathered < gatheredAxes.length; gathered++) {
                long[] offsets = chunks.offsets(gatheredAxes[gathered]);
                NDArray flat = arrays[gathered].broadcastTo(resolved.pointShape()).ravel();
                for (int point = 0; point < points; point++) {
                    long position = flat.getLong(point);
                    int block = PointGather.blockHolding(offsets, position);
                    tupleOf[point] += block * radix[gathered];
                    localOf[gathered][point] = position - offsets[block];
                }
            }
            Map<Long, List<Integer>> byBlock = new LinkedHashMap<>();
            for (int point = 0; point < points; point++) {
                byBlock.computeIfAbsent(tupleOf[point], tuple -> new ArrayList<>()).add(point);
            }
            return new Points(gatheredAxes, byBlock, radix, localOf);
        }

        /** The points in block {@code block}, in index order; null when none. */
        List<Integer> inBlock(int[] block) {
            long tuple = 0;
            for (int gathered = 0; gathered < gatheredAxes.length; gathered++) {
                tuple += block[gatheredAxes[gathered]] * radix[gathered];
            }
            return byBlock.get(tuple);
        }

        long[][] localCoordinates(List<Integer> points) {
            long[][] coordinates = new long[gatheredAxes.length][points.size()];
            for (int gathered = 0; gathered < gatheredAxes.length; gathered++) {
                for (int point = 0; point < points.size(); point++) {
                    coordinates[gathered][point] = localOf[gathered][points.get(point)];
                }
            }
            return coordinates;
        }
    }

    /**
     * {@code x[mask] = value} with a chunked boolean mask over x's leading axes, as Dask does it
     * with {@code where}: blockwise, the mask's chunks unified with x's. The value must be one
     * element, because how many elements the mask selects is not known before it is computed.
     */
    static ChunkedArray setMasked(ChunkedArray array, ChunkedArray mask, Object value) {
        if (mask.dtype() != DType.BOOL) {
            throw new IndexOutOfBoundsException("a chunked index array must be boolean to assign through it, got " + mask.dtype());
        }
        if (mask.ndim() > array.ndim()) {
            throw new IndexOutOfBoundsException("too many indices for array: array is " + array.ndim() + "-dimensional (shape "
                    + IndexText.shape(array.shape()) + "), but the mask has " + mask.ndim() + " axes (shape " + IndexText.shape(mask.shape()) + ")");
        }
        for (int axis = 0; axis < mask.ndim(); axis++) {
            long expected = array.shape(axis);
            long actual = mask.shape(axis);
            if (expected != Chunks.UNKNOWN && actual != Chunks.UNKNOWN && expected != actual) {
                throw new IndexOutOfBoundsException("boolean index did not match indexed array along axis " + axis + "; size of axis is "
                        + expected + " but size of corresponding boolean axis is " + actual + " (array shape " + IndexText.shape(array.shape())
                        + ", mask shape " + IndexText.shape(mask.shape()) + ")");
            }
        }
        if (value instanceof ChunkedArray) {
            throw new UnsupportedOperationException("assigning a chunked array through a chunked boolean mask is not supported; the value must be one element");
        }
        NDArray element = asArray(value, array.dtype());
        if (element.size() != 1) {
            throw new UnsupportedOperationException("assigning through a chunked boolean mask takes one element, got a value of shape "
                    + IndexText.shape(element.shape()) + ": how many elements the mask selects is unknown until it is computed");
        }
        // Each block takes the mask block over the same elements: chunk unification would let a mask
        // axis of length 1 in one block broadcast over an array axis of length 1 chunked (0, 1).
        long[][] maskLengths = new long[mask.ndim()][];
        for (int axis = 0; axis < mask.ndim(); axis++) {
            maskLengths[axis] = array.chunks().axis(axis);
        }
        Chunks aligned = Chunks.of(maskLengths);
        if (!aligned.equals(mask.chunks())) {
            if (!aligned.isKnown() || !mask.chunks().isKnown()) {
                throw new org.tessera.array.chunks.UnknownChunksException("assignment through a chunked mask with chunks " + mask.chunks()
                        + " into blocks " + aligned + " needs both known to line them up");
            }
            mask = org.tessera.array.rechunk.Rechunk.rechunk(mask, aligned);
        }
        String letters = CreationLayer.AXIS_LETTERS.substring(0, array.ndim());
        // Besides the copy of the block (its result): the coordinates of the mask's true elements, an int64 array per
        // mask axis, and what writing through them makes on the way (a byte per element written, a flat copy of the
        // mask), bounded by the mask block's elements, which the block's elements bound in turn.
        double perElement = ((mask.ndim() + 1.0) * Long.BYTES + 2) / Math.max(1, array.dtype().byteSize());
        return Blockwise.of("setitem-mask", new MaskedAssignBlock(), letters).input(array, letters).input(mask, letters.substring(0, mask.ndim()))
                .constant(element.reshape()).meta(array.meta()).working(Workings.plus(Working.ofResult(perElement), Working.fixed(Long.BYTES))).build();
    }

    /** A copy of the block with the masked elements set to the value. */
    record MaskedAssignBlock() implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(List<Object> arguments) {
            NDArray result = Blocks.dense(arguments.get(0), "assignment").copy();
            Indexing.set(result, Blocks.dense(arguments.get(2), "assignment"), new Index.BoolMask(Blocks.dense(arguments.get(1), "assignment")));
            return result;
        }
    }
}

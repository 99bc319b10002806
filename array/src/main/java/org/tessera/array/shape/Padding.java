package org.tessera.array.shape;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.Creation;
import org.tessera.array.join.ChunkedJoining;
import org.tessera.ndarray.layout.Shapes;

/**
 * NumPy's {@code pad} with Dask's chunks, one axis after another (as NumPy fills corners): the
 * padded axis is the concatenation of a slab before, the array, and a slab after.
 *
 * <ul>
 * <li>constant: new blocks of the value, as long as the axis's largest block;
 * <li>edge: the first (or last) element broadcast to the width, one block;
 * <li>reflect, symmetric, wrap: ranges of the array itself, read backwards where mirrored, so
 *     the slab's blocks are cut from the array's. A width beyond the array's length takes several
 *     ranges, NumPy's periodic continuation.
 * </ul>
 */
public final class Padding {
    private Padding() {
    }

    /** {@code width} elements before and after every axis. */
    public static ChunkedArray pad(ChunkedArray x, long width, PadMode mode) {
        return pad(x, new long[][] {{width, width}}, mode);
    }

    /**
     * {@code widths[k] = {before, after}} elements on axis k; as in NumPy, one pair applies to every
     * axis and a pair of one number means the same before and after.
     */
    public static ChunkedArray pad(ChunkedArray x, long[][] widths, PadMode mode) {
        long[][] pairs = expand(widths, x.ndim());
        ChunkedArray result = x;
        for (int axis = 0; axis < x.ndim(); axis++) {
            long before = pairs[axis][0];
            long after = pairs[axis][1];
            if (before == 0 && after == 0) {
                continue;
            }
            long length = result.chunks().requireKnownShape("pad")[axis];
            if (length == 0 && !(mode instanceof PadMode.Constant)) {
                throw new IllegalArgumentException("can't extend empty axis " + axis + " of shape " + Shapes.format(x.shape()) + " using mode "
                        + mode + " (only a constant pad extends an empty axis)");
            }
            List<ChunkedArray> parts = new ArrayList<>();
            parts.addAll(slab(result, axis, -before, 0, mode));
            parts.add(result);
            parts.addAll(slab(result, axis, length, length + after, mode));
            result = ChunkedJoining.concatenate(parts, axis);
        }
        return result;
    }

    private static long[][] expand(long[][] widths, int ndim) {
        if (widths.length != 1 && widths.length != ndim) {
            throw new IllegalArgumentException("pad: widths " + Arrays.deepToString(widths) + " give " + widths.length + " pairs for an array of "
                    + ndim + " axes (give one pair, or one per axis)");
        }
        long[][] pairs = new long[ndim][];
        for (int axis = 0; axis < ndim; axis++) {
            long[] given = widths[widths.length == 1 ? 0 : axis];
            if (given.length != 1 && given.length != 2) {
                throw new IllegalArgumentException("pad: the widths of axis " + axis + " are " + Arrays.toString(given) + "; give (before, after) or one number");
            }
            pairs[axis] = new long[] {given[0], given[given.length - 1]};
            if (pairs[axis][0] < 0 || pairs[axis][1] < 0) {
                throw new IllegalArgumentException("index can't contain negative values: pad widths " + Arrays.toString(given) + " on axis " + axis);
            }
        }
        return pairs;
    }

    /** The padding for positions {@code [from, to)} of the axis (outside {@code [0, length)}), in order. */
    private static List<ChunkedArray> slab(ChunkedArray x, int axis, long from, long to, PadMode mode) {
        if (from == to) {
            return List.of();
        }
        long[] shape = x.shape();
        shape[axis] = to - from;
        return switch (mode) {
            case PadMode.Constant constant -> List.of(constantSlab(x, axis, shape, constant.value()));
            case PadMode.Edge edge -> {
                long edgePosition = from < 0 ? 0 : x.shape(axis) - 1;
                yield List.of(Dimensions.broadcastTo(AxisSlices.range(x, axis, edgePosition, edgePosition + 1), shape));
            }
            case PadMode.Reflect reflect -> reuse(x, axis, from, to, mode);
            case PadMode.Symmetric symmetric -> reuse(x, axis, from, to, mode);
            case PadMode.Wrap wrap -> reuse(x, axis, from, to, mode);
        };
    }

    /** Dask's constant slab: blocks as long as the axis's largest block, the other axes chunked as the array. */
    private static ChunkedArray constantSlab(ChunkedArray x, int axis, long[] shape, Number value) {
        List<ChunkSpec> specs = new ArrayList<>();
        for (int other = 0; other < x.ndim(); other++) {
            long[] lengths = other == axis ? Chunks.regularAxis(shape[axis], Math.max(1, x.chunkSize()[axis])) : x.chunks().axis(other);
            specs.add(new ChunkSpec.Explicit(lengths));
        }
        return Creation.full(shape, value.doubleValue(), x.dtype(), new ChunkSpec.PerAxis(specs));
    }

    /**
     * The positions {@code [from, to)} read from the array: each position maps to a source
     * element, and runs of consecutive sources (forwards or backwards) become one range each.
     */
    private static List<ChunkedArray> reuse(ChunkedArray x, int axis, long from, long to, PadMode mode) {
        long length = x.shape(axis);
        List<ChunkedArray> ranges = new ArrayList<>();
        long runStart = source(from, length, mode);
        long runEnd = runStart;
        int direction = 0;
        for (long position = from + 1; position <= to; position++) {
            long next = position < to ? source(position, length, mode) : Long.MIN_VALUE;
            int step = next == Long.MIN_VALUE ? 0 : (int) (next - runEnd);
            boolean continues = (step == 1 || step == -1) && (direction == 0 || direction == step);
            if (continues) {
                direction = step;
                runEnd = next;
            } else {
                ranges.add(direction < 0 ? AxisSlices.range(x, axis, runEnd, runStart + 1, true) : AxisSlices.range(x, axis, runStart, runEnd + 1));
                runStart = next;
                runEnd = next;
                direction = 0;
            }
        }
        return ranges;
    }

    /** The element that position {@code position} (outside the axis) repeats, by NumPy's periodic rules. */
    static long source(long position, long length, PadMode mode) {
        return switch (mode) {
            case PadMode.Wrap wrap -> Math.floorMod(position, length);
            case PadMode.Symmetric symmetric -> {
                long folded = Math.floorMod(position, 2 * length);
                yield folded < length ? folded : 2 * length - 1 - folded;
            }
            case PadMode.Reflect reflect -> {
                if (length == 1) {
                    yield 0;
                }
                long period = 2 * (length - 1);
                long folded = Math.floorMod(position, period);
                yield folded < length ? folded : period - folded;
            }
            default -> throw new IllegalArgumentException("pad mode " + mode + " does not read the array");
        };
    }
}

package org.tessera.array.chunks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.tessera.ndarray.dtype.DType;

/**
 * Dask's {@code normalize_chunks}: from any {@link ChunkSpec} and a shape to {@link Chunks}, with the
 * same answers as Dask (the conformance suite normalize_chunks holds 360 of them).
 *
 * <p>"auto" chooses block lengths so that a block holds about {@code limit} bytes: with no previous
 * chunks, every auto axis gets the same length (the limit's root), axes shorter than that are taken
 * whole first; with previous chunks, the auto axes grow or shrink from the previous median block
 * length by a common factor, in multiples of the previous block length where one dominates, so a
 * rechunk keeps the old blocks' boundaries.
 */
public final class ChunkNormalization {
    /** Dask's default {@code array.chunk-size}. */
    public static final long DEFAULT_LIMIT_BYTES = 128L << 20;

    private ChunkNormalization() {
    }

    /** Normalises with the default byte limit and no previous chunks. */
    public static Chunks normalize(ChunkSpec spec, long[] shape, DType dtype) {
        return normalize(spec, shape, null, dtype, null);
    }

    /**
     * @param limitBytes     the byte limit of auto blocks, or null for {@link #DEFAULT_LIMIT_BYTES}
     * @param dtype          the element type (needed for auto)
     * @param previousChunks block lengths per axis of the array being rechunked, or null
     * @throws IllegalArgumentException naming the spec and shape when they do not fit together
     */
    public static Chunks normalize(ChunkSpec spec, long[] shape, Long limitBytes, DType dtype, long[][] previousChunks) {
        List<ChunkSpec> axes = perAxis(spec, shape);
        Long limit = limitBytes;
        List<ChunkSpec> resolved = new ArrayList<>(axes.size());
        for (int axis = 0; axis < axes.size(); axis++) {
            ChunkSpec axisSpec = axes.get(axis);
            if (axisSpec instanceof ChunkSpec.Whole) {
                axisSpec = new ChunkSpec.Size(shape[axis]);
            } else if (axisSpec instanceof ChunkSpec.Bytes(long bytes)) {
                if (limit != null && limit != bytes) {
                    throw new IllegalArgumentException("chunks " + spec + " ask for two block byte sizes, " + limit + " and " + bytes + "; give one");
                }
                limit = bytes;
                axisSpec = new ChunkSpec.Auto();
            } else if (axisSpec instanceof ChunkSpec.PerAxis || axisSpec instanceof ChunkSpec.ByAxis) {
                throw new IllegalArgumentException("chunks " + spec + ": axis " + axis + " has a nested spec " + axisSpec);
            }
            resolved.add(axisSpec);
        }
        if (resolved.stream().anyMatch(axisSpec -> axisSpec instanceof ChunkSpec.Auto)) {
            resolved = AutoChunks.choose(resolved, shape, limit == null ? DEFAULT_LIMIT_BYTES : limit, dtype, previousChunks);
        }
        long[][] lengths = new long[shape.length][];
        for (int axis = 0; axis < shape.length; axis++) {
            lengths[axis] = switch (resolved.get(axis)) {
                case ChunkSpec.Size(long length) -> {
                    if (length == 0 && shape[axis] > 0) {
                        throw new IllegalArgumentException("chunks " + spec + ": a block length of 0 cannot cover axis " + axis + " of length " + shape[axis]);
                    }
                    yield Chunks.regularAxis(shape[axis], length);
                }
                case ChunkSpec.Explicit(long[] explicit) -> explicit;
                default -> throw new IllegalStateException("unresolved chunk spec " + resolved.get(axis));
            };
            if (lengths[axis].length == 0) {
                throw new IllegalArgumentException("chunks " + spec + ": axis " + axis + " has no blocks; express a zero-length axis with a block of 0");
            }
        }
        return Chunks.of(lengths).requireShape(shape);
    }

    /** One spec per axis, as Dask expands a single value, a map, or a list. */
    private static List<ChunkSpec> perAxis(ChunkSpec spec, long[] shape) {
        List<ChunkSpec> axes = switch (spec) {
            case ChunkSpec.PerAxis(List<ChunkSpec> list) -> {
                if (list.isEmpty() && shape.length > 0 && Arrays.stream(shape).allMatch(length -> length == 0)) {
                    yield java.util.Collections.nCopies(shape.length, (ChunkSpec) new ChunkSpec.Explicit(new long[] {0}));
                }
                yield list;
            }
            case ChunkSpec.ByAxis(Map<Integer, ChunkSpec> map) -> {
                for (int axis : map.keySet()) {
                    if (axis < 0 || axis >= shape.length) {
                        throw new IllegalArgumentException("chunks " + spec + " name axis " + axis + " of a shape " + Arrays.toString(shape));
                    }
                }
                List<ChunkSpec> list = new ArrayList<>();
                for (int axis = 0; axis < shape.length; axis++) {
                    list.add(map.getOrDefault(axis, new ChunkSpec.Whole()));
                }
                yield list;
            }
            case ChunkSpec.Explicit explicit -> List.of(explicit);
            default -> java.util.Collections.nCopies(shape.length, spec);
        };
        if (axes.size() != shape.length) {
            throw new IllegalArgumentException("chunks " + spec + " have " + axes.size() + " axes but the shape " + Arrays.toString(shape) + " has " + shape.length);
        }
        return axes;
    }

    /** Dask's {@code auto_chunks}, kept apart because it is the intricate part. */
    static final class AutoChunks {
        private AutoChunks() {
        }

        static List<ChunkSpec> choose(List<ChunkSpec> specs, long[] shape, long limitBytes, DType dtype, long[][] previousChunks) {
            if (dtype == null) {
                throw new IllegalArgumentException("auto chunks need the dtype to know the bytes of a block (shape " + Arrays.toString(shape) + ")");
            }
            for (long length : shape) {
                if (length == Chunks.UNKNOWN) {
                    throw new UnknownChunksException("auto chunks of shape " + Arrays.toString(shape) + " cannot be chosen");
                }
            }
            List<ChunkSpec> chunks = new ArrayList<>(specs);
            TreeSet<Integer> autos = new TreeSet<>();
            for (int axis = 0; axis < chunks.size(); axis++) {
                if (chunks.get(axis) instanceof ChunkSpec.Auto) {
                    autos.add(axis);
                }
            }
            double limit = Math.max(1, limitBytes);
            double largestBlock = 1;
            for (ChunkSpec spec : chunks) {
                largestBlock *= switch (spec) {
                    case ChunkSpec.Size(long length) -> length;
                    case ChunkSpec.Explicit(long[] lengths) -> Arrays.stream(lengths).max().orElse(0);
                    default -> 1;
                };
            }
            if (previousChunks != null && previousChunks.length > 0) {
                return fromPrevious(chunks, autos, shape, limit, dtype.byteSize(), largestBlock, previousChunks);
            }
            double size = Math.pow(limit / dtype.byteSize() / largestBlock, 1.0 / autos.size());
            List<Integer> small = autos.stream().filter(axis -> shape[axis] < size).toList();
            if (!small.isEmpty()) {
                for (int axis : small) {
                    chunks.set(axis, new ChunkSpec.Explicit(new long[] {shape[axis]}));
                }
                return choose(chunks, shape, limitBytes, dtype, null);
            }
            for (int axis : autos) {
                chunks.set(axis, new ChunkSpec.Size((long) roundTo(size, shape[axis])));
            }
            return chunks;
        }

        private static List<ChunkSpec> fromPrevious(List<ChunkSpec> chunks, TreeSet<Integer> autos, long[] shape, double limit, int itemSize,
                                                    double largestBlock, long[][] previousChunks) {
            Map<Integer, Double> result = new LinkedHashMap<>();
            for (int axis : autos) {
                result.put(axis, median(previousChunks[axis]));
            }
            long[] idealShape = new long[shape.length];
            for (int axis = 0; axis < shape.length; axis++) {
                idealShape[axis] = dominantLength(previousChunks[axis], shape[axis]);
            }
            double largest = largestBlock;
            double multiplier = multiplier(limit, itemSize, largest, result);
            double lastMultiplier = 0;
            TreeSet<Integer> lastAutos = new TreeSet<>();
            while (multiplier != lastMultiplier || !autos.equals(lastAutos)) {
                lastMultiplier = multiplier;
                lastAutos = new TreeSet<>(autos);
                for (int axis : new ArrayList<>(autos)) {
                    if (idealShape[axis] == 0) {
                        result.put(axis, 0.0);
                        continue;
                    }
                    double proposed = result.get(axis) * Math.pow(multiplier, 1.0 / autos.size());
                    if (proposed > shape[axis]) {
                        autos.remove(axis);
                        largest *= shape[axis];
                        chunks.set(axis, new ChunkSpec.Size(shape[axis]));
                        result.remove(axis);
                    } else {
                        result.put(axis, roundTo(proposed, idealShape[axis]));
                    }
                }
                multiplier = multiplier(limit, itemSize, largest, result);
            }
            result.forEach((axis, length) -> chunks.set(axis, new ChunkSpec.Size(length.longValue())));
            return chunks;
        }

        private static double multiplier(double limit, int itemSize, double largestBlock, Map<Integer, Double> result) {
            double product = 1;
            for (double length : result.values()) {
                if (length != 0) {
                    product *= length;
                }
            }
            return limit / itemSize / largestBlock / product;
        }

        /** The most frequent previous block length when it is above 1 and covers half the blocks, else the axis length. */
        private static long dominantLength(long[] previous, long axisLength) {
            Map<Long, Integer> frequencies = new LinkedHashMap<>();
            for (long length : previous) {
                frequencies.merge(length, 1, Integer::sum);
            }
            long mode = 0;
            int count = -1;
            for (Map.Entry<Long, Integer> entry : frequencies.entrySet()) {
                if (entry.getValue() > count) {
                    mode = entry.getKey();
                    count = entry.getValue();
                }
            }
            return mode > 1 && count >= previous.length / 2.0 ? mode : axisLength;
        }

        private static double median(long[] values) {
            long[] sorted = values.clone();
            Arrays.sort(sorted);
            int middle = sorted.length / 2;
            return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0;
        }

        /**
         * A length near {@code length} that lines up with {@code step}: at most {@code step}, the
         * length itself (an uneven last block is fine); above, the largest multiple of the step.
         */
        static double roundTo(double length, double step) {
            if (length <= step) {
                return Math.max(1, (long) length);
            }
            return floorDivide(length, step) * step;
        }

        /** Python's float floor division, which corrects the rounding of (a - fmod(a, b)) / b. */
        private static double floorDivide(double dividend, double divisor) {
            double remainder = dividend % divisor;
            double quotient = (dividend - remainder) / divisor;
            double floor = Math.floor(quotient);
            return quotient - floor > 0.5 ? floor + 1 : floor;
        }
    }
}

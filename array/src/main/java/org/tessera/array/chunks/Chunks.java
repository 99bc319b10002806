package org.tessera.array.chunks;

import java.util.Arrays;

/**
 * The block lengths of a chunked array, one list per axis: {@code ((2, 2, 1), (3, 3))} for a 5 x 6
 * array in blocks of at most 2 x 3. Immutable. A length may be {@link #UNKNOWN} (after a boolean
 * mask); asking for an axis length or a block offset that depends on one throws
 * {@link UnknownChunksException}.
 *
 * <p>Invariants, checked on construction: one list per axis, every list non-empty, lengths
 * non-negative or unknown, and a zero-length axis has exactly one block of length 0.
 */
public final class Chunks implements java.io.Serializable {
    @java.io.Serial
    private static final long serialVersionUID = 1L;

    /** The length of a block whose size is not known yet. */
    public static final long UNKNOWN = -1;

    private final long[][] lengths;
    // Block offsets per axis, computed once: creation and reduction tasks ask for them per block,
    // and summing the lengths each time would make 100,000 blocks cost 10^10 additions.
    private transient volatile long[][] offsetCache;

    private final long[] axisLengths;

    private Chunks(long[][] lengths) {
        this.lengths = lengths;
        this.axisLengths = new long[lengths.length];
        for (int axis = 0; axis < lengths.length; axis++) {
            long total = 0;
            for (long length : lengths[axis]) {
                if (length == UNKNOWN) {
                    total = UNKNOWN;
                    break;
                }
                total += length;
            }
            axisLengths[axis] = total;
        }
    }

    /** Chunks with the given block lengths per axis (copied and checked). */
    public static Chunks of(long[]... lengthsPerAxis) {
        long[][] copy = new long[lengthsPerAxis.length][];
        for (int axis = 0; axis < copy.length; axis++) {
            long[] axisLengths = lengthsPerAxis[axis];
            if (axisLengths.length == 0) {
                throw new IllegalArgumentException("chunks " + format(lengthsPerAxis) + ": axis " + axis
                        + " has no blocks; a zero-length axis has one block of length 0");
            }
            for (long length : axisLengths) {
                if (length < 0 && length != UNKNOWN) {
                    throw new IllegalArgumentException("chunks " + format(lengthsPerAxis) + ": block length " + length + " on axis " + axis + " is negative");
                }
            }
            copy[axis] = axisLengths.clone();
        }
        return new Chunks(copy);
    }

    /** Regular blocks of {@code blockShape} (the last block of each axis may be shorter). */
    public static Chunks regular(long[] shape, long[] blockShape) {
        if (shape.length != blockShape.length) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " and block shape " + Arrays.toString(blockShape) + " differ in length");
        }
        long[][] lengths = new long[shape.length][];
        for (int axis = 0; axis < shape.length; axis++) {
            lengths[axis] = regularAxis(shape[axis], blockShape[axis]);
        }
        return new Chunks(lengths);
    }

    /** Blocks of {@code blockLength} covering {@code axisLength}; a shorter last block takes the rest. */
    public static long[] regularAxis(long axisLength, long blockLength) {
        if (axisLength == 0) {
            return new long[] {0};
        }
        if (blockLength <= 0) {
            throw new IllegalArgumentException("block length " + blockLength + " must be positive for an axis of length " + axisLength);
        }
        long full = axisLength / blockLength;
        long rest = axisLength % blockLength;
        if (full + (rest > 0 ? 1 : 0) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("an axis of length " + axisLength + " in blocks of " + blockLength + " would have more than 2^31 blocks");
        }
        long[] lengths = new long[(int) full + (rest > 0 ? 1 : 0)];
        Arrays.fill(lengths, 0, (int) full, blockLength);
        if (rest > 0) {
            lengths[lengths.length - 1] = rest;
        }
        return lengths;
    }

    public int ndim() {
        return lengths.length;
    }

    /** The block lengths along {@code axis}. */
    public long[] axis(int axis) {
        return lengths[axis].clone();
    }

    public int blockCount(int axis) {
        return lengths[axis].length;
    }

    /** Blocks per axis. */
    public int[] blockCounts() {
        int[] counts = new int[lengths.length];
        for (int axis = 0; axis < counts.length; axis++) {
            counts[axis] = lengths[axis].length;
        }
        return counts;
    }

    /** The total number of blocks. */
    public long totalBlocks() {
        long total = 1;
        for (long[] axisLengths : lengths) {
            total *= axisLengths.length;
        }
        return total;
    }

    public long length(int axis, int block) {
        return lengths[axis][block];
    }

    public boolean isKnown(int axis) {
        for (long length : lengths[axis]) {
            if (length == UNKNOWN) {
                return false;
            }
        }
        return true;
    }

    public boolean isKnown() {
        for (int axis = 0; axis < lengths.length; axis++) {
            if (!isKnown(axis)) {
                return false;
            }
        }
        return true;
    }

    /** The length of {@code axis}, or {@link #UNKNOWN} if a block of it is unknown. */
    public long axisLength(int axis) {
        return axisLengths[axis];
    }

    /** The array's shape, {@link #UNKNOWN} where an axis has unknown blocks. */
    public long[] shape() {
        return axisLengths.clone();
    }

    /** The shape, or an {@link UnknownChunksException} naming {@code operation} and the unknown axes. */
    public long[] requireKnownShape(String operation) {
        long[] shape = shape();
        for (int axis = 0; axis < shape.length; axis++) {
            if (shape[axis] == UNKNOWN) {
                throw new UnknownChunksException(operation + " needs the length of axis " + axis + " of chunks " + this);
            }
        }
        return shape;
    }

    /** The largest block length per axis (Dask's chunksize). */
    public long[] largestBlock() {
        long[] largest = new long[lengths.length];
        for (int axis = 0; axis < largest.length; axis++) {
            for (long length : lengths[axis]) {
                largest[axis] = Math.max(largest[axis], length);
            }
        }
        return largest;
    }

    /** Where each block starts along {@code axis}: one more entry than blocks, the last the axis length. */
    public long[] offsets(int axis) {
        return cachedOffsets()[axis].clone();
    }

    /** Where block {@code index} starts (its first element's index). */
    public long[] blockStart(int... index) {
        long[][] offsets = cachedOffsets();
        long[] start = new long[index.length];
        for (int axis = 0; axis < index.length; axis++) {
            start[axis] = offsets[axis][index[axis]];
        }
        return start;
    }

    private long[][] cachedOffsets() {
        long[][] cached = offsetCache;
        if (cached == null) {
            cached = new long[lengths.length][];
            for (int axis = 0; axis < lengths.length; axis++) {
                long[] axisLengths = lengths[axis];
                long[] offsets = new long[axisLengths.length + 1];
                for (int block = 0; block < axisLengths.length; block++) {
                    if (axisLengths[block] == UNKNOWN) {
                        throw new UnknownChunksException("block offsets along axis " + axis + " of chunks " + this + " are not known");
                    }
                    offsets[block + 1] = offsets[block] + axisLengths[block];
                }
                cached[axis] = offsets;
            }
            offsetCache = cached;
        }
        return cached;
    }

    /** The shape of block {@code index}. */
    public long[] blockShape(int... index) {
        long[] shape = new long[lengths.length];
        for (int axis = 0; axis < shape.length; axis++) {
            shape[axis] = lengths[axis][index[axis]];
        }
        return shape;
    }

    /** Checks that the chunks cover {@code shape}, naming both when they do not. */
    public Chunks requireShape(long[] shape) {
        if (shape.length != lengths.length) {
            throw new IllegalArgumentException("chunks " + this + " have " + lengths.length + " axes but the shape " + Arrays.toString(shape) + " has " + shape.length);
        }
        for (int axis = 0; axis < shape.length; axis++) {
            long length = axisLength(axis);
            if (length != UNKNOWN && shape[axis] != UNKNOWN && length != shape[axis]) {
                throw new IllegalArgumentException("chunks " + this + " do not add up to shape " + Arrays.toString(shape)
                        + ": axis " + axis + " sums to " + length);
            }
        }
        return this;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Chunks chunks && Arrays.deepEquals(lengths, chunks.lengths);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(lengths);
    }

    /** Dask's notation: {@code ((2, 2, 1), (3, 3))}, with {@code nan} for unknown lengths. */
    @Override
    public String toString() {
        return format(lengths);
    }

    private static String format(long[][] lengths) {
        StringBuilder text = new StringBuilder("(");
        for (int axis = 0; axis < lengths.length; axis++) {
            text.append(axis == 0 ? "(" : ", (");
            for (int block = 0; block < lengths[axis].length; block++) {
                long length = lengths[axis][block];
                text.append(block == 0 ? "" : ", ").append(length == UNKNOWN ? "nan" : Long.toString(length));
            }
            text.append(lengths[axis].length == 1 ? ",)" : ")");
        }
        return text.append(lengths.length == 1 ? ",)" : ")").toString();
    }
}

package org.tessera.array.blockwise;

import java.io.Serial;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.tessera.array.plan.Working;
import org.tessera.graph.Key;

/**
 * Working-memory declarations that operations build from the shape of their blocks (see
 * {@link Working}): sums of declarations, bytes that depend on a block's position along its axes,
 * and bytes worked out block by block when the layer is built. The block index of a key, not its
 * name, chooses the bytes, so a declaration still applies after a fusion renames its layer.
 */
public final class Workings {
    private Workings() {
    }

    /** What both declare, added: a task that does both things allocates both. */
    public static Working plus(Working first, Working second) {
        if (first.equals(Working.none())) {
            return second;
        }
        return second.equals(Working.none()) ? first : new Sum(first, second);
    }

    /** {@code bytes[i]} for the blocks at position {@code i} along {@code axis} (the last entry beyond it). */
    public static Working alongAxis(int axis, long[] bytes) {
        long[][] perAxis = new long[axis + 1][];
        perAxis[axis] = bytes.clone();
        return new AlongAxes(perAxis);
    }

    /**
     * The sum over axes {@code k} of {@code bytes[k][i_k]}, where {@code i_k} is the block's position
     * along axis k; a null entry adds nothing for its axis.
     */
    public static Working alongAxes(long[][] bytes) {
        long[][] copy = new long[bytes.length][];
        for (int axis = 0; axis < bytes.length; axis++) {
            copy[axis] = bytes[axis] == null ? null : bytes[axis].clone();
        }
        return new AlongAxes(copy);
    }

    /** Bytes found block by block when the layer was built, by block index; {@code otherwise} for a block not listed. */
    public static Working perBlock(Map<List<Integer>, Long> bytes, long otherwise) {
        return new PerBlock(Map.copyOf(bytes), otherwise);
    }

    /** The block index of {@code key} as a list, the key of {@link #perBlock}. */
    public static List<Integer> blockOf(Key key) {
        return Arrays.stream(key.index()).boxed().toList();
    }

    /** The bytes of the elements a block of {@code resultBytes} holds, as elements of {@code itemSize} bytes each. */
    static long elements(long resultBytes, long itemSize) {
        return itemSize <= 0 ? 0 : resultBytes / itemSize;
    }

    record Sum(Working first, Working second) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long bytes(Key key, long resultBytes) {
            return first.bytes(key, resultBytes) + second.bytes(key, resultBytes);
        }
    }

    record AlongAxes(long[][] bytes) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long bytes(Key key, long resultBytes) {
            long total = 0;
            for (int axis = 0; axis < bytes.length && axis < key.rank(); axis++) {
                long[] along = bytes[axis];
                if (along != null && along.length > 0) {
                    total += along[Math.min(key.index(axis), along.length - 1)];
                }
            }
            return total;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof AlongAxes that && Arrays.deepEquals(bytes, that.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.deepHashCode(bytes);
        }

        @Override
        public String toString() {
            return "AlongAxes" + Arrays.deepToString(bytes);
        }
    }

    record PerBlock(Map<List<Integer>, Long> bytes, long otherwise) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long bytes(Key key, long resultBytes) {
            return bytes.getOrDefault(blockOf(key), otherwise);
        }
    }
}

package org.tessera.io.zarr;

import java.io.Serial;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

import org.tessera.io.codec.ByteCodec;

/**
 * One entry of a Zarr v3 codec list, in the three roles the specification gives codecs:
 * array-to-array ({@link Transpose}), array-to-bytes ({@link Bytes}, {@link Sharding}) and
 * bytes-to-bytes ({@link Compression}: gzip, zstd, blosc, crc32c). {@link CodecChain} runs a list.
 */
public sealed interface ArrayCodec extends Serializable {

    /** "bytes": elements in C order, each in {@code endian} order (ignored for one-byte types). */
    record Bytes(Endian endian) implements ArrayCodec {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    /** "transpose": the chunk's axes permuted by {@code order} before the next codec sees it. */
    record Transpose(int[] order) implements ArrayCodec {
        @Serial
        private static final long serialVersionUID = 1L;

        public Transpose {
            order = order.clone();
            boolean[] seen = new boolean[order.length];
            for (int axis : order) {
                if (axis < 0 || axis >= order.length || seen[axis]) {
                    throw new IllegalArgumentException("transpose order " + Arrays.toString(order) + " is not a permutation of 0.." + (order.length - 1));
                }
                seen[axis] = true;
            }
        }

        @Override
        public int[] order() {
            return order.clone();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Transpose that && Arrays.equals(order, that.order);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(order);
        }

        @Override
        public String toString() {
            return "Transpose" + Arrays.toString(order);
        }
    }

    /** A bytes-to-bytes codec. */
    record Compression(ByteCodec codec) implements ArrayCodec {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    /**
     * "sharding_indexed": the stored chunk (the shard) holds a grid of inner chunks of
     * {@code innerChunkShape}, each encoded by {@code codecs}, plus an index of (offset, length)
     * pairs encoded by {@code indexCodecs}, at the start or the end of the shard.
     */
    record Sharding(long[] innerChunkShape, List<ArrayCodec> codecs, List<ArrayCodec> indexCodecs, boolean indexAtEnd) implements ArrayCodec {
        @Serial
        private static final long serialVersionUID = 1L;

        public Sharding {
            innerChunkShape = innerChunkShape.clone();
            codecs = List.copyOf(codecs);
            indexCodecs = List.copyOf(indexCodecs);
            // Both chains must have the specification's shape, checked here so that metadata that lacks it is
            // refused when parsed rather than when a shard is first read.
            new CodecChain(codecs);
            new CodecChain(indexCodecs);
        }

        /** Inner chunks encoded as {@code codecs}, the index as zarr-python writes it: little-endian with a crc32c, at the end. */
        public static Sharding of(long[] innerChunkShape, List<ArrayCodec> codecs) {
            return new Sharding(innerChunkShape, codecs, List.of(new Bytes(Endian.LITTLE), new Compression(new org.tessera.io.codec.Crc32c())), true);
        }

        @Override
        public long[] innerChunkShape() {
            return innerChunkShape.clone();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Sharding that && Arrays.equals(innerChunkShape, that.innerChunkShape) && codecs.equals(that.codecs)
                    && indexCodecs.equals(that.indexCodecs) && indexAtEnd == that.indexAtEnd;
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(innerChunkShape) * 31 + codecs.hashCode();
        }

        @Override
        public String toString() {
            return "Sharding[inner=" + Arrays.toString(innerChunkShape) + ", codecs=" + codecs + ", index=" + indexCodecs + (indexAtEnd ? ", end" : ", start") + "]";
        }
    }
}

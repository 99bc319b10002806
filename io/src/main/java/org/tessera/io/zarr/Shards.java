package org.tessera.io.zarr;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

import org.tessera.io.codec.Crc32c;
import org.tessera.io.zarr.ArrayCodec.Bytes;
import org.tessera.io.zarr.ArrayCodec.Compression;
import org.tessera.io.zarr.ArrayCodec.Sharding;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * The "sharding_indexed" codec: a shard is the encoded inner chunks one after another plus an
 * index of {@code (offset, length)} uint64 pairs, one per inner chunk in C order, with both set to
 * 2^64 - 1 for an inner chunk that holds only the fill value and so was not stored.
 *
 * <p>The index must have a size known before reading it (the specification asks for that), so
 * its codecs may be "bytes" and "crc32c" only: 16 bytes per inner chunk plus 4 per checksum.
 */
final class Shards {
    private static final long EMPTY = -1L;

    private Shards() {
    }

    static byte[] encode(Sharding sharding, NDArray shard, DType dtype, FillValue fill) throws IOException {
        long[] shardShape = shard.shape();
        long[] inner = sharding.innerChunkShape();
        int[] counts = innerCounts(shardShape, inner, "shard");
        long innerChunks = GridIndex.size(counts);
        CodecChain innerChain = new CodecChain(sharding.codecs());
        long indexBytes = indexByteSize(sharding, innerChunks, "shard");
        long base = sharding.indexAtEnd() ? 0 : indexBytes;
        ByteArrayOutputStream chunks = new ByteArrayOutputStream();
        NDArray index = NDArray.zeros(DType.UINT64, withPairAxis(counts));
        int[] position = new int[counts.length];
        for (long entry = 0; entry < innerChunks; entry++, GridIndex.next(position, counts)) {
            NDArray region = shard;
            for (int axis = 0; axis < counts.length; axis++) {
                region = region.slice(axis, position[axis] * inner[axis], 1, inner[axis]);
            }
            long[] at = Arrays.copyOf(Arrays.stream(position).asLongStream().toArray(), counts.length + 1);
            if (fill.matchesEveryElement(region)) {
                at[counts.length] = 0;
                index.setLong(EMPTY, at);
                at[counts.length] = 1;
                index.setLong(EMPTY, at);
                continue;
            }
            byte[] encoded = innerChain.encode(region, dtype, fill);
            at[counts.length] = 0;
            index.setLong(base + chunks.size(), at);
            at[counts.length] = 1;
            index.setLong(encoded.length, at);
            chunks.write(encoded);
        }
        byte[] encodedIndex = new CodecChain(sharding.indexCodecs()).encode(index, DType.UINT64, FillValue.zero(DType.UINT64));
        ByteArrayOutputStream result = new ByteArrayOutputStream(chunks.size() + encodedIndex.length);
        if (!sharding.indexAtEnd()) {
            result.write(encodedIndex);
        }
        chunks.writeTo(result);
        if (sharding.indexAtEnd()) {
            result.write(encodedIndex);
        }
        return result.toByteArray();
    }

    /**
     * The region {@code [start, start + regionShape)} of a shard of {@code shardShape}, decoding only
     * the inner chunks it overlaps.
     */
    static NDArray decode(Sharding sharding, byte[] bytes, DType dtype, long[] shardShape, FillValue fill, long[] start, long[] regionShape,
                          String where) throws IOException {
        return decode(sharding, ShardBytes.of(bytes), dtype, shardShape, fill, start, regionShape, where);
    }

    /** As {@link #decode(Sharding, byte[], DType, long[], FillValue, long[], long[], String)}, reading the index and the needed inner chunks only. */
    static NDArray decode(Sharding sharding, ShardBytes bytes, DType dtype, long[] shardShape, FillValue fill, long[] start, long[] regionShape,
                          String where) throws IOException {
        long[] inner = sharding.innerChunkShape();
        int[] counts = innerCounts(shardShape, inner, where);
        long innerChunks = GridIndex.size(counts);
        int indexBytes = Math.toIntExact(indexByteSize(sharding, innerChunks, where));
        long size = bytes.size();
        if (size < indexBytes) {
            throw new ZarrFormatException(where + ": a shard of " + size + " bytes cannot hold its " + indexBytes + "-byte index");
        }
        byte[] indexPart = bytes.read(sharding.indexAtEnd() ? size - indexBytes : 0, indexBytes);
        NDArray index = new CodecChain(sharding.indexCodecs()).decode(indexPart, DType.UINT64, withPairAxis(counts), FillValue.zero(DType.UINT64),
                where + " (shard index)");
        long dataStart = sharding.indexAtEnd() ? 0 : indexBytes;
        long dataEnd = sharding.indexAtEnd() ? size - indexBytes : size;
        CodecChain innerChain = new CodecChain(sharding.codecs());

        NDArray result = fill.fill(regionShape);
        for (ChunkOverlap overlap : ChunkOverlap.of(start, regionShape, inner)) {
            long[] at = new long[counts.length + 1];
            for (int axis = 0; axis < counts.length; axis++) {
                at[axis] = overlap.chunkIndex()[axis];
            }
            long offset = index.getLong(at);
            at[counts.length] = 1;
            long length = index.getLong(at);
            if (offset == EMPTY && length == EMPTY) {
                continue;
            }
            String innerChunk = Arrays.toString(overlap.chunkIndex());
            // Written so that no sum overflows: the index is outside data and may hold any 64-bit values.
            if (offset < dataStart || length < 0 || offset > dataEnd || length > dataEnd - offset) {
                throw new ZarrFormatException(where + ": the shard index gives inner chunk " + innerChunk + " bytes [" + offset + ", " + (offset + length)
                        + "), outside the data bytes [" + dataStart + ", " + dataEnd + ")");
            }
            NDArray chunk = innerChain.decode(bytes.read(offset, Math.toIntExact(length)), dtype, inner, fill, where + " inner chunk " + innerChunk);
            overlap.inRegion(result).assign(overlap.inChunk(chunk));
        }
        return result;
    }

    private static int[] innerCounts(long[] shardShape, long[] inner, String where) throws ZarrFormatException {
        if (inner.length != shardShape.length) {
            throw new ZarrFormatException(where + ": inner chunk shape " + Arrays.toString(inner) + " has " + inner.length
                    + " axes but the shard shape " + Arrays.toString(shardShape) + " has " + shardShape.length);
        }
        int[] counts = new int[inner.length];
        for (int axis = 0; axis < inner.length; axis++) {
            if (inner[axis] < 1 || shardShape[axis] % inner[axis] != 0) {
                throw new ZarrFormatException(where + ": the shard shape " + Arrays.toString(shardShape) + " is not a multiple of the inner chunk shape "
                        + Arrays.toString(inner) + " on axis " + axis);
            }
            counts[axis] = Math.toIntExact(shardShape[axis] / inner[axis]);
        }
        return counts;
    }

    private static long[] withPairAxis(int[] counts) {
        long[] shape = new long[counts.length + 1];
        for (int axis = 0; axis < counts.length; axis++) {
            shape[axis] = counts[axis];
        }
        shape[counts.length] = 2;
        return shape;
    }

    private static long indexByteSize(Sharding sharding, long innerChunks, String where) throws ZarrFormatException {
        long size = 16 * innerChunks;
        for (ArrayCodec codec : sharding.indexCodecs()) {
            switch (codec) {
                case Bytes bytes -> {
                }
                case Compression(Crc32c crc) -> size += 4;
                default -> throw new ZarrFormatException(where + ": index codec " + codec + " is not supported: a shard index may use only"
                        + " \"bytes\" and \"crc32c\", whose output size is known before reading");
            }
        }
        return size;
    }

    /** The encoded size of the index of {@code sharding} over a shard of {@code shardShape}, for validation. */
    static long indexByteSize(Sharding sharding, long[] shardShape) throws ZarrFormatException {
        return indexByteSize(sharding, GridIndex.size(innerCounts(shardShape, sharding.innerChunkShape(), "shard")), "shard");
    }
}

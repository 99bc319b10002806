package org.tessera.io.zarr;

import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.util.List;

import org.tessera.io.zarr.ArrayCodec.Bytes;
import org.tessera.io.zarr.ArrayCodec.Compression;
import org.tessera.io.zarr.ArrayCodec.Sharding;
import org.tessera.io.zarr.ArrayCodec.Transpose;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Order;

/**
 * A Zarr v3 codec list, checked to have the specification's shape: array-to-array codecs, then
 * exactly one array-to-bytes codec, then bytes-to-bytes codecs. Encoding runs it forwards and
 * decoding backwards.
 */
public record CodecChain(List<ArrayCodec> codecs) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public CodecChain {
        codecs = List.copyOf(codecs);
        int stage = 0;
        int arrayToBytes = 0;
        for (ArrayCodec codec : codecs) {
            int codecStage = switch (codec) {
                case Transpose transpose -> 0;
                case Bytes bytes -> 1;
                case Sharding sharding -> 1;
                case Compression compression -> 2;
            };
            if (codecStage < stage || (codecStage == 1 && arrayToBytes > 0)) {
                throw new IllegalArgumentException("codecs " + codecs + " must be array-to-array codecs, then exactly one array-to-bytes codec "
                        + "(bytes or sharding_indexed), then bytes-to-bytes codecs");
            }
            arrayToBytes += codecStage == 1 ? 1 : 0;
            stage = codecStage;
        }
        if (arrayToBytes != 1) {
            throw new IllegalArgumentException("codecs " + codecs + " need exactly one array-to-bytes codec (bytes or sharding_indexed)");
        }
    }

    /** The sharding codec when the chain is sharding alone, so parts of a shard can be decoded; else null. */
    Sharding soleSharding() {
        return codecs.size() == 1 && codecs.getFirst() instanceof Sharding sharding ? sharding : null;
    }

    /** The bytes of {@code chunk}, which has the chain's chunk shape. */
    byte[] encode(NDArray chunk, DType dtype, FillValue fill) throws IOException {
        NDArray array = chunk.dtype() == dtype ? chunk : chunk.astype(dtype);
        byte[] bytes = null;
        for (ArrayCodec codec : codecs) {
            switch (codec) {
                case Transpose transpose -> array = array.transpose(transpose.order());
                case Bytes order -> bytes = ChunkBytes.encode(array, order.endian().byteOrder(), Order.C);
                case Sharding sharding -> bytes = Shards.encode(sharding, array, dtype, fill);
                case Compression compression -> bytes = compression.codec().encode(bytes, dtype.byteSize());
            }
        }
        return bytes;
    }

    /** A new array of {@code chunkShape} from the stored bytes. */
    NDArray decode(byte[] stored, DType dtype, long[] chunkShape, FillValue fill, String where) throws IOException {
        // The shape the array-to-bytes codec saw: the chunk shape permuted by each transpose.
        long[] shape = chunkShape.clone();
        int arrayToBytes = 0;
        for (ArrayCodec codec : codecs) {
            if (codec instanceof Transpose transpose) {
                shape = permute(shape, transpose.order());
            } else {
                break;
            }
            arrayToBytes++;
        }
        byte[] bytes = stored;
        for (int position = codecs.size() - 1; position > arrayToBytes; position--) {
            bytes = decodeBytes(((Compression) codecs.get(position)).codec(), bytes, where);
        }
        NDArray array = switch (codecs.get(arrayToBytes)) {
            case Bytes order -> ChunkBytes.decode(bytes, dtype, shape, order.endian().byteOrder(), Order.C, where);
            case Sharding sharding -> Shards.decode(sharding, bytes, dtype, shape, fill, new long[shape.length], shape, where);
            default -> throw new IllegalStateException("codec " + codecs.get(arrayToBytes) + " is not array-to-bytes");
        };
        for (int position = arrayToBytes - 1; position >= 0; position--) {
            array = array.transpose(inverse(((Transpose) codecs.get(position)).order())).ascontiguousarray();
        }
        return array;
    }

    /** Decodes with {@code codec}, naming the chunk when the bytes are corrupt. */
    static byte[] decodeBytes(org.tessera.io.codec.ByteCodec codec, byte[] bytes, String where) throws ZarrFormatException {
        try {
            return codec.decode(bytes);
        } catch (IOException corrupt) {
            throw new ZarrFormatException(where + ": " + corrupt.getMessage(), corrupt);
        }
    }

    /**
     * The chain with what Zarr v3 writes explicitly made explicit: Blosc's type size (the item
     * size when 0) and its shuffle (AUTO resolved as numcodecs resolves it), so that metadata read
     * back equals the metadata written.
     */
    static List<ArrayCodec> resolve(List<ArrayCodec> codecs, DType dtype) {
        List<ArrayCodec> resolved = new java.util.ArrayList<>();
        for (ArrayCodec codec : codecs) {
            resolved.add(switch (codec) {
                case Compression(org.tessera.io.codec.Blosc blosc) when blosc.typeSize() == 0 || blosc.shuffle() == org.tessera.io.codec.Blosc.Shuffle.AUTO -> {
                    int typeSize = blosc.typeSize() > 0 ? blosc.typeSize() : dtype.byteSize();
                    var shuffle = blosc.shuffle() != org.tessera.io.codec.Blosc.Shuffle.AUTO ? blosc.shuffle()
                            : typeSize == 1 ? org.tessera.io.codec.Blosc.Shuffle.BIT : org.tessera.io.codec.Blosc.Shuffle.BYTE;
                    yield new Compression(new org.tessera.io.codec.Blosc(blosc.compressorName(), blosc.level(), shuffle, typeSize, blosc.blockSize()));
                }
                case Sharding sharding -> new Sharding(sharding.innerChunkShape(), resolve(sharding.codecs(), dtype),
                        resolve(sharding.indexCodecs(), DType.UINT64), sharding.indexAtEnd());
                default -> codec;
            });
        }
        return resolved;
    }

    private static long[] permute(long[] shape, int[] order) {
        long[] permuted = new long[shape.length];
        for (int axis = 0; axis < order.length; axis++) {
            permuted[axis] = shape[order[axis]];
        }
        return permuted;
    }

    private static int[] inverse(int[] order) {
        int[] inverse = new int[order.length];
        for (int axis = 0; axis < order.length; axis++) {
            inverse[order[axis]] = axis;
        }
        return inverse;
    }
}

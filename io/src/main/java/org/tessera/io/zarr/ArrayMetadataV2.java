package org.tessera.io.zarr;

import java.io.IOException;
import java.io.Serial;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Objects;
import java.util.StringJoiner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.tessera.io.codec.Blosc;
import org.tessera.io.codec.ByteCodec;
import org.tessera.io.codec.Crc32c;
import org.tessera.io.codec.Gzip;
import org.tessera.io.codec.Zlib;
import org.tessera.io.codec.Zstd;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Order;
import org.tessera.ndarray.memory.NativeBuffers;

/**
 * The {@code .zarray} document of a Zarr v2 array. Filters are not supported (reading metadata
 * that has some is a ZarrFormatException); the compressor may be null, gzip, zlib, zstd or blosc.
 *
 * @param compressor         null for uncompressed chunks
 * @param fillValue          possibly undefined (JSON null)
 * @param order              C or F: the element order inside each chunk
 * @param dimensionSeparator "." (the default) or "/" between the positions of a chunk key
 */
public record ArrayMetadataV2(long[] shape, long[] chunkShape, DType dtype, Endian endian, ByteCodec compressor, FillValue fillValue,
                              Order order, String dimensionSeparator) implements ArrayMetadata {
    @Serial
    private static final long serialVersionUID = 1L;

    public ArrayMetadataV2 {
        shape = shape.clone();
        chunkShape = chunkShape.clone();
        ArrayMetadata.requireGrid(shape, chunkShape);
        Objects.requireNonNull(dtype);
        Objects.requireNonNull(endian);
        Objects.requireNonNull(order);
        fillValue = fillValue == null ? FillValue.none(dtype) : fillValue;
        if (fillValue.dtype() != dtype) {
            throw new IllegalArgumentException("fill value " + fillValue + " has dtype " + fillValue.dtype() + " but the array has " + dtype);
        }
        if (!dimensionSeparator.equals(".") && !dimensionSeparator.equals("/")) {
            throw new IllegalArgumentException("dimension separator must be \".\" or \"/\", got \"" + dimensionSeparator + "\"");
        }
        if (compressor instanceof Crc32c) {
            throw new IllegalArgumentException("crc32c is a Zarr v3 codec, not a v2 compressor");
        }
    }

    /**
     * zarr-python's defaults: little-endian, C order, "." separator, fill value 0, and Blosc
     * (lz4, level 5, byte shuffle) as compressor.
     */
    public static ArrayMetadataV2 of(long[] shape, long[] chunkShape, DType dtype) {
        return new ArrayMetadataV2(shape, chunkShape, dtype, Endian.LITTLE, Blosc.defaults(), FillValue.zero(dtype), Order.C, ".");
    }

    public ArrayMetadataV2 withCompressor(ByteCodec newCompressor) {
        return new ArrayMetadataV2(shape, chunkShape, dtype, endian, newCompressor, fillValue, order, dimensionSeparator);
    }

    public ArrayMetadataV2 withFillValue(FillValue newFillValue) {
        return new ArrayMetadataV2(shape, chunkShape, dtype, endian, compressor, newFillValue, order, dimensionSeparator);
    }

    public ArrayMetadataV2 withEndian(Endian newEndian) {
        return new ArrayMetadataV2(shape, chunkShape, dtype, newEndian, compressor, fillValue, order, dimensionSeparator);
    }

    public ArrayMetadataV2 withOrder(Order newOrder) {
        return new ArrayMetadataV2(shape, chunkShape, dtype, endian, compressor, fillValue, newOrder, dimensionSeparator);
    }

    public ArrayMetadataV2 withDimensionSeparator(String separator) {
        return new ArrayMetadataV2(shape, chunkShape, dtype, endian, compressor, fillValue, order, separator);
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public long[] chunkShape() {
        return chunkShape.clone();
    }

    @Override
    public int zarrFormat() {
        return 2;
    }

    @Override
    public String chunkKey(int[] chunkIndex) {
        if (chunkIndex.length == 0) {
            return "0";
        }
        StringJoiner key = new StringJoiner(dimensionSeparator);
        for (int position : chunkIndex) {
            key.add(Integer.toString(position));
        }
        return key.toString();
    }

    @Override
    public String metadataKey() {
        return ".zarray";
    }

    @Override
    public byte[] encodeChunk(NDArray chunk) throws IOException {
        byte[] raw = ChunkBytes.encode(chunk.dtype() == dtype ? chunk : chunk.astype(dtype), endian.byteOrder(), order);
        return compressor == null ? raw : compressor.encode(raw, dtype.byteSize());
    }

    /** What takes a chunk's encoded bytes, which it may use only until it returns. */
    @FunctionalInterface
    interface EncodedChunk {
        void write(MemorySegment encoded) throws IOException;
    }

    /** Whether {@link #encodeChunkInto} can encode this array's chunks: a compressor that encodes native memory into native memory. */
    boolean encodesInto() {
        return compressor != null && compressor.encodesInto();
    }

    /**
     * {@link #encodeChunk} through pooled native memory, handing the encoded bytes to {@code output}:
     * a chunk written this way allocates no chunk-sized array (through byte arrays, each chunk took
     * two: its raw bytes and the compressor's output). A chunk whose memory already holds its stored
     * bytes (of the stored dtype, contiguous in the stored order, no byte swap) is compressed from
     * there; any other is laid out in a pooled buffer first.
     */
    void encodeChunkInto(NDArray chunk, EncodedChunk output) throws IOException {
        long raw = rawChunkBytes();
        long bound = compressor.encodedBound(raw);
        try (NativeBuffers.Lease memory = NativeBuffers.lease()) {
            MemorySegment encodedBuffer = memory.segment(bound);
            MemorySegment rawBytes;
            if (chunk.dtype() == dtype && chunk.size() * dtype.byteSize() == raw && ChunkBytes.holdsBytes(chunk, endian.byteOrder(), order)) {
                rawBytes = chunk.segment().asSlice(chunk.byteOffset(), raw);
            } else {
                rawBytes = memory.segment(raw);
                ChunkBytes.encodeInto(chunk.dtype() == dtype ? chunk : chunk.astype(dtype), endian.byteOrder(), order, rawBytes);
            }
            long encoded = compressor.encodeInto(rawBytes, dtype.byteSize(), encodedBuffer);
            output.write(encodedBuffer.asSlice(0, encoded));
        }
    }

    @Override
    public NDArray decodeChunkRegion(MemorySegment bytes, long[] start, long[] regionShape, String where) throws IOException {
        if (compressor != null && compressor.decodesInto()) {
            return ArrayMetadata.regionOf(ChunkBytes.decodeInto(compressor, bytes, dtype, chunkShape, endian.byteOrder(), order, where), start, regionShape);
        }
        if (compressor != null) {
            return decodeChunkRegion(bytes.toArray(ValueLayout.JAVA_BYTE), start, regionShape, where);
        }
        if (!Arrays.equals(regionShape, chunkShape) && endian.byteOrder() == java.nio.ByteOrder.nativeOrder() && bytes.byteSize() == rawChunkBytes()) {
            return rawRegion(bytes, start, regionShape);
        }
        return ArrayMetadata.regionOf(ChunkBytes.decode(bytes, dtype, chunkShape, endian.byteOrder(), order, where), start, regionShape);
    }

    /**
     * A region of an uncompressed chunk copied straight out of its stored bytes (a mapping of the
     * chunk's file): only the region's bytes are read, where decoding the chunk would copy all of it
     * into memory first (a band of 256 rows of a 2048 x 2048 complex128 chunk: 8 MB instead of 64).
     */
    private NDArray rawRegion(MemorySegment bytes, long[] start, long[] regionShape) {
        NDArray chunk = NDArray.wrap(bytes, chunkShape, dtype, order, false);
        NDArray region = NDArray.empty(dtype, regionShape);
        region.assign(ArrayMetadata.regionOf(chunk, start, regionShape));
        return region;
    }

    /** The bytes of an uncompressed chunk; -1 when they overflow a long (the decoder then names the problem). */
    private long rawChunkBytes() {
        try {
            long bytes = dtype.byteSize();
            for (long length : chunkShape) {
                bytes = Math.multiplyExact(bytes, length);
            }
            return bytes;
        } catch (ArithmeticException overflow) {
            return -1;
        }
    }

    @Override
    public NDArray decodeChunk(byte[] bytes, String where) throws IOException {
        if (compressor != null && compressor.decodesInto()) {
            return ChunkBytes.decodeInto(compressor, MemorySegment.ofArray(bytes), dtype, chunkShape, endian.byteOrder(), order, where);
        }
        byte[] raw = compressor == null ? bytes : CodecChain.decodeBytes(compressor, bytes, where);
        return ChunkBytes.decode(raw, dtype, chunkShape, endian.byteOrder(), order, where);
    }

    /** Parses a {@code .zarray} document; {@code where} names it in messages. */
    public static ArrayMetadataV2 parse(JsonNode json, String where) throws ZarrFormatException {
        int format = ZarrJson.intField(json, "zarr_format", -1, where);
        if (format != 2) {
            throw new ZarrFormatException(where + ": zarr_format is " + format + ", expected 2");
        }
        long[] shape = ZarrJson.longArray(json, "shape", where);
        long[] chunks = ZarrJson.longArray(json, "chunks", where);
        JsonNode dtypeNode = ZarrJson.require(json, "dtype", where);
        // Structured dtypes are JSON lists; they are refused below with their JSON in the message.
        ZarrDataTypes.StoredType type = ZarrDataTypes.parseVersion2(dtypeNode.isTextual() ? dtypeNode.textValue() : dtypeNode.toString(), where);
        JsonNode filters = json.get("filters");
        if (filters != null && !filters.isNull() && !(filters.isArray() && filters.isEmpty())) {
            throw new ZarrFormatException(where + ": filters " + filters + " are not supported (only null)");
        }
        String orderText = ZarrJson.textField(json, "order", "C", where);
        Order order = switch (orderText) {
            case "C" -> Order.C;
            case "F" -> Order.F;
            default -> throw new ZarrFormatException(where + ": order must be \"C\" or \"F\", got \"" + orderText + "\"");
        };
        String separator = ZarrJson.textField(json, "dimension_separator", ".", where);
        ByteCodec compressor = parseCompressor(json.get("compressor"), where);
        FillValue fill = FillValue.parse(json.get("fill_value"), type.dtype(), where);
        try {
            return new ArrayMetadataV2(shape, chunks, type.dtype(), Endian.of(type.byteOrder()), compressor, fill, order, separator);
        } catch (IllegalArgumentException invalid) {
            throw new ZarrFormatException(where + ": " + invalid.getMessage(), invalid);
        }
    }

    private static ByteCodec parseCompressor(JsonNode node, String where) throws ZarrFormatException {
        if (node == null || node.isNull()) {
            return null;
        }
        String id = ZarrJson.textField(node, "id", "", where);
        try {
            return switch (id) {
                case "gzip" -> new Gzip(ZarrJson.intField(node, "level", 1, where));
                case "zlib" -> new Zlib(ZarrJson.intField(node, "level", 1, where));
                case "zstd" -> new Zstd(ZarrJson.intField(node, "level", 1, where), node.path("checksum").asBoolean(false));
                case "blosc" -> new Blosc(ZarrJson.textField(node, "cname", "lz4", where), ZarrJson.intField(node, "clevel", 5, where),
                        Blosc.Shuffle.fromCode(ZarrJson.intField(node, "shuffle", 1, where)), 0, ZarrJson.intField(node, "blocksize", 0, where));
                default -> throw new ZarrFormatException(where + ": compressor \"" + id + "\" is not supported (expected null, gzip, zlib, zstd or blosc): " + node);
            };
        } catch (IllegalArgumentException invalid) {
            throw new ZarrFormatException(where + ": " + invalid.getMessage(), invalid);
        }
    }

    /** The {@code .zarray} document as zarr-python writes it. */
    public JsonNode toJson() {
        ObjectNode json = ZarrJson.object();
        json.set("chunks", ZarrJson.longArrayNode(chunkShape));
        json.set("compressor", compressorJson());
        json.put("dimension_separator", dimensionSeparator);
        json.put("dtype", ZarrDataTypes.version2Name(dtype, endian.byteOrder()));
        json.set("fill_value", fillValue.toJson());
        json.putNull("filters");
        json.put("order", order == Order.F ? "F" : "C");
        json.set("shape", ZarrJson.longArrayNode(shape));
        json.put("zarr_format", 2);
        return json;
    }

    private JsonNode compressorJson() {
        ObjectNode json = ZarrJson.object();
        switch (compressor) {
            case null -> {
                return ZarrJson.MAPPER.nullNode();
            }
            case Gzip gzip -> json.put("id", "gzip").put("level", gzip.level());
            case Zlib zlib -> json.put("id", "zlib").put("level", zlib.level());
            case Zstd zstd -> {
                json.put("id", "zstd").put("level", zstd.level());
                // Written only when set: numcodecs before 0.13 refuses a "checksum" argument.
                if (zstd.checksum()) {
                    json.put("checksum", true);
                }
            }
            case Blosc blosc -> json.put("id", "blosc").put("cname", blosc.compressorName()).put("clevel", blosc.level())
                    .put("shuffle", blosc.shuffle().code()).put("blocksize", blosc.blockSize());
            case Crc32c crc -> throw new IllegalStateException("crc32c is not a v2 compressor");
        }
        return json;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ArrayMetadataV2 that && Arrays.equals(shape, that.shape) && Arrays.equals(chunkShape, that.chunkShape)
                && dtype == that.dtype && endian == that.endian && Objects.equals(compressor, that.compressor) && fillValue.equals(that.fillValue)
                && order == that.order && dimensionSeparator.equals(that.dimensionSeparator);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(shape), Arrays.hashCode(chunkShape), dtype, endian, compressor, fillValue, order, dimensionSeparator);
    }

    @Override
    public String toString() {
        return "ArrayMetadataV2[shape=" + Arrays.toString(shape) + ", chunks=" + Arrays.toString(chunkShape) + ", dtype="
                + ZarrDataTypes.version2Name(dtype, endian.byteOrder()) + ", compressor=" + compressor + ", fill=" + fillValue
                + ", order=" + order + ", separator=\"" + dimensionSeparator + "\"]";
    }
}

package org.tessera.io.zarr;

import java.io.IOException;
import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.tessera.io.codec.ByteCodec;
import org.tessera.io.zarr.ArrayCodec.Bytes;
import org.tessera.io.zarr.ArrayCodec.Compression;
import org.tessera.io.zarr.ArrayCodec.Sharding;
import org.tessera.io.zarr.ArrayCodec.Transpose;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * The array part of a Zarr v3 {@code zarr.json}: a regular chunk grid, a data type name, a chunk
 * key encoding, a fill value that is always defined, and a codec list (see {@link CodecChain}).
 * Attributes live in the same document but are kept by {@link ZarrArray}.
 *
 * @param dimensionNames one name (or null) per axis, or null when the document has none
 */
public record ArrayMetadataV3(long[] shape, long[] chunkShape, DType dtype, ChunkKeyEncoding chunkKeyEncoding, FillValue fillValue,
                              CodecChain codecs, List<String> dimensionNames) implements ArrayMetadata {
    @Serial
    private static final long serialVersionUID = 1L;

    public ArrayMetadataV3 {
        shape = shape.clone();
        chunkShape = chunkShape.clone();
        ArrayMetadata.requireGrid(shape, chunkShape);
        Objects.requireNonNull(dtype);
        Objects.requireNonNull(chunkKeyEncoding);
        codecs = new CodecChain(CodecChain.resolve(codecs.codecs(), dtype));
        fillValue = fillValue == null || !fillValue.isDefined() ? FillValue.zero(dtype) : fillValue;
        if (fillValue.dtype() != dtype) {
            throw new IllegalArgumentException("fill value " + fillValue + " has dtype " + fillValue.dtype() + " but the array has " + dtype);
        }
        dimensionNames = dimensionNames == null ? null : java.util.Collections.unmodifiableList(new ArrayList<>(dimensionNames));
        if (dimensionNames != null && dimensionNames.size() != shape.length) {
            throw new IllegalArgumentException("dimension names " + dimensionNames + " must have one entry per axis of shape " + Arrays.toString(shape));
        }
        requireCodecsFit(codecs.codecs(), chunkShape);
    }

    private static void requireCodecsFit(List<ArrayCodec> codecs, long[] chunkShape) {
        long[] shape = chunkShape;
        for (ArrayCodec codec : codecs) {
            if (codec instanceof Transpose transpose) {
                if (transpose.order().length != shape.length) {
                    throw new IllegalArgumentException("transpose order " + Arrays.toString(transpose.order()) + " does not fit chunks of "
                            + shape.length + " axes");
                }
                long[] permuted = new long[shape.length];
                for (int axis = 0; axis < shape.length; axis++) {
                    permuted[axis] = shape[transpose.order()[axis]];
                }
                shape = permuted;
            } else if (codec instanceof Sharding sharding) {
                long[] inner = sharding.innerChunkShape();
                if (inner.length != shape.length) {
                    throw new IllegalArgumentException("inner chunk shape " + Arrays.toString(inner) + " does not fit shards of shape " + Arrays.toString(shape));
                }
                for (int axis = 0; axis < inner.length; axis++) {
                    if (inner[axis] < 1 || shape[axis] % inner[axis] != 0) {
                        throw new IllegalArgumentException("the shard shape " + Arrays.toString(shape) + " is not a multiple of the inner chunk shape "
                                + Arrays.toString(inner) + " on axis " + axis);
                    }
                }
                requireCodecsFit(sharding.codecs(), inner);
            }
        }
    }

    /** Chunks of {@code chunkShape} stored as little-endian bytes and compressed by {@code compressors} (none for raw bytes). */
    public static ArrayMetadataV3 of(long[] shape, long[] chunkShape, DType dtype, ByteCodec... compressors) {
        List<ArrayCodec> codecs = new ArrayList<>();
        codecs.add(new Bytes(Endian.LITTLE));
        for (ByteCodec compressor : compressors) {
            codecs.add(new Compression(compressor));
        }
        return new ArrayMetadataV3(shape, chunkShape, dtype, ChunkKeyEncoding.defaultEncoding(), FillValue.zero(dtype), new CodecChain(codecs), null);
    }

    /**
     * Shards of {@code shardShape} holding inner chunks of {@code innerChunkShape}, each stored as
     * little-endian bytes compressed by {@code compressors}, with zarr-python's default index.
     */
    public static ArrayMetadataV3 sharded(long[] shape, long[] shardShape, long[] innerChunkShape, DType dtype, ByteCodec... compressors) {
        List<ArrayCodec> inner = new ArrayList<>();
        inner.add(new Bytes(Endian.LITTLE));
        for (ByteCodec compressor : compressors) {
            inner.add(new Compression(compressor));
        }
        return new ArrayMetadataV3(shape, shardShape, dtype, ChunkKeyEncoding.defaultEncoding(), FillValue.zero(dtype),
                new CodecChain(List.of(Sharding.of(innerChunkShape, inner))), null);
    }

    public ArrayMetadataV3 withFillValue(FillValue newFillValue) {
        return new ArrayMetadataV3(shape, chunkShape, dtype, chunkKeyEncoding, newFillValue, codecs, dimensionNames);
    }

    public ArrayMetadataV3 withCodecs(List<ArrayCodec> newCodecs) {
        return new ArrayMetadataV3(shape, chunkShape, dtype, chunkKeyEncoding, fillValue, new CodecChain(newCodecs), dimensionNames);
    }

    public ArrayMetadataV3 withChunkKeyEncoding(ChunkKeyEncoding encoding) {
        return new ArrayMetadataV3(shape, chunkShape, dtype, encoding, fillValue, codecs, dimensionNames);
    }

    public ArrayMetadataV3 withDimensionNames(List<String> names) {
        return new ArrayMetadataV3(shape, chunkShape, dtype, chunkKeyEncoding, fillValue, codecs, names);
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
        return 3;
    }

    @Override
    public String chunkKey(int[] chunkIndex) {
        return chunkKeyEncoding.key(chunkIndex);
    }

    @Override
    public String metadataKey() {
        return "zarr.json";
    }

    @Override
    public byte[] encodeChunk(NDArray chunk) throws IOException {
        return codecs.encode(chunk, dtype, fillValue);
    }

    @Override
    public NDArray decodeChunk(byte[] bytes, String where) throws IOException {
        return codecs.decode(bytes, dtype, chunkShape, fillValue, where);
    }

    @Override
    public NDArray decodeChunkRegion(byte[] bytes, long[] start, long[] regionShape, String where) throws IOException {
        Sharding sharding = codecs.soleSharding();
        if (sharding == null) {
            return ArrayMetadata.super.decodeChunkRegion(bytes, start, regionShape, where);
        }
        return Shards.decode(sharding, bytes, dtype, chunkShape, fillValue, start, regionShape, where);
    }

    /**
     * The region of a shard read by ranges (index, then the inner chunks it needs), or null when
     * the codecs are not sharding alone and the chunk must be read whole.
     */
    NDArray readShardRegion(ShardBytes bytes, long[] start, long[] regionShape, String where) throws IOException {
        Sharding sharding = codecs.soleSharding();
        return sharding == null ? null : Shards.decode(sharding, bytes, dtype, chunkShape, fillValue, start, regionShape, where);
    }

    /** Parses the array document {@code json} (node_type "array"); {@code where} names it in messages. */
    public static ArrayMetadataV3 parse(JsonNode json, String where) throws ZarrFormatException {
        int format = ZarrJson.intField(json, "zarr_format", -1, where);
        if (format != 3) {
            throw new ZarrFormatException(where + ": zarr_format is " + format + ", expected 3");
        }
        String nodeType = ZarrJson.textField(json, "node_type", "", where);
        if (!nodeType.equals("array")) {
            throw new ZarrFormatException(where + ": node_type is \"" + nodeType + "\", expected \"array\"");
        }
        JsonNode transformers = json.get("storage_transformers");
        if (transformers != null && !(transformers.isArray() && transformers.isEmpty())) {
            throw new ZarrFormatException(where + ": storage transformers " + transformers + " are not supported");
        }
        long[] shape = ZarrJson.longArray(json, "shape", where);
        DType dtype = ZarrDataTypes.parseVersion3(ZarrJson.require(json, "data_type", where).asText(), where);
        JsonNode grid = ZarrJson.require(json, "chunk_grid", where);
        if (!"regular".equals(grid.path("name").asText())) {
            throw new ZarrFormatException(where + ": chunk grid " + grid + " is not supported (only \"regular\")");
        }
        long[] chunkShape = ZarrJson.longArray(grid.path("configuration"), "chunk_shape", where);
        JsonNode encodingNode = json.get("chunk_key_encoding");
        ChunkKeyEncoding encoding = ChunkKeyEncoding.defaultEncoding();
        if (encodingNode != null) {
            String name = encodingNode.path("name").asText("default");
            String separator = encodingNode.path("configuration").path("separator").asText(name.equals("v2") ? "." : "/");
            if (!name.equals("default") && !name.equals("v2")) {
                throw new ZarrFormatException(where + ": chunk key encoding \"" + name + "\" is not supported (expected \"default\" or \"v2\")");
            }
            try {
                encoding = new ChunkKeyEncoding(name.equals("default"), separator);
            } catch (IllegalArgumentException invalid) {
                throw new ZarrFormatException(where + ": " + invalid.getMessage(), invalid);
            }
        }
        FillValue fill = FillValue.parse(ZarrJson.require(json, "fill_value", where), dtype, where);
        List<ArrayCodec> codecs = CodecsJson.parse(ZarrJson.require(json, "codecs", where), dtype, where);
        List<String> names = null;
        JsonNode namesNode = json.get("dimension_names");
        if (namesNode != null && namesNode.isArray()) {
            names = new ArrayList<>();
            for (JsonNode name : namesNode) {
                names.add(name.isNull() ? null : name.asText());
            }
        }
        try {
            return new ArrayMetadataV3(shape, chunkShape, dtype, encoding, fill, new CodecChain(codecs), names);
        } catch (IllegalArgumentException invalid) {
            throw new ZarrFormatException(where + ": " + invalid.getMessage(), invalid);
        }
    }

    /** The whole {@code zarr.json} document, attributes included. */
    public JsonNode toJson(Map<String, ?> attributes) {
        ObjectNode json = ZarrJson.object();
        json.put("zarr_format", 3);
        json.put("node_type", "array");
        json.set("shape", ZarrJson.longArrayNode(shape));
        json.put("data_type", ZarrDataTypes.version3Name(dtype));
        ObjectNode grid = json.putObject("chunk_grid");
        grid.put("name", "regular");
        grid.putObject("configuration").set("chunk_shape", ZarrJson.longArrayNode(chunkShape));
        ObjectNode encoding = json.putObject("chunk_key_encoding");
        encoding.put("name", chunkKeyEncoding.isDefault() ? "default" : "v2");
        encoding.putObject("configuration").put("separator", chunkKeyEncoding.separator());
        json.set("fill_value", fillValue.toJson());
        json.set("codecs", CodecsJson.write(codecs.codecs(), dtype));
        json.set("attributes", ZarrJson.fromMap(attributes));
        if (dimensionNames != null) {
            ArrayNode names = json.putArray("dimension_names");
            dimensionNames.forEach(names::add);
        }
        json.putArray("storage_transformers");
        return json;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ArrayMetadataV3 that && Arrays.equals(shape, that.shape) && Arrays.equals(chunkShape, that.chunkShape)
                && dtype == that.dtype && chunkKeyEncoding.equals(that.chunkKeyEncoding) && fillValue.equals(that.fillValue)
                && codecs.equals(that.codecs) && Objects.equals(dimensionNames, that.dimensionNames);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(shape), Arrays.hashCode(chunkShape), dtype, chunkKeyEncoding, fillValue, codecs);
    }

    @Override
    public String toString() {
        return "ArrayMetadataV3[shape=" + Arrays.toString(shape) + ", chunks=" + Arrays.toString(chunkShape) + ", dtype=" + dtype
                + ", fill=" + fillValue + ", codecs=" + codecs.codecs() + ", keys=" + chunkKeyEncoding + "]";
    }
}

package org.tessera.io.zarr;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.tessera.io.codec.Blosc;
import org.tessera.io.codec.ByteCodec;
import org.tessera.io.codec.Crc32c;
import org.tessera.io.codec.Gzip;
import org.tessera.io.codec.Zlib;
import org.tessera.io.codec.Zstd;
import org.tessera.io.zarr.ArrayCodec.Bytes;
import org.tessera.io.zarr.ArrayCodec.Compression;
import org.tessera.io.zarr.ArrayCodec.Sharding;
import org.tessera.io.zarr.ArrayCodec.Transpose;
import org.tessera.ndarray.dtype.DType;

/** Zarr v3 codec lists to and from JSON: {@code {"name": ..., "configuration": {...}}} per codec. */
final class CodecsJson {
    private CodecsJson() {
    }

    static List<ArrayCodec> parse(JsonNode list, DType dtype, String where) throws ZarrFormatException {
        if (list == null || !list.isArray()) {
            throw new ZarrFormatException(where + ": \"codecs\" must be a list, got " + list);
        }
        List<ArrayCodec> codecs = new ArrayList<>();
        for (JsonNode entry : list) {
            codecs.add(parseOne(entry, dtype, where));
        }
        return codecs;
    }

    private static ArrayCodec parseOne(JsonNode entry, DType dtype, String where) throws ZarrFormatException {
        String name = entry.isTextual() ? entry.textValue() : ZarrJson.textField(entry, "name", "", where);
        JsonNode configuration = entry.path("configuration");
        try {
            return switch (name) {
                case "bytes", "endian" -> new Bytes(parseEndian(ZarrJson.textField(configuration, "endian", "little", where), where));
                case "transpose" -> new Transpose(parseOrder(configuration.get("order"), where));
                case "gzip" -> new Compression(new Gzip(ZarrJson.intField(configuration, "level", 5, where)));
                case "zstd" -> new Compression(new Zstd(ZarrJson.intField(configuration, "level", 0, where), configuration.path("checksum").asBoolean(false)));
                case "crc32c" -> new Compression(new Crc32c());
                case "blosc" -> new Compression(new Blosc(ZarrJson.textField(configuration, "cname", "zstd", where),
                        ZarrJson.intField(configuration, "clevel", 5, where), parseShuffle(configuration.get("shuffle"), where),
                        ZarrJson.intField(configuration, "typesize", dtype.byteSize(), where), ZarrJson.intField(configuration, "blocksize", 0, where)));
                case "sharding_indexed" -> new Sharding(ZarrJson.longArray(configuration, "chunk_shape", where),
                        parse(ZarrJson.require(configuration, "codecs", where), dtype, where),
                        parse(configuration.has("index_codecs") ? configuration.get("index_codecs") : defaultIndexCodecs(), DType.UINT64, where),
                        !"start".equals(ZarrJson.textField(configuration, "index_location", "end", where)));
                default -> throw new ZarrFormatException(where + ": codec \"" + name + "\" is not supported (Tessera reads bytes, transpose, gzip, zstd, "
                        + "blosc, crc32c and sharding_indexed)");
            };
        } catch (IllegalArgumentException invalid) {
            throw new ZarrFormatException(where + ": codec " + entry + ": " + invalid.getMessage(), invalid);
        }
    }

    private static JsonNode defaultIndexCodecs() {
        ArrayNode codecs = ZarrJson.MAPPER.createArrayNode();
        codecs.addObject().put("name", "bytes").putObject("configuration").put("endian", "little");
        codecs.addObject().put("name", "crc32c");
        return codecs;
    }

    private static Endian parseEndian(String text, String where) throws ZarrFormatException {
        return switch (text) {
            case "little" -> Endian.LITTLE;
            case "big" -> Endian.BIG;
            default -> throw new ZarrFormatException(where + ": endian must be \"little\" or \"big\", got \"" + text + "\"");
        };
    }

    private static int[] parseOrder(JsonNode order, String where) throws ZarrFormatException {
        if (order == null || !order.isArray()) {
            throw new ZarrFormatException(where + ": transpose needs an \"order\" list of axes, got " + order);
        }
        int[] axes = new int[order.size()];
        for (int position = 0; position < axes.length; position++) {
            axes[position] = order.get(position).asInt(-1);
        }
        return axes;
    }

    private static Blosc.Shuffle parseShuffle(JsonNode shuffle, String where) throws ZarrFormatException {
        if (shuffle == null || shuffle.isNull()) {
            return Blosc.Shuffle.NONE;
        }
        if (shuffle.isIntegralNumber()) {
            return Blosc.Shuffle.fromCode(shuffle.intValue());
        }
        return switch (shuffle.asText().toLowerCase(Locale.ROOT)) {
            case "noshuffle" -> Blosc.Shuffle.NONE;
            case "shuffle" -> Blosc.Shuffle.BYTE;
            case "bitshuffle" -> Blosc.Shuffle.BIT;
            default -> throw new ZarrFormatException(where + ": blosc shuffle must be \"noshuffle\", \"shuffle\" or \"bitshuffle\", got " + shuffle);
        };
    }

    static ArrayNode write(List<ArrayCodec> codecs, DType dtype) {
        ArrayNode list = ZarrJson.MAPPER.createArrayNode();
        for (ArrayCodec codec : codecs) {
            ObjectNode entry = list.addObject();
            switch (codec) {
                case Bytes bytes -> entry.put("name", "bytes").putObject("configuration").put("endian", bytes.endian() == Endian.BIG ? "big" : "little");
                case Transpose transpose -> {
                    ArrayNode order = entry.put("name", "transpose").putObject("configuration").putArray("order");
                    for (int axis : transpose.order()) {
                        order.add(axis);
                    }
                }
                case Sharding sharding -> {
                    ObjectNode configuration = entry.put("name", "sharding_indexed").putObject("configuration");
                    configuration.set("chunk_shape", ZarrJson.longArrayNode(sharding.innerChunkShape()));
                    configuration.set("codecs", write(sharding.codecs(), dtype));
                    configuration.set("index_codecs", write(sharding.indexCodecs(), DType.UINT64));
                    configuration.put("index_location", sharding.indexAtEnd() ? "end" : "start");
                }
                case Compression compression -> writeCompression(entry, compression.codec(), dtype);
            }
        }
        return list;
    }

    private static void writeCompression(ObjectNode entry, ByteCodec codec, DType dtype) {
        switch (codec) {
            case Gzip gzip -> entry.put("name", "gzip").putObject("configuration").put("level", gzip.level());
            case Zstd zstd -> entry.put("name", "zstd").putObject("configuration").put("level", zstd.level()).put("checksum", zstd.checksum());
            case Crc32c crc -> entry.put("name", "crc32c");
            case Blosc blosc -> {
                Blosc.Shuffle shuffle = blosc.shuffle() == Blosc.Shuffle.AUTO ? (dtype.byteSize() == 1 ? Blosc.Shuffle.BIT : Blosc.Shuffle.BYTE) : blosc.shuffle();
                entry.put("name", "blosc").putObject("configuration").put("cname", blosc.compressorName()).put("clevel", blosc.level())
                        .put("shuffle", switch (shuffle) {
                            case NONE -> "noshuffle";
                            case BIT -> "bitshuffle";
                            default -> "shuffle";
                        })
                        .put("typesize", blosc.typeSize() > 0 ? blosc.typeSize() : dtype.byteSize()).put("blocksize", blosc.blockSize());
            }
            case Zlib zlib -> throw new IllegalArgumentException("zlib is not a Zarr v3 codec (use gzip)");
        }
    }
}

package org.tessera.io.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import com.code_intelligence.jazzer.junit.FuzzTest;

import org.junit.jupiter.api.Test;
import org.tessera.io.Hostile;

/**
 * Each codec's decode of a hostile frame: the bytes of a chunk as a store hands them over. Corrupt
 * input must be an IOException naming the codec (the chunk reader adds the key), never another
 * exception, a crash of the native library, or an allocation of a size that only a header claims.
 * Seeds in {@code CodecFuzzTestInputs/<method>/} are chunks that numcodecs wrote.
 */
class CodecFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void blosc(byte[] frame) {
        Hostile.read(() -> Blosc.defaults().decode(frame), "blosc");
    }

    @FuzzTest(maxDuration = "60s")
    void zstd(byte[] frame) {
        Hostile.read(() -> new Zstd(3, false).decode(frame), "zstd");
    }

    @FuzzTest(maxDuration = "60s")
    void gzip(byte[] frame) {
        Hostile.read(() -> new Gzip(5).decode(frame), "gzip");
    }

    @FuzzTest(maxDuration = "60s")
    void zlib(byte[] frame) {
        Hostile.read(() -> new Zlib(5).decode(frame), "zlib");
    }

    @FuzzTest(maxDuration = "60s")
    void crc32c(byte[] frame) {
        Hostile.read(() -> new Crc32c().decode(frame), "crc32c");
    }

    /** The seeds are valid frames: each decodes, and re-encoding the result decodes to the same bytes. */
    @Test
    void seedsDecode() throws Exception {
        Map<String, ByteCodec> codecs = Map.of("blosc", Blosc.defaults(), "zstd", new Zstd(3, false), "gzip", new Gzip(5),
                "zlib", new Zlib(5), "crc32c", new Crc32c());
        for (Map.Entry<String, ByteCodec> codec : codecs.entrySet()) {
            for (Path seed : Hostile.seeds(CodecFuzzTest.class, codec.getKey())) {
                byte[] decoded = codec.getValue().decode(Files.readAllBytes(seed));
                assertEquals(java.util.HexFormat.of().formatHex(decoded),
                        java.util.HexFormat.of().formatHex(codec.getValue().decode(codec.getValue().encode(decoded, 4))), seed.toString());
            }
        }
    }
}

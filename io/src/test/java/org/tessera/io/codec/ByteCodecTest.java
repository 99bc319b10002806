package org.tessera.io.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ByteCodecTest {
    static List<ByteCodec> codecs() {
        return List.of(new Gzip(0), new Gzip(9), new Zlib(1), new Zlib(9), new Zstd(1, false), new Zstd(19, true), new Zstd(-5, false),
                new Crc32c(),
                new Blosc("lz4", 5, Blosc.Shuffle.BYTE, 0, 0), new Blosc("lz4hc", 9, Blosc.Shuffle.BIT, 0, 0),
                new Blosc("blosclz", 1, Blosc.Shuffle.NONE, 0, 0), new Blosc("zstd", 3, Blosc.Shuffle.AUTO, 0, 0),
                new Blosc("zlib", 5, Blosc.Shuffle.BYTE, 4, 256));
    }

    static Stream<Arguments> codecsAndSizes() {
        return codecs().stream().flatMap(codec -> Stream.of(0, 1, 7, 8, 9, 1000, 100_003).flatMap(size ->
                Stream.of(1, 2, 8).map(itemSize -> Arguments.of(codec, size, itemSize))));
    }

    @ParameterizedTest(name = "{0} {1} bytes, items of {2}")
    @MethodSource("codecsAndSizes")
    void decodeInvertsEncode(ByteCodec codec, int size, int itemSize) throws IOException {
        byte[] data = new byte[size];
        SplittableRandom random = new SplittableRandom(size);
        for (int position = 0; position < size; position++) {
            // Smooth data with some noise, as array chunks are, so compressors find structure.
            data[position] = (byte) (position / 64 + (random.nextInt(8) == 0 ? random.nextInt(256) : 0));
        }
        assertArrayEquals(data, codec.decode(codec.encode(data, itemSize)));
    }

    static Stream<ByteCodec> compressors() {
        return codecs().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("compressors")
    void corruptInputIsAnIOExceptionNamingTheCodec(ByteCodec codec) throws IOException {
        byte[] encoded = codec.encode(new byte[4096], 8);
        byte[] corrupt = encoded.clone();
        for (int position = 0; position < corrupt.length; position++) {
            corrupt[position] ^= (byte) 0x5a;
        }
        String name = codec.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
        try {
            byte[] decoded = codec.decode(corrupt);
            // A format without a checksum may decode garbage to garbage; it must not return the original.
            assertTrue(!java.util.Arrays.equals(decoded, new byte[4096]), name);
        } catch (IOException error) {
            assertTrue(error.getMessage().startsWith(name), error.getMessage());
        }
    }

    @ParameterizedTest(name = "level {0}")
    @MethodSource("invalidLevels")
    void levelsOutsideTheirRangeAreRefused(int level) {
        assertThrows(IllegalArgumentException.class, () -> new Gzip(level));
        assertThrows(IllegalArgumentException.class, () -> new Blosc("lz4", level, Blosc.Shuffle.BYTE, 0, 0));
    }

    static Stream<Integer> invalidLevels() {
        return Stream.of(-1, 10);
    }

    /** The JNI decoder, as the direct one, reads the frame its header states and ignores what z5 stores after it. */
    @org.junit.jupiter.api.Test
    void bloscIgnoresBytesAfterTheFrame() throws IOException {
        byte[] data = new byte[30_000];
        for (int position = 0; position < data.length; position++) {
            data[position] = (byte) (position / 97);
        }
        byte[] frame = Blosc.defaults().encode(data, 8);
        byte[] padded = java.util.Arrays.copyOf(frame, frame.length + 16);
        assertArrayEquals(data, Blosc.defaults().decode(padded));
        IOException truncated = assertThrows(IOException.class, () -> Blosc.defaults().decode(java.util.Arrays.copyOf(frame, frame.length - 3)));
        assertTrue(truncated.getMessage().endsWith("only " + (frame.length - 3) + " bytes are stored (truncated)"), truncated.getMessage());
    }
}

package org.tessera.io.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Blosc frames decoded by the system c-blosc straight into memory ({@link BloscLibrary}) give the
 * bytes the JNI library gives, into heap and native memory, in one call or in several pieces; bad frames
 * are IOExceptions, and bytes after a frame are ignored.
 */
class BloscIntoMemoryTest {
    @BeforeEach
    void needsTheSystemLibrary() {
        assumeTrue(Blosc.defaults().decodesInto(), "no system c-blosc here (apt-get install libblosc1)");
    }

    /** Smooth doubles with some noise, as array chunks are. */
    private static byte[] data(int size) {
        byte[] data = new byte[size];
        SplittableRandom random = new SplittableRandom(size);
        MemorySegment bytes = MemorySegment.ofArray(data);
        for (long offset = 0; offset + 8 <= size; offset += 8) {
            bytes.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, offset, Math.sin(offset / 1e4) + (random.nextInt(4) == 0 ? random.nextDouble() : 0));
        }
        return data;
    }

    static Stream<Arguments> framesAndSizes() {
        return Stream.of(new Blosc("lz4", 5, Blosc.Shuffle.BYTE, 0, 0), new Blosc("lz4hc", 9, Blosc.Shuffle.BIT, 0, 0),
                new Blosc("blosclz", 1, Blosc.Shuffle.NONE, 0, 0), new Blosc("zstd", 3, Blosc.Shuffle.AUTO, 0, 0),
                new Blosc("zlib", 5, Blosc.Shuffle.BYTE, 4, 256), new Blosc("lz4", 0, Blosc.Shuffle.NONE, 0, 0))
                .flatMap(codec -> Stream.of(8L, 1000L, 100_000L, 12L << 20).map(size -> Arguments.of(codec, size)));
    }

    /** Frames above the size decoded in one call, in pieces: the fast codecs only, as they are large. */
    static Stream<Arguments> framesDecodedInPieces() {
        long size = BloscLibrary.WHOLE_FRAME_BYTES + 3 * BloscLibrary.PIECE_BYTES + 24;
        return Stream.of(Arguments.of(Blosc.defaults(), size), Arguments.of(new Blosc("lz4", 0, Blosc.Shuffle.NONE, 0, 0), size));
    }

    @ParameterizedTest(name = "{0} {1} bytes")
    @MethodSource({"framesAndSizes", "framesDecodedInPieces"})
    void decodingIntoMemoryGivesTheBytesOfTheJniLibrary(Blosc codec, long byteCount) throws IOException {
        int size = (int) byteCount;
        byte[] data = data(size);
        byte[] frame = codec.encode(data, 8);
        byte[] heap = new byte[size];
        codec.decodeInto(MemorySegment.ofArray(frame), MemorySegment.ofArray(heap));
        assertArrayEquals(codec.decode(frame), heap);
        assertArrayEquals(data, heap);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeFrame = arena.allocate(frame.length);
            nativeFrame.copyFrom(MemorySegment.ofArray(frame));
            MemorySegment target = arena.allocate(size);
            codec.decodeInto(nativeFrame, target);
            assertArrayEquals(data, target.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /** z5 writes its whole output buffer after the frame; the header decides the frame's length. */
    @Test
    void bytesAfterTheFrameAreIgnored() throws IOException {
        byte[] data = data(40_000);
        byte[] frame = Blosc.defaults().encode(data, 8);
        byte[] padded = Arrays.copyOf(frame, frame.length + 5_000);
        Arrays.fill(padded, frame.length, padded.length, (byte) 0x7f);
        byte[] decoded = new byte[data.length];
        Blosc.defaults().decodeInto(MemorySegment.ofArray(padded), MemorySegment.ofArray(decoded));
        assertArrayEquals(data, decoded);
    }

    @Test
    void badFramesAreIOExceptionsNamingBlosc() throws IOException {
        byte[] data = data(40_000);
        byte[] frame = Blosc.defaults().encode(data, 8);
        MemorySegment target = MemorySegment.ofArray(new byte[data.length]);

        IOException truncated = assertThrows(IOException.class,
                () -> Blosc.defaults().decodeInto(MemorySegment.ofArray(Arrays.copyOf(frame, frame.length - 1)), target));
        assertEquals("blosc: the header states a frame of " + frame.length + " bytes, but only " + (frame.length - 1) + " bytes are stored (truncated)",
                truncated.getMessage());

        IOException tooShort = assertThrows(IOException.class, () -> Blosc.defaults().decodeInto(MemorySegment.ofArray(new byte[9]), target));
        assertEquals("blosc: 9 bytes are too few for the 16-byte Blosc header", tooShort.getMessage());

        IOException wrongSize = assertThrows(IOException.class,
                () -> Blosc.defaults().decodeInto(MemorySegment.ofArray(frame), MemorySegment.ofArray(new byte[data.length - 8])));
        assertEquals("blosc: the frame decodes to 40000 bytes, but the chunk holds 39992", wrongSize.getMessage());

        byte[] huge = frame.clone();
        MemorySegment.ofArray(huge).set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 4, Integer.MAX_VALUE);
        IOException claimsTooMuch = assertThrows(IOException.class, () -> Blosc.defaults().decodeInto(MemorySegment.ofArray(huge), target));
        assertTrue(claimsTooMuch.getMessage().startsWith("blosc: "), claimsTooMuch.getMessage());

        byte[] scrambled = frame.clone();
        for (int position = 16; position < scrambled.length; position++) {
            scrambled[position] ^= (byte) 0x5a;
        }
        byte[] decoded = new byte[data.length];
        try {
            Blosc.defaults().decodeInto(MemorySegment.ofArray(scrambled), MemorySegment.ofArray(decoded));
            assertTrue(!Arrays.equals(decoded, data), "a scrambled frame cannot give back the data");
        } catch (IOException corrupt) {
            assertTrue(corrupt.getMessage().startsWith("blosc: "), corrupt.getMessage());
        }
    }

    /**
     * A chunk is compressed from wherever its bytes are: from a heap array as from native memory,
     * into the same frame the JNI library decodes; the frame goes to native memory only.
     */
    @ParameterizedTest(name = "{0} {1} bytes")
    @MethodSource("framesAndSizes")
    void encodingFromTheHeapGivesTheFrameOfNativeMemory(Blosc codec, long byteCount) throws IOException {
        assumeTrue(codec.encodesInto(), "this c-blosc has no blosc_compress_ctx");
        byte[] data = data((int) byteCount);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeData = arena.allocate(data.length, 64);
            MemorySegment.copy(MemorySegment.ofArray(data), 0, nativeData, 0, data.length);
            MemorySegment fromNative = arena.allocate(codec.encodedBound(data.length));
            MemorySegment fromHeap = arena.allocate(codec.encodedBound(data.length));
            long nativeLength = codec.encodeInto(nativeData, 8, fromNative);
            long heapLength = codec.encodeInto(MemorySegment.ofArray(data), 8, fromHeap);
            byte[] frame = fromHeap.asSlice(0, heapLength).toArray(ValueLayout.JAVA_BYTE);
            assertArrayEquals(fromNative.asSlice(0, nativeLength).toArray(ValueLayout.JAVA_BYTE), frame);
            assertArrayEquals(data, codec.decode(frame));
            IllegalArgumentException onTheHeap = assertThrows(IllegalArgumentException.class,
                    () -> codec.encodeInto(nativeData, 8, MemorySegment.ofArray(new byte[(int) codec.encodedBound(data.length)])));
            assertTrue(onTheHeap.getMessage().startsWith("blosc: compresses into native memory"), onTheHeap.getMessage());
        }
    }
}

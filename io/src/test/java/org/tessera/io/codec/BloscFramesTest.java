package org.tessera.io.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Frames that c-blosc wrote, decoded by {@link BloscFrames} (the decoder of LZ4 and stored
 * frames), give c-blosc's own bytes: every type size from 1 to 17, shuffled or not, split into
 * streams or not, a last shorter block or none, stored whole, into heap and native memory, whole
 * and in ranges that cut blocks anywhere; frames that are not what their header says are
 * IOExceptions naming the block and the stream.
 */
class BloscFramesTest {
    private static final ValueLayout.OfInt LITTLE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @BeforeEach
    void needsTheSystemLibraries() {
        assumeTrue(BloscLibrary.instance().filter(BloscLibrary::encodes).isPresent() && Lz4Library.instance().isPresent(),
                "no system c-blosc or liblz4 here (apt-get install libblosc1)");
    }

    /** Values of {@code typeSize} bytes: runs of a repeated value, a slow ramp, and random bytes, so that streams of each kind occur. */
    private static byte[] data(int size, int typeSize, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] data = new byte[size];
        int position = 0;
        while (position < size) {
            int run = Math.min(size - position, typeSize * (1 + random.nextInt(4000)));
            switch (random.nextInt(3)) {
                case 0 -> Arrays.fill(data, position, position + run, (byte) random.nextInt());
                case 1 -> {
                    for (int at = 0; at < run; at++) {
                        data[position + at] = (byte) (at % typeSize == typeSize - 1 ? 0x3f : at / (typeSize * 64));
                    }
                }
                default -> {
                    for (int at = 0; at < run; at++) {
                        data[position + at] = (byte) random.nextInt();
                    }
                }
            }
            position += run;
        }
        return data;
    }

    static Stream<Arguments> frames() {
        List<Arguments> cases = new ArrayList<>();
        int[] typeSizes = {1, 2, 3, 4, 5, 8, 16, 17};
        int[] sizes = {0, 7, 100, 1000, 70_000, 300_001};
        SplittableRandom random = new SplittableRandom(20261128);
        for (int typeSize : typeSizes) {
            for (int size : sizes) {
                int length = size - size % typeSize;
                Blosc.Shuffle shuffle = random.nextBoolean() ? Blosc.Shuffle.BYTE : Blosc.Shuffle.NONE;
                int level = new int[] {0, 1, 5, 9}[random.nextInt(4)];
                int blockSize = new int[] {0, 0, 256, 1000, 65_536}[random.nextInt(5)];
                String compressor = random.nextBoolean() ? "lz4" : "lz4hc";
                cases.add(Arguments.of(new Blosc(compressor, level, shuffle, 0, blockSize), typeSize, length));
            }
        }
        // zarr-python's default over chunks of float64, int32 and int16, with a last shorter block.
        for (int typeSize : new int[] {8, 4, 2}) {
            cases.add(Arguments.of(Blosc.defaults(), typeSize, 3_000_000 - 3_000_000 % typeSize));
        }
        return cases.stream();
    }

    private static MemorySegment encode(Blosc codec, byte[] data, int typeSize, Arena arena) throws IOException {
        MemorySegment frame = arena.allocate(data.length + BloscLibrary.MAX_OVERHEAD);
        long length = codec.encodeInto(MemorySegment.ofArray(data), typeSize, frame);
        return frame.asSlice(0, length);
    }

    @ParameterizedTest(name = "{0}, {1}-byte items, {2} bytes")
    @MethodSource("frames")
    void framesDecodeToCBloscsBytesWholeAndInRanges(Blosc codec, int typeSize, int size) throws IOException {
        byte[] data = data(size, typeSize, 31L * size + typeSize);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment frame = encode(codec, data, typeSize, arena);
            assertTrue(BloscFrames.decodes(frame), "an LZ4 or stored frame");
            MemorySegment byCBlosc = arena.allocate(Math.max(size, 1)).asSlice(0, size);
            if (size > 0) {
                BloscLibrary.instance().orElseThrow().decode(frame, byCBlosc);
            }
            assertArrayEquals(data, byCBlosc.toArray(ValueLayout.JAVA_BYTE));

            byte[] heap = new byte[size];
            MemorySegment nativeTarget = arena.allocate(Math.max(size, 1)).asSlice(0, size);
            MemorySegment heapFrame = MemorySegment.ofArray(frame.toArray(ValueLayout.JAVA_BYTE));
            try (BloscFrames.Streams streams = new BloscFrames.Streams()) {
                BloscFrames.decode(heapFrame, size, 0, MemorySegment.ofArray(heap), streams);
                BloscFrames.decode(frame, size, 0, nativeTarget, streams);
            }
            assertArrayEquals(data, heap, "from a heap frame into a heap array");
            assertArrayEquals(data, nativeTarget.toArray(ValueLayout.JAVA_BYTE), "from native memory into native memory");

            // Consecutive ranges of random lengths, whole items, through one state, as a reader of slabs decodes them.
            SplittableRandom random = new SplittableRandom(size * 7L + typeSize);
            byte[] pieces = new byte[size];
            try (BloscFrames.Streams streams = new BloscFrames.Streams()) {
                for (long from = 0; from < size;) {
                    long length = Math.min(size - from, typeSize * (1L + random.nextInt(Math.max(1, size / typeSize / 3 + 1))));
                    MemorySegment target = random.nextBoolean() ? MemorySegment.ofArray(new byte[(int) length]) : arena.allocate(length);
                    assertTrue(BloscFrames.decodesRange(frame, size, from, length));
                    BloscFrames.decode(frame, size, from, target, streams);
                    MemorySegment.copy(target, 0, MemorySegment.ofArray(pieces), from, length);
                    from += length;
                }
            }
            assertArrayEquals(data, pieces, "in consecutive ranges");
        }
    }

    @Test
    void theCodecDecodesRangesInPlaceThroughItsOwnState() throws IOException {
        byte[] data = data(500_000, 8, 5);
        Blosc codec = Blosc.defaults();
        try (Arena arena = Arena.ofConfined(); ByteCodec.RangeState state = codec.rangeState()) {
            MemorySegment frame = encode(codec, data, 8, arena);
            MemorySegment target = arena.allocate(16_000);
            assertTrue(codec.decodeRangeInPlace(frame, data.length, 262_144 - 8_000, target, state), "a range that cuts two blocks");
            assertArrayEquals(Arrays.copyOfRange(data, 262_144 - 8_000, 262_144 + 8_000), target.toArray(ValueLayout.JAVA_BYTE));
            assertFalse(codec.decodeRangeInPlace(frame, data.length, 4, target.asSlice(0, 8), state), "half an item of a shuffled frame");
            IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class,
                    () -> codec.decodeRangeInPlace(frame, data.length, 0, target, () -> { }));
            assertTrue(foreign.getMessage().startsWith("blosc: "), foreign.getMessage());
        }
    }

    /** Offsets and lengths inside the frame that point outside it, and LZ4 streams that do not decode, are IOExceptions; nothing past the frame is read. */
    @Test
    void framesThatAreNotWhatTheirHeaderSaysAreIOExceptions() throws IOException {
        byte[] data = data(2_600_000, 8, 9);
        byte[] frame;
        try (Arena arena = Arena.ofConfined()) {
            frame = encode(Blosc.defaults(), data, 8, arena).toArray(ValueLayout.JAVA_BYTE);
        }
        int blockBytes = MemorySegment.ofArray(frame).get(LITTLE_INT, 8);
        int blocks = (data.length + blockBytes - 1) / blockBytes;
        assertTrue(blocks >= 2, "the frame has blocks to break");

        byte[] offsetPastTheEnd = frame.clone();
        MemorySegment.ofArray(offsetPastTheEnd).set(LITTLE_INT, 16 + 4, frame.length + 10);
        assertEquals("blosc: stream 0 of block 1 starts at byte " + (frame.length + 10) + ", outside the frame's " + (16 + 4 * blocks) + " to "
                + frame.length, decodeFailure(offsetPastTheEnd, data.length).getMessage());

        byte[] offsetIntoTheHeader = frame.clone();
        MemorySegment.ofArray(offsetIntoTheHeader).set(LITTLE_INT, 16, 3);
        assertTrue(decodeFailure(offsetIntoTheHeader, data.length).getMessage().startsWith("blosc: stream 0 of block 0 starts at byte 3, outside"));

        byte[] streamPastTheEnd = frame.clone();
        int firstStream = MemorySegment.ofArray(frame).get(LITTLE_INT, 16);
        MemorySegment.ofArray(streamPastTheEnd).set(LITTLE_INT, firstStream, Integer.MAX_VALUE);
        assertTrue(decodeFailure(streamPastTheEnd, data.length).getMessage().startsWith("blosc: stream 0 of block 0 claims 2147483647 bytes"));

        // Shorten the last block's one LZ4 stream by a byte: it no longer decodes to its length.
        byte[] shortStream = frame.clone();
        int lastStream = MemorySegment.ofArray(frame).get(LITTLE_INT, 16 + 4 * (blocks - 1));
        int lastLength = MemorySegment.ofArray(frame).get(LITTLE_INT, lastStream);
        MemorySegment.ofArray(shortStream).set(LITTLE_INT, lastStream, lastLength - 1);
        IOException corrupt = decodeFailure(shortStream, data.length);
        assertTrue(corrupt.getMessage().startsWith("blosc: stream 0 of block " + (blocks - 1) + ": lz4: "), corrupt.getMessage());

        assertEquals("blosc: the frame decodes to 2600000 bytes, but the chunk holds 2599992", decodeFailure(frame, data.length - 8).getMessage());
    }

    private static IOException decodeFailure(byte[] frame, long decodedSize) {
        return assertThrows(IOException.class, () -> {
            try (BloscFrames.Streams streams = new BloscFrames.Streams()) {
                BloscFrames.decode(MemorySegment.ofArray(frame), decodedSize, 0, MemorySegment.ofArray(new byte[(int) decodedSize]), streams);
            }
        });
    }

    /** Bit shuffle, other compressors and unknown format versions are left to c-blosc. */
    @Test
    void otherFramesAreLeftToCBlosc() throws IOException {
        byte[] data = data(50_000, 8, 3);
        try (Arena arena = Arena.ofConfined()) {
            assertFalse(BloscFrames.decodes(encode(new Blosc("lz4", 5, Blosc.Shuffle.BIT, 0, 0), data, 8, arena)));
            assertFalse(BloscFrames.decodes(encode(new Blosc("zstd", 3, Blosc.Shuffle.BYTE, 0, 0), data, 8, arena)));
            assertFalse(BloscFrames.decodes(encode(new Blosc("blosclz", 5, Blosc.Shuffle.BYTE, 0, 0), data, 8, arena)));
            MemorySegment future = encode(Blosc.defaults(), data, 8, arena);
            future.set(ValueLayout.JAVA_BYTE, 0, (byte) 3);
            assertFalse(BloscFrames.decodes(future));
            byte[] decoded = new byte[data.length];
            Blosc.defaults().decodeInto(MemorySegment.ofArray(encode(new Blosc("zstd", 3, Blosc.Shuffle.BYTE, 0, 0), data, 8, arena).toArray(
                    ValueLayout.JAVA_BYTE)), MemorySegment.ofArray(decoded));
            assertArrayEquals(data, decoded, "through c-blosc");
        }
    }
}

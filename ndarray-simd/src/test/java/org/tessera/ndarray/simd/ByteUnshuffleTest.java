package org.tessera.ndarray.simd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The provider's unshuffle ({@code VectorMath.unshuffle}) writes element {@code i}'s byte
 * {@code b} from byte {@code i} of run {@code b} for the whole vectors of 2-, 4- and 8-byte
 * elements it takes, from any first element into any offset of native memory or from any whole
 * word of a {@code long[]} (as behind a block), touches nothing past them, and declines other sizes,
 * runs on the heap and other heap targets. The module's tests run again at AVX2.
 */
class ByteUnshuffleTest {
    private final VectorApiMath vector = new VectorApiMath();

    @ParameterizedTest(name = "{0}-byte elements")
    @ValueSource(ints = {2, 4, 8})
    void wholeVectorsOfElementsAreTheRunsBytesInTurn(int size) {
        SplittableRandom random = new SplittableRandom(size);
        int width = ByteUnshuffle.width(size);
        try (Arena arena = Arena.ofConfined()) {
            for (long count : new long[] {width - 1, width, 3L * width + 5, 20_000}) {
                long first = random.nextInt(3 * width);
                MemorySegment[] runs = new MemorySegment[size];
                for (int part = 0; part < size; part++) {
                    byte[] bytes = new byte[(int) (first + count)];
                    random.nextBytes(bytes);
                    // A mapping-like mix: runs of different arenas, as a frame's stored streams beside decoded ones.
                    runs[part] = (part % 2 == 0 ? arena : Arena.ofAuto()).allocate(bytes.length).copyFrom(MemorySegment.ofArray(bytes));
                }
                long offset = random.nextInt(64);
                checkOutput(runs, first, count, size, arena.allocate(offset + count * size + 64), offset);
                // A block's array, seen through a slice that ends past the elements, from a whole word.
                long words = (first + count) * size / 8 + 24;
                long wordsOffset = 8 * random.nextInt(4);
                checkOutput(runs, first, count, size, MemorySegment.ofArray(new long[(int) words]).asSlice(8, (words - 2) * 8), wordsOffset);
            }
        }
    }

    /** The provider's unshuffle into {@code output} from {@code offset}: whole vectors of elements, nothing past them. */
    private void checkOutput(MemorySegment[] runs, long first, long count, int size, MemorySegment output, long offset) {
        int width = ByteUnshuffle.width(size);
        output.fill((byte) 0x55);
        long done = vector.unshuffle(runs, first, count, output, offset);
        String into = output.isNative() ? "native memory" : "a long[]";
        assertEquals(count - count % width, done, "whole vectors of " + width + " elements into " + into);
        for (long element = 0; element < done; element++) {
            for (int part = 0; part < size; part++) {
                assertEquals(runs[part].get(ValueLayout.JAVA_BYTE, first + element), output.get(ValueLayout.JAVA_BYTE, offset + element * size + part),
                        "byte " + part + " of element " + element + " in " + into);
            }
        }
        byte[] untouched = new byte[(int) (output.byteSize() - offset - done * size)];
        java.util.Arrays.fill(untouched, (byte) 0x55);
        assertArrayEquals(untouched, output.asSlice(offset + done * size).toArray(ValueLayout.JAVA_BYTE), "nothing past them in " + into);
    }

    @ParameterizedTest(name = "{0}-byte elements")
    @ValueSource(ints = {1, 3, 16})
    void otherSizesAndHeapMemoryButBlockArraysAreDeclined(int size) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[] runs = new MemorySegment[size];
            for (int part = 0; part < size; part++) {
                runs[part] = arena.allocate(4096);
            }
            assertEquals(0, vector.unshuffle(runs, 0, 4096, arena.allocate(4096L * size), 0));
            MemorySegment[] eight = new MemorySegment[8];
            for (int part = 0; part < 8; part++) {
                eight[part] = part == 3 ? MemorySegment.ofArray(new byte[4096]) : arena.allocate(4096);
            }
            assertEquals(0, vector.unshuffle(eight, 0, 4096, arena.allocate(8 * 4096), 0), "a run on the heap");
            eight[3] = arena.allocate(4096);
            assertEquals(0, vector.unshuffle(eight, 0, 4096, MemorySegment.ofArray(new byte[8 * 4096]), 0), "a byte[] target");
            assertEquals(0, vector.unshuffle(eight, 0, 4000, MemorySegment.ofArray(new long[4096]), 4), "a long[] target from half a word");
            assertTrue(vector.unshuffle(eight, 0, 4096, MemorySegment.ofArray(new long[4096]), 0) > 0, "a long[] target from a whole word");
            assertTrue(vector.unshuffle(eight, 0, 4096, arena.allocate(8 * 4096), 0) > 0, "all native");
        }
    }
}

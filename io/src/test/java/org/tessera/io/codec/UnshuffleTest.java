package org.tessera.io.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The unshuffle gives element {@code i}'s byte {@code b} from byte {@code i} of run {@code b}, for
 * any element size, count and first element, from runs and into targets of native memory and heap
 * arrays ({@code byte[]}, and {@code long[]} as behind a block, from whole words or not) in any mix,
 * whatever part the SIMD provider takes (the runs here are sized so that vectors
 * of every width leave a rest).
 */
class UnshuffleTest {
    @ParameterizedTest(name = "{0}-byte elements")
    @ValueSource(ints = {1, 2, 3, 4, 7, 8, 16})
    void elementsAreTheRunsBytesInTurn(int size) {
        SplittableRandom random = new SplittableRandom(size);
        try (Arena arena = Arena.ofConfined()) {
            for (long count : new long[] {0, 1, 63, 64, 65, 1000, 70_001}) {
                long first = random.nextInt(100);
                byte[][] runBytes = new byte[size][(int) (first + count)];
                MemorySegment[] runs = new MemorySegment[size];
                for (int part = 0; part < size; part++) {
                    random.nextBytes(runBytes[part]);
                    runs[part] = random.nextBoolean() ? MemorySegment.ofArray(runBytes[part])
                            : arena.allocate(runBytes[part].length + 1L).copyFrom(MemorySegment.ofArray(runBytes[part])).asSlice(0, runBytes[part].length);
                }
                byte[] expected = new byte[(int) (count * size)];
                for (int element = 0; element < count; element++) {
                    for (int part = 0; part < size; part++) {
                        expected[element * size + part] = runBytes[part][(int) first + element];
                    }
                }
                long offset = random.nextInt(16);
                MemorySegment heap = MemorySegment.ofArray(new byte[(int) (offset + count * size)]);
                Unshuffle.unshuffle(runs, first, count, heap, offset);
                assertArrayEquals(expected, heap.asSlice(offset).toArray(ValueLayout.JAVA_BYTE), "into a heap array, " + count + " elements");
                // A block's array, from a whole word (where the provider writes its vectors itself) and from elsewhere.
                for (long wordsOffset : new long[] {8 * random.nextInt(4), offset}) {
                    MemorySegment words = MemorySegment.ofArray(new long[(int) ((wordsOffset + count * size + 8) / 8)]);
                    words.fill((byte) 0x55);
                    Unshuffle.unshuffle(runs, first, count, words, wordsOffset);
                    assertArrayEquals(expected, words.asSlice(wordsOffset, count * size).toArray(ValueLayout.JAVA_BYTE),
                            "into a long[] from byte " + wordsOffset + ", " + count + " elements");
                    assertEquals(0x55, words.get(ValueLayout.JAVA_BYTE, wordsOffset + count * size), "nothing past them");
                }
                MemorySegment nativeTarget = arena.allocate(offset + count * size + 1);
                Unshuffle.unshuffle(runs, first, count, nativeTarget, offset);
                assertArrayEquals(expected, nativeTarget.asSlice(offset, count * size).toArray(ValueLayout.JAVA_BYTE), "into native memory, " + count + " elements");
            }
        }
    }
}

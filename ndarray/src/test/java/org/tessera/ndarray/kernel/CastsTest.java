package org.tessera.ndarray.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.dtype.DType;

class CastsTest {

    /**
     * A strided copy within one dtype moves every bit of every element (NaN payloads, -0.0, both
     * halves of a complex number) to its place, forwards and backwards, heap to native and back,
     * for the item sizes copied word by word and for one that is not.
     */
    @Test
    void stridedCopiesWithinADtypeKeepEveryBit() {
        SplittableRandom random = new SplittableRandom(5);
        for (DType dtype : List.of(DType.FLOAT64, DType.INT32, DType.FLOAT32, DType.COMPLEX128, DType.INT16)) {
            int itemSize = dtype.byteSize();
            long count = 37;
            for (boolean nativeTarget : List.of(false, true)) {
                MemorySegment source = MemorySegment.ofArray(new long[(int) (count * 3 * itemSize / 8 + 4)]);
                for (long word = 0; word < source.byteSize() / 8; word++) {
                    source.setAtIndex(ValueLayout.JAVA_LONG, word, random.nextLong());
                }
                source.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 0x7ff8_0000_dead_beefL);
                MemorySegment target = nativeTarget ? Arena.ofAuto().allocate(count * 2 * itemSize + 8, 8) : MemorySegment.ofArray(new long[(int) (count * 2 * itemSize / 8 + 1)]);
                // Every third element of the source, last first, into every second of the target.
                long sourceStart = (count - 1) * 3 * itemSize;
                Casts.copy(dtype, source, sourceStart, -3L * itemSize, dtype, target, 0, 2L * itemSize, count);
                for (long i = 0; i < count; i++) {
                    for (int b = 0; b < itemSize; b++) {
                        assertEquals(source.get(ValueLayout.JAVA_BYTE, sourceStart - 3L * itemSize * i + b), target.get(ValueLayout.JAVA_BYTE, 2L * itemSize * i + b),
                                dtype + " element " + i + ", byte " + b + (nativeTarget ? " into native memory" : ""));
                    }
                }
            }
        }
    }
}

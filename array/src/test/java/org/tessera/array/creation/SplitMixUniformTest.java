package org.tessera.array.creation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class SplitMixUniformTest {
    @Test
    void theBulkStreamIsSplittableRandomsStreamValueForValue() {
        for (long seed : new long[] {0, 1, -7, 0x9E3779B97F4A7C15L * 3 + 11}) {
            int count = 10_007;
            MemorySegment values = MemorySegment.ofArray(new double[count + 1]);
            SplitMixUniform.fill(seed, values, 8, count);
            SplittableRandom reference = new SplittableRandom(seed);
            for (int i = 0; i < count; i++) {
                assertEquals(reference.nextDouble(), values.getAtIndex(ValueLayout.JAVA_DOUBLE, i + 1), "value " + i + " of seed " + seed);
            }
            assertEquals(0.0, values.getAtIndex(ValueLayout.JAVA_DOUBLE, 0), "nothing written before the offset");
        }
    }
}

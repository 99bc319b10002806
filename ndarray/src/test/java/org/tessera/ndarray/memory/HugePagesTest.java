package org.tessera.ndarray.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

class HugePagesTest {
    @Test
    void nativeMemoryOnHugePagesIsZeroFilledWritableAndAligned() {
        long bytes = (3L << 20) + 5;
        MemorySegment segment = Memory.allocateNativeHuge(bytes);
        assertTrue(segment.isNative());
        assertEquals(bytes, segment.byteSize());
        for (long at = 0; at + Long.BYTES <= bytes; at += Long.BYTES) {
            if (segment.get(ValueLayout.JAVA_LONG_UNALIGNED, at) != 0) {
                throw new AssertionError("byte " + at + " is not zero");
            }
        }
        segment.set(ValueLayout.JAVA_BYTE, bytes - 1, (byte) 7);
        assertEquals(7, segment.get(ValueLayout.JAVA_BYTE, bytes - 1));
        if (System.getProperty("os.name").startsWith("Linux")) {
            assertEquals(0, segment.address() % (2L << 20), "mapped at " + Long.toHexString(segment.address()));
        }
    }

    @Test
    void aMappingIsUnmappedWhenItBecomesUnreachable() throws InterruptedException {
        // Earlier tests' mappings that are unreachable but not yet unmapped go first: their cleaner
        // would otherwise unmap them between the two counts below (a clean-clone CI counted
        // 35.1 MB mapped before the 8 MB mapping and 37.8 MB after).
        long before = settledMappedBytes();
        MemorySegment segment = Memory.allocateNativeHuge(8L << 20);
        segment.set(ValueLayout.JAVA_LONG, 0, 1);
        assertTrue(HugePages.mappedBytes() >= before + (8L << 20), "mapped " + HugePages.mappedBytes() + " after " + before);
        segment = null;
        for (int i = 0; i < 100 && HugePages.mappedBytes() > before; i++) {
            System.gc();
            Thread.sleep(20);
        }
        // Other tests' mappings may go meanwhile too, so at most what was there before.
        assertTrue(HugePages.mappedBytes() <= before, "still mapped: " + HugePages.mappedBytes() + " bytes against " + before);
    }

    /** The bytes mapped once collections have stopped unmapping anything: unchanged over three polls, or after two seconds. */
    private static long settledMappedBytes() throws InterruptedException {
        long mapped = HugePages.mappedBytes();
        for (int poll = 0, unchanged = 0; poll < 100 && unchanged < 3; poll++) {
            System.gc();
            Thread.sleep(20);
            long now = HugePages.mappedBytes();
            unchanged = now == mapped ? unchanged + 1 : 0;
            mapped = now;
        }
        return mapped;
    }
}

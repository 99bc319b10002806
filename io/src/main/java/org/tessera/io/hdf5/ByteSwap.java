package org.tessera.io.hdf5;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Byte order reversal in place. NDArrays hold native (little-endian) elements, so big-endian data
 * from a file is swapped part by part after reading: a complex number swaps its two halves
 * separately, as NumPy's byteswap does.
 */
final class ByteSwap {
    private ByteSwap() {
    }

    static void swap(MemorySegment segment, long offset, long byteSize, int partSize) {
        long end = offset + byteSize;
        switch (partSize) {
            case 1 -> {
            }
            case 2 -> {
                for (long position = offset; position < end; position += 2) {
                    segment.set(ValueLayout.JAVA_SHORT_UNALIGNED, position, Short.reverseBytes(segment.get(ValueLayout.JAVA_SHORT_UNALIGNED, position)));
                }
            }
            case 4 -> {
                for (long position = offset; position < end; position += 4) {
                    segment.set(ValueLayout.JAVA_INT_UNALIGNED, position, Integer.reverseBytes(segment.get(ValueLayout.JAVA_INT_UNALIGNED, position)));
                }
            }
            case 8 -> {
                for (long position = offset; position < end; position += 8) {
                    segment.set(ValueLayout.JAVA_LONG_UNALIGNED, position, Long.reverseBytes(segment.get(ValueLayout.JAVA_LONG_UNALIGNED, position)));
                }
            }
            default -> throw new IllegalArgumentException("no byte swap for parts of " + partSize + " bytes");
        }
    }
}

package org.tessera.ndarray.blas;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The two triangles of a square float matrix: syrk computes one of a symmetric product, and the
 * other is its mirror.
 */
final class Triangles {
    private Triangles() {
    }

    /** Square tiles of the mirror copy: both the row read and the column written stay in cache. */
    private static final int MIRROR_TILE = 64;

    /** Copies the upper triangle of a square float matrix onto its lower one, bit for bit. */
    static void mirrorUpper(Matrix square) {
        MemorySegment segment = square.segment();
        // Bits, not values, of float64's 8 or float32's 4 bytes.
        if (square.dtype().byteSize() == Long.BYTES) {
            forMirroredPairs(square, (lower, upper) -> {
                segment.set(ValueLayout.JAVA_LONG_UNALIGNED, lower, segment.get(ValueLayout.JAVA_LONG_UNALIGNED, upper));
                return true;
            });
        } else {
            forMirroredPairs(square, (lower, upper) -> {
                segment.set(ValueLayout.JAVA_INT_UNALIGNED, lower, segment.get(ValueLayout.JAVA_INT_UNALIGNED, upper));
                return true;
            });
        }
    }

    /** Whether a square float matrix equals its transpose bit for bit. */
    static boolean isSymmetric(Matrix square) {
        if (square.rowCount() != square.columnCount()) {
            return false;
        }
        MemorySegment segment = square.segment();
        return square.dtype().byteSize() == Long.BYTES
                ? forMirroredPairs(square, (lower, upper) -> segment.get(ValueLayout.JAVA_LONG_UNALIGNED, lower) == segment.get(ValueLayout.JAVA_LONG_UNALIGNED, upper))
                : forMirroredPairs(square, (lower, upper) -> segment.get(ValueLayout.JAVA_INT_UNALIGNED, lower) == segment.get(ValueLayout.JAVA_INT_UNALIGNED, upper));
    }

    /** What is done to an element below the diagonal and its mirror above it, given their byte offsets; false stops the walk. */
    private interface MirroredPair {
        boolean visit(long lower, long upper);
    }

    /** Visits each element below the diagonal with its mirror, in square tiles; false where a visit stopped the walk. */
    private static boolean forMirroredPairs(Matrix square, MirroredPair pair) {
        long size = square.rowCount();
        long rowStride = square.rowByteStride(), columnStride = square.columnByteStride();
        long origin = square.byteOffsetOf(0, 0);
        for (long tileRow = 0; tileRow < size; tileRow += MIRROR_TILE) {
            long rowEnd = Math.min(tileRow + MIRROR_TILE, size);
            for (long tileColumn = 0; tileColumn <= tileRow; tileColumn += MIRROR_TILE) {
                for (long row = tileRow; row < rowEnd; row++) {
                    long columnEnd = Math.min(tileColumn + MIRROR_TILE, row);
                    long lower = origin + row * rowStride + tileColumn * columnStride;
                    long upper = origin + tileColumn * rowStride + row * columnStride;
                    for (long column = tileColumn; column < columnEnd; column++, lower += columnStride, upper += rowStride) {
                        if (!pair.visit(lower, upper)) {
                            return false;
                        }
                    }
                }
            }
        }
        return true;
    }
}

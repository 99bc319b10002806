package org.tessera.array.chunks;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.dtype.DType;

class ChunksTest {
    @Test
    void regularBlocksEndWithTheRest() {
        Chunks chunks = Chunks.regular(new long[] {5, 6}, new long[] {2, 3});
        assertEquals("((2, 2, 1), (3, 3))", chunks.toString());
        assertArrayEquals(new long[] {5, 6}, chunks.shape());
        assertArrayEquals(new int[] {3, 2}, chunks.blockCounts());
        assertEquals(6, chunks.totalBlocks());
        assertArrayEquals(new long[] {0, 2, 4, 5}, chunks.offsets(0));
        assertArrayEquals(new long[] {1, 3}, chunks.blockShape(2, 1));
        assertArrayEquals(new long[] {2, 3}, chunks.largestBlock());
        assertEquals("((0,),)", Chunks.regular(new long[] {0}, new long[] {4}).toString());
    }

    @Test
    void unknownLengthsAreExplicitAndNamedWhenNeeded() {
        Chunks masked = Chunks.of(new long[] {Chunks.UNKNOWN, 3}, new long[] {4});
        assertFalse(masked.isKnown());
        assertTrue(masked.isKnown(1));
        assertEquals(Chunks.UNKNOWN, masked.axisLength(0));
        assertEquals("((nan, 3), (4,))", masked.toString());
        UnknownChunksException error = assertThrows(UnknownChunksException.class, () -> masked.requireKnownShape("reshape"));
        assertTrue(error.getMessage().contains("reshape needs the length of axis 0") && error.getMessage().contains("computeChunkSizes()"), error.getMessage());
        assertThrows(UnknownChunksException.class, () -> masked.offsets(0));
    }

    @Test
    void invariantsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> Chunks.of(new long[] {}));
        assertThrows(IllegalArgumentException.class, () -> Chunks.of(new long[] {2, -3}));
        IllegalArgumentException sum = assertThrows(IllegalArgumentException.class, () -> Chunks.of(new long[] {2, 2}).requireShape(new long[] {5}));
        assertTrue(sum.getMessage().contains("((2, 2),)") && sum.getMessage().contains("[5]"), sum.getMessage());
    }

    @Test
    void specsInJavaReadAsDasksDo() {
        long[] shape = {1000, 600};
        assertEquals(Chunks.regular(shape, new long[] {300, 600}), ChunkNormalization.normalize(ChunkSpec.of(300, -1), shape, DType.FLOAT64));
        assertEquals(Chunks.regular(shape, new long[] {1000, 250}),
                ChunkNormalization.normalize(ChunkSpec.byAxis(Map.of(1, ChunkSpec.size(250))), shape, DType.FLOAT64));
        // 8 bytes x 100 x 100 = 80 kB: "80kB" gives square-ish blocks of 100.
        assertEquals(Chunks.regular(shape, new long[] {100, 100}), ChunkNormalization.normalize(ChunkSpec.bytes("80kB"), shape, DType.FLOAT64));
        assertEquals(Chunks.regular(shape, shape), ChunkNormalization.normalize(ChunkSpec.auto(), shape, DType.FLOAT64));
        IllegalArgumentException mismatch = assertThrows(IllegalArgumentException.class,
                () -> ChunkNormalization.normalize(ChunkSpec.of(10, 10, 10), shape, DType.FLOAT64));
        assertTrue(mismatch.getMessage().contains("3 axes") && mismatch.getMessage().contains("[1000, 600]"), mismatch.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ChunkNormalization.normalize(ChunkSpec.auto(), shape, null));
        assertEquals(128L << 20, ByteSizes.parse("128MiB"));
        assertEquals(100_000_000L, ByteSizes.parse("100 MB"));
        assertThrows(IllegalArgumentException.class, () -> ByteSizes.parse("lots"));
    }
}

package org.tessera.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.io.StoreOptions;
import org.tessera.io.zarr.Zarr;
import org.tessera.ndarray.NDArray;

class RandomZarrMatrixTest {
    @Test
    void aSizeInBytesGivesWholeRowsAndBlocksNoLongerThanTheMatrix() {
        RandomZarrMatrix matrix = RandomZarrMatrix.ofBytes(2_000_000_000L, 1_000, 10_000, 1);
        assertEquals(250_000, matrix.rows());
        assertEquals(10_000, matrix.blockRows());
        assertEquals(2_000_000_000L, matrix.bytes());
        assertEquals(2.0 * 250_000 * 1_000 * 1_000, matrix.gramFlops());
        RandomZarrMatrix small = RandomZarrMatrix.ofBytes(80_000, 1_000, 10_000, 1);
        assertEquals(10, small.rows());
        assertEquals(10, small.blockRows());
        assertThrows(IllegalArgumentException.class, () -> new RandomZarrMatrix(0, 10, 10, 1));
    }

    @Test
    void theStoreHoldsTheSeededMatrixUncompressedAndIsRecognisedOnlyWhenComplete(@TempDir Path directory) throws IOException {
        RandomZarrMatrix matrix = new RandomZarrMatrix(25, 4, 10, 7);
        Path store = directory.resolve("A.zarr");
        assertFalse(matrix.isHeldBy(store));
        matrix.write(store, StoreOptions.defaults());
        assertTrue(matrix.isHeldBy(store));
        assertEquals(null, ((org.tessera.io.zarr.ArrayMetadataV2) Zarr.open(store).metadata()).compressor());
        NDArray stored = Zarr.open(store).readAll();
        NDArray generated = matrix.generator().compute();
        for (long row = 0; row < 25; row++) {
            for (long column = 0; column < 4; column++) {
                assertEquals(generated.getDouble(row, column), stored.getDouble(row, column));
            }
        }
        assertFalse(new RandomZarrMatrix(25, 4, 5, 7).isHeldBy(store), "other blocks, other store");
        Files.delete(store.resolve("1.0"));
        assertFalse(matrix.isHeldBy(store), "a missing chunk");
    }
}

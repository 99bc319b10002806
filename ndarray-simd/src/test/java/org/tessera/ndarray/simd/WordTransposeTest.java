package org.tessera.ndarray.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * The provider's word transpose ({@code VectorMath.transposeWords}) moves element (row, column) of
 * the source to (row, column) of the tile for the corner that whole blocks of its side cover, and
 * touches nothing else of the tile; and {@code a + b.T} through it gives, bit for bit, the sums of
 * the elements' pairs, whatever part of each tile the blocks leave to the scalar loop. The
 * module's tests run again at AVX2 (blocks of 4 x 4 there, 8 x 8 at AVX-512).
 */
class WordTransposeTest {
    private static final long UNTOUCHED = 0x5555_5555_5555_5555L;
    private final VectorApiMath vector = new VectorApiMath();

    @Test
    void theCornerOfWholeBlocksIsTransposedAndNothingElse() {
        SplittableRandom random = new SplittableRandom(11);
        for (int trial = 0; trial < 200; trial++) {
            int rows = random.nextInt(0, 70);
            int columns = random.nextInt(0, 70);
            int columnStep = rows + random.nextInt(0, 9);
            int step = columns + random.nextInt(0, 9);
            int base = random.nextInt(0, 17);
            long[] source = random.longs(base + (long) Math.max(columns, 1) * columnStep + rows).toArray();
            long[] tile = new long[Math.max(rows, 1) * step + columns];
            Arrays.fill(tile, UNTOUCHED);
            int side = vector.transposeWords(source, base, columnStep, rows, columns, step, tile);
            assertEquals(WordTranspose.bits() / Long.SIZE, side, "blocks of the vector's lanes");
            int wholeRows = rows - rows % side;
            int wholeColumns = columns - columns % side;
            long[] expected = new long[tile.length];
            Arrays.fill(expected, UNTOUCHED);
            if (wholeRows > 0 && wholeColumns > 0) {
                for (int row = 0; row < wholeRows; row++) {
                    for (int column = 0; column < wholeColumns; column++) {
                        expected[row * step + column] = source[base + row + column * columnStep];
                    }
                }
            }
            assertEquals(-1, Arrays.mismatch(expected, tile), rows + " x " + columns + " from " + base + ", steps " + columnStep + " and " + step);
        }
    }

    @Test
    void aPlusTheTransposeOfBIsTheSumOfEachPair() {
        SplittableRandom random = new SplittableRandom(5);
        // Tile edges (128 x 256) inside both axes, block edges inside the tiles, and a slice whose rows are shorter than their stride.
        for (long[] shape : new long[][] {{300, 530}, {131, 259}, {7, 9}, {2000, 16}}) {
            for (boolean sliced : new boolean[] {false, true}) {
                NDArray a = NDArray.zeros(DType.FLOAT64, shape[0], shape[1]);
                NDArray b = NDArray.zeros(DType.FLOAT64, shape[1], shape[0] + (sliced ? 3 : 0));
                fill(a, random);
                fill(b, random);
                NDArray bTransposed = (sliced ? b.slice(1, 0, 1, shape[0]) : b).transpose();
                NDArray sum = Ufuncs.ADD.apply(a, bTransposed);
                for (long row = 0; row < shape[0]; row++) {
                    for (long column = 0; column < shape[1]; column++) {
                        assertEquals(a.getDouble(row, column) + b.getDouble(column, row), sum.getDouble(row, column),
                                "element " + row + ", " + column + " of " + Arrays.toString(shape) + (sliced ? " (sliced)" : ""));
                    }
                }
            }
        }
    }

    private static void fill(NDArray array, SplittableRandom random) {
        for (long row = 0; row < array.shape(0); row++) {
            for (long column = 0; column < array.shape(1); column++) {
                array.setDouble(random.nextDouble(-1e6, 1e6), row, column);
            }
        }
    }
}

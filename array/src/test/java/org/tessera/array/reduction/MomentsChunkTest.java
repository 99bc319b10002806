package org.tessera.array.reduction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.tessera.array.reduction.ReductionKind.BlockPlace;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.ndarray.ufunc.Statistics;
import org.tessera.ndarray.ufunc.Ufuncs;

/** A variance's chunk step: its partials are NumPy's count, mean and sum of squared deviations of the block. */
class MomentsChunkTest {

    @Test
    void aBlocksSquaredDeviationsDownItsColumnsAreNumPysBitForBit() {
        Random random = new Random(5);
        NDArray wide = NDArray.empty(DType.FLOAT64, 48, 300);
        for (long i = 0; i < 48; i++) {
            for (long j = 0; j < 300; j++) {
                wide.setDouble(1e6 + random.nextGaussian(), i, j);
            }
        }
        NDArray narrow = wide.slice(1, 10, 1, 12);
        NDArray ints = wide.astype(DType.INT32);
        for (ReductionKind kind : new ReductionKind[] {Kinds.var(false, 1, null), Kinds.std(false, 0, null)}) {
            for (NDArray block : new NDArray[] {wide, wide.slice(0, 3, 2, 20), wide.slice(1, 7, 1, 200), narrow, ints}) {
                NDArray[] partials = kind.chunk(block, new int[] {0}, new BlockPlace(new long[] {0, 0}, block.shape()));
                NDArray values = block.astype(DType.FLOAT64);
                Options down = new Options(new int[] {0}, null, true, null, null);
                NDArray mean = Ufuncs.TRUE_DIVIDE.apply(Statistics.sum(values, down), (double) values.shape(0));
                NDArray deviation = Ufuncs.SUBTRACT.apply(values, mean);
                NDArray squares = Statistics.sum(Ufuncs.MULTIPLY.apply(deviation, deviation), down);
                String where = "a " + block.dtype() + " block of shape " + block.shape()[0] + " x " + block.shape()[1];
                assertEquals(3, partials.length, where);
                assertArrayEquals(new long[] {1, block.shape(1)}, partials[2].shape(), where);
                for (long j = 0; j < block.shape(1); j++) {
                    assertEquals(values.shape(0), partials[0].getDouble(0, j), where + ", count of column " + j);
                    assertEquals(Double.doubleToRawLongBits(mean.getDouble(0, j)), Double.doubleToRawLongBits(partials[1].getDouble(0, j)),
                            where + ", mean of column " + j);
                    assertEquals(Double.doubleToRawLongBits(squares.getDouble(0, j)), Double.doubleToRawLongBits(partials[2].getDouble(0, j)),
                            where + ", squared deviations of column " + j);
                }
            }
        }
    }
}

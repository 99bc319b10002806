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

/** A variance's chunk step: its partials are NumPy's count, sum and sum of squared deviations (from the block's mean) of the block, over either axis. */
class MomentsChunkTest {

    @Test
    void aBlocksSquaredDeviationsAreNumPysBitForBit() {
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
                for (int axis : new int[] {0, 1}) {
                    NDArray[] partials = kind.chunk(block, new int[] {axis}, new BlockPlace(new long[] {0, 0}, block.shape()));
                    NDArray values = block.astype(DType.FLOAT64);
                    Options kept = new Options(new int[] {axis}, null, true, null, null);
                    NDArray total = Statistics.sum(values, kept);
                    NDArray mean = Ufuncs.TRUE_DIVIDE.apply(total, (double) values.shape(axis));
                    NDArray deviation = Ufuncs.SUBTRACT.apply(values, mean);
                    NDArray squares = Statistics.sum(Ufuncs.MULTIPLY.apply(deviation, deviation), kept);
                    String where = "a " + block.dtype() + " block of shape " + block.shape()[0] + " x " + block.shape()[1] + " over axis " + axis;
                    assertEquals(3, partials.length, where);
                    assertArrayEquals(mean.shape(), partials[2].shape(), where);
                    for (long j = 0; j < mean.size(); j++) {
                        long[] at = axis == 0 ? new long[] {0, j} : new long[] {j, 0};
                        assertEquals(values.shape(axis), partials[0].getDouble(at), where + ", count " + j);
                        assertEquals(Double.doubleToRawLongBits(total.getDouble(at)), Double.doubleToRawLongBits(partials[1].getDouble(at)),
                                where + ", sum " + j);
                        assertEquals(Double.doubleToRawLongBits(squares.getDouble(at)), Double.doubleToRawLongBits(partials[2].getDouble(at)),
                                where + ", squared deviations " + j);
                    }
                }
            }
        }
    }
}

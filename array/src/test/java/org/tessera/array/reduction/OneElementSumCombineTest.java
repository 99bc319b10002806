package org.tessera.array.reduction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/**
 * A sum's level over one-element float64 partials adds their values in order rather than joining
 * them first: the same bits as the join and its sum, which a whole sum over many small blocks then
 * never builds.
 */
class OneElementSumCombineTest {
    private static final ReductionKind SUM = Kinds.sum(null);

    private static List<NDArray[]> partials(double[] values, long... shape) {
        List<NDArray[]> partials = new ArrayList<>();
        for (double value : values) {
            partials.add(new NDArray[] {NDArrays.full(DType.FLOAT64, value, shape)});
        }
        return partials;
    }

    /** What a level makes of the partials joined along {@code axis}. */
    private static NDArray joinedSum(List<NDArray[]> partials, int axis) {
        List<NDArray> pieces = partials.stream().map(partial -> partial[0]).toList();
        return SUM.combine(new NDArray[] {NDArrays.concatenate(pieces, axis)}, new int[] {axis})[0];
    }

    @Test
    void partialsAddedInOrderAreTheJoinedSum() {
        SplittableRandom random = new SplittableRandom(5);
        for (int count : new int[] {2, 3, 4, 7, 8, 9, 17, 100, 128}) {
            double[] values = random.doubles(count, -1e6, 1e6).toArray();
            values[count / 2] *= 1e-9;
            for (long[] shape : new long[][] {{1}, {1, 1}}) {
                int axis = shape.length - 1;
                NDArray[] inOrder = SUM.combineInOrder(partials(values, shape), new int[] {axis});
                NDArray expected = joinedSum(partials(values, shape), axis);
                assertArrayEquals(expected.shape(), inOrder[0].shape());
                assertEquals(Double.doubleToRawLongBits(expected.ravel().getDouble(0)), Double.doubleToRawLongBits(inOrder[0].ravel().getDouble(0)),
                        count + " partials of shape " + java.util.Arrays.toString(shape));
            }
        }
        NDArray zeros = SUM.combineInOrder(partials(new double[] {-0.0, -0.0, -0.0}, 1), new int[] {0})[0];
        assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(zeros.getDouble(0)), "a sum of negative zeros is +0.0");
        assertTrue(Double.isNaN(SUM.combineInOrder(partials(new double[] {1, Double.NaN, 2}, 1), new int[] {0})[0].getDouble(0)));
    }

    @Test
    void otherPartialsAreJoined() {
        assertNull(SUM.combineInOrder(partials(new double[129], 1), new int[] {0}), "more partials than one pairwise block");
        assertNull(SUM.combineInOrder(partials(new double[] {1, 2}, 2), new int[] {0}), "partials of two elements");
        List<NDArray[]> integers = List.of(new NDArray[] {NDArrays.full(DType.INT64, 1, 1)}, new NDArray[] {NDArrays.full(DType.INT64, 2, 1)});
        assertNull(SUM.combineInOrder(integers, new int[] {0}), "int64 partials");
        assertNull(Kinds.max().combineInOrder(partials(new double[] {1, 2}, 1), new int[] {0}), "a maximum");
        assertNull(Kinds.sum(DType.FLOAT32).combineInOrder(partials(new double[] {1, 2}, 1), new int[] {0}), "a float32 sum");
    }

    /** A whole sum over many blocks of a few elements, its levels added in order, against its blocks' values summed the same way. */
    @Test
    void aSumOverManySmallBlocks() {
        ChunkedArray x = Creation.random(3, Creation.Distribution.UNIFORM, new long[] {5000}, ChunkSpec.of(7));
        NDArray whole = x.compute();
        double total = 0;
        for (long i = 0; i < whole.size(); i++) {
            total += whole.getDouble(i);
        }
        assertEquals(total, x.sum().compute().getDouble(), 1e-9);
        assertEquals(total / 5000, x.mean().compute().getDouble(), 1e-12);
    }
}

package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.stream.Stream;

import org.junit.jupiter.api.Named;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * The inputs and the one assertion shared by the tests of ChunkedArray's fluent methods: a
 * chunked result must predict the NDArray layer's dtype and shape before computing, and compute
 * to its values.
 */
final class MethodOracle {
    static final SynchronousScheduler SYNCHRONOUS = new SynchronousScheduler();

    /** 7 x 9 float64 values from -12.25 to 18.75 in steps of 0.5: negatives, no zero. */
    static final NDArray FLOATS = Ufuncs.SUBTRACT.apply(Ufuncs.MULTIPLY.apply(NDArrays.arange(63).reshape(7, 9), 0.5), 12.25);

    /** 7 x 9 int64 values from -30 to 32: negatives and one zero. */
    static final NDArray INTEGERS = Ufuncs.SUBTRACT.apply(NDArrays.arange(63).reshape(7, 9), 30);

    /** FLOATS with NaN at (0, 0), (3, 4) and (6, 8): in the first, a middle and the last block of every chunking. */
    static final NDArray WITH_NANS = withNans();

    private MethodOracle() {
    }

    private static NDArray withNans() {
        NDArray values = FLOATS.copy();
        values.setDouble(Double.NaN, 0, 0);
        values.setDouble(Double.NaN, 3, 4);
        values.setDouble(Double.NaN, 6, 8);
        return values;
    }

    /** Chunkings of a 7 x 9 array: regular, irregular, and blocks of one element. */
    static Stream<Named<ChunkSpec>> chunkings() {
        return Stream.of(
                Named.of("regular (3, 4)", ChunkSpec.of(3, 4)),
                Named.of("irregular ((2, 5), (1, 1, 7))", ChunkSpec.explicit(new long[] {2, 5}, new long[] {1, 1, 7})),
                Named.of("blocks of 1", ChunkSpec.size(1)));
    }

    static ChunkedArray chunked(NDArray values, ChunkSpec spec) {
        return Creation.fromSource(RegionSource.of(values), spec);
    }

    /**
     * Dtype and shape predicted (meta) and computed, and values: exact for bool and integers,
     * within a relative 1e-12 (float32: 1e-5) for floats, whose sums run in another order
     * block by block; NaN matches NaN.
     */
    static void assertMatches(String what, NDArray expected, ChunkedArray actual) {
        assertEquals(expected.dtype(), actual.dtype(), what + ": predicted dtype");
        assertEquals(expected.ndim(), actual.meta().ndim(), what + ": meta ndim");
        assertArrayEquals(expected.shape(), actual.shape(), what + ": predicted shape");
        NDArray computed = actual.compute(SYNCHRONOUS);
        assertEquals(expected.dtype(), computed.dtype(), what + ": computed dtype");
        assertArrayEquals(expected.shape(), computed.shape(), what + ": computed shape");
        NDArray expectedFlat = expected.copy().reshape(expected.size());
        NDArray actualFlat = computed.copy().reshape(computed.size());
        double tolerance = expected.dtype() == DType.FLOAT32 ? 1e-5 : 1e-12;
        for (long element = 0; element < expected.size(); element++) {
            switch (expected.dtype().kind()) {
                case FLOAT -> {
                    double wanted = expectedFlat.getDouble(element);
                    double found = actualFlat.getDouble(element);
                    boolean same = Double.isNaN(wanted) ? Double.isNaN(found) : Math.abs(wanted - found) <= tolerance * Math.max(1, Math.abs(wanted));
                    if (!same) {
                        fail(what + ": element " + element + " is " + found + ", expected " + wanted);
                    }
                }
                default -> assertEquals(expectedFlat.getLong(element), actualFlat.getLong(element), what + ": element " + element);
            }
        }
    }
}

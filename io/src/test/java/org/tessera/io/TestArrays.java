package org.tessera.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.SplittableRandom;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/** Exact comparison of arrays for the io tests: same dtype, same shape, same bytes (so NaN equals the same NaN). */
public final class TestArrays {
    private TestArrays() {
    }

    public static byte[] bytes(NDArray array) {
        NDArray contiguous = array.ascontiguousarray();
        byte[] bytes = new byte[(int) contiguous.byteSize()];
        MemorySegment.copy(contiguous.segment(), contiguous.byteOffset(), MemorySegment.ofArray(bytes), 0, bytes.length);
        return bytes;
    }

    public static void assertSameArray(NDArray expected, NDArray actual, String message) {
        assertEquals(expected.dtype(), actual.dtype(), message + ": dtype");
        assertArrayEquals(expected.shape(), actual.shape(), message + ": shape");
        byte[] expectedBytes = bytes(expected);
        byte[] actualBytes = bytes(actual);
        if (!java.util.Arrays.equals(expectedBytes, actualBytes)) {
            throw new AssertionError(message + ": values differ\nexpected " + expected + "\nactual   " + actual + "\nexpected bytes "
                    + HexFormat.of().formatHex(expectedBytes, 0, Math.min(64, expectedBytes.length)) + "\nactual bytes   "
                    + HexFormat.of().formatHex(actualBytes, 0, Math.min(64, actualBytes.length)));
        }
    }

    /** Deterministic random values of every dtype (full bit patterns for integers, normals for floats). */
    public static NDArray random(DType dtype, long seed, long... shape) {
        NDArray array = NDArray.zeros(dtype, shape);
        SplittableRandom random = new SplittableRandom(seed);
        long size = array.size();
        long[] index = new long[shape.length];
        for (long element = 0; element < size; element++) {
            long rest = element;
            for (int axis = shape.length - 1; axis >= 0; axis--) {
                index[axis] = rest % shape[axis];
                rest /= shape[axis];
            }
            switch (dtype.kind()) {
                case BOOL -> array.setBoolean(random.nextBoolean(), index);
                case SIGNED, UNSIGNED -> array.setLong(random.nextLong(), index);
                case FLOAT -> array.setDouble(Math.round(random.nextGaussian() * 1000) / 8.0, index);
                case COMPLEX -> array.setComplex(new org.tessera.ndarray.dtype.Complex(random.nextGaussian(), random.nextGaussian()), index);
            }
        }
        return array;
    }
}

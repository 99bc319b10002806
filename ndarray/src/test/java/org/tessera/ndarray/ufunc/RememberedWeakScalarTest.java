package org.tessera.ndarray.ufunc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.memory.Scratch;

/**
 * A ufunc remembers how its last array and weak Java scalar resolved and takes that again only for
 * the same dtype and the same scalar in the same place: any other call resolves anew, as NumPy 2's
 * rules say.
 */
class RememberedWeakScalarTest {

    @Test
    void theSameDtypeAndScalarResolveAsBefore() {
        NDArray bytes = NDArrays.full(DType.INT8, 3, 4);
        TypeResolution.Resolved first = TypeResolution.resolve(Ufuncs.ADD, new Object[] {bytes, 1});
        TypeResolution.Resolved again = TypeResolution.resolve(Ufuncs.ADD, new Object[] {NDArrays.full(DType.INT8, 5, 2), 1});
        assertSame(first.loop(), again.loop());
        assertEquals(DType.INT8, again.loop().outputs().getFirst());
        assertFalse(again.inputs()[1].isWriteable(), "the remembered scalar is shared, so read-only");
        assertEquals(4, Ufuncs.ADD.apply(bytes, 1).getLong(0));
    }

    /**
     * A resolution first made inside a task's scratch memory is kept on the ordinary heap: its
     * scalar made in the scratch would be overwritten by the next task that reuses the slab (an
     * argmax's block offset of 600 read as 0 once, in CI).
     */
    @Test
    void aScalarFirstResolvedInScratchMemoryOutlivesIt() throws Exception {
        NDArray positions = NDArrays.full(DType.UINT32, 100, 3);
        Scratch scratch = Scratch.borrow();
        try {
            assertEquals(700, scratch.call(() -> Ufuncs.ADD.apply(positions, 600)).getLong(0));
            scratch.reset();
            scratch.call(() -> {
                NDArray reuse = NDArray.zeros(DType.INT64, 4096);
                reuse.fill(-7);
                return reuse;
            });
        } finally {
            scratch.giveBack();
        }
        assertEquals(700, Ufuncs.ADD.apply(positions, 600).getLong(0));
    }

    @Test
    void anotherScalarDtypeOrPlaceResolvesAnew() {
        NDArray bytes = NDArrays.full(DType.INT8, 3, 4);
        assertEquals(DType.INT8, Ufuncs.ADD.apply(bytes, 1).dtype());
        assertEquals(DType.FLOAT64, Ufuncs.ADD.apply(bytes, 1.0).dtype(), "a Java double beside an int8 array");
        assertEquals(DType.INT8, Ufuncs.ADD.apply(bytes, 1L).dtype());
        assertThrows(ArithmeticException.class, () -> Ufuncs.ADD.apply(bytes, 300), "300 is out of int8's range, whatever resolved before");
        assertEquals(DType.FLOAT32, Ufuncs.ADD.apply(NDArrays.full(DType.FLOAT32, 1, 4), 1).dtype());
        assertEquals(6.5, Ufuncs.ADD.apply(NDArrays.full(DType.FLOAT64, 1, 4), 5.5).getDouble(0));
        assertEquals(-4.5, Ufuncs.SUBTRACT.apply(1, NDArrays.full(DType.FLOAT64, 5.5, 4)).getDouble(0), "the scalar first");
        assertEquals(4.5, Ufuncs.SUBTRACT.apply(NDArrays.full(DType.FLOAT64, 5.5, 4), 1).getDouble(0), "then second");
        assertEquals(0.0, Ufuncs.ADD.apply(NDArrays.full(DType.FLOAT64, 0.0, 1), -0.0).getDouble(0));
        assertEquals(Double.doubleToRawLongBits(-0.0),
                Double.doubleToRawLongBits(Ufuncs.ADD.apply(NDArrays.full(DType.FLOAT64, -0.0, 1), -0.0).getDouble(0)), "-0.0 is not 0.0");
        assertTrue(Ufuncs.LESS.apply(NDArrays.full(DType.INT8, 3, 2), 1000).getBoolean(0), "a comparison takes an int8's out-of-range scalar by value");
        NDArray zeros = NDArrays.full(DType.FLOAT64, 0.0, 1);
        double quiet = Double.longBitsToDouble(0x7ff8000000000001L);
        double other = Double.longBitsToDouble(0x7ff8000000000002L);
        assertEquals(0x7ff8000000000001L, Double.doubleToRawLongBits(Ufuncs.ADD.apply(zeros, quiet).getDouble(0)));
        assertEquals(0x7ff8000000000002L, Double.doubleToRawLongBits(Ufuncs.ADD.apply(zeros, other).getDouble(0)), "another NaN is another scalar");
    }
}

package org.tessera.ndarray.fft;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.ArgumentTypeException;
import org.tessera.ndarray.error.AxisException;
import org.tessera.ndarray.index.Index;

/** The NDArray functions: dtypes, views, round trips, frequencies and NumPy's errors and messages. */
class FftTest {
    private static NDArray randomComplex(Random random, long... shape) {
        NDArray result = NDArray.zeros(DType.COMPLEX128, shape);
        NDArray flat = result.reshape(result.size());
        for (long i = 0; i < result.size(); i++) {
            flat.setComplex(new Complex(random.nextGaussian(), random.nextGaussian()), i);
        }
        return result;
    }

    private static NDArray randomReal(Random random, long... shape) {
        NDArray result = NDArray.zeros(DType.FLOAT64, shape);
        NDArray flat = result.reshape(result.size());
        for (long i = 0; i < result.size(); i++) {
            flat.setDouble(random.nextGaussian(), i);
        }
        return result;
    }

    /** The largest difference of any part relative to the largest modulus of {@code expected}. */
    private static double relativeError(NDArray expected, NDArray actual) {
        assertArrayEquals(expected.shape(), actual.shape());
        NDArray e = expected.astype(DType.COMPLEX128).reshape(expected.size());
        NDArray a = actual.astype(DType.COMPLEX128).reshape(actual.size());
        double largest = 0, error = 0;
        for (long i = 0; i < e.size(); i++) {
            Complex x = e.getComplex(i), y = a.getComplex(i);
            largest = Math.max(largest, Math.hypot(x.real(), x.imag()));
            error = Math.max(error, Math.max(Math.abs(x.real() - y.real()), Math.abs(x.imag() - y.imag())));
        }
        return largest == 0 ? error : error / largest;
    }

    @Test
    void inverseTransformsGiveTheInputBack() {
        Random random = new Random(1);
        for (long n : new long[] {1, 2, 5, 16, 97, 211, 1000, 4099}) {
            NDArray x = randomComplex(random, 3, n);
            assertTrue(relativeError(x, Fft.ifft(Fft.fft(x))) <= 1e-13, "n=" + n);
            NDArray real = randomReal(random, 2, n);
            NDArray back = Fft.irfft(Fft.rfft(real), n, -1, FftNorm.BACKWARD);
            assertTrue(relativeError(real, back) <= 1e-13, "rfft n=" + n);
            for (FftNorm norm : FftNorm.values()) {
                assertTrue(relativeError(x, Fft.ifft(Fft.fft(x, null, -1, norm), null, -1, norm)) <= 1e-13, norm + " n=" + n);
            }
        }
        NDArray cube = randomReal(random, 4, 6, 5);
        assertTrue(relativeError(cube, Fft.irfftn(Fft.rfftn(cube), cube.shape(), null, null)) <= 1e-13);
        NDArray complexCube = randomComplex(random, 3, 4, 7);
        assertTrue(relativeError(complexCube, Fft.ifftn(Fft.fftn(complexCube))) <= 1e-13);
        assertTrue(relativeError(complexCube, Fft.ifft2(Fft.fft2(complexCube))) <= 1e-13);
    }

    @Test
    void viewsTransformLikeTheirCopies() {
        Random random = new Random(2);
        NDArray x = randomComplex(random, 6, 10);
        NDArray transposed = x.transpose();
        assertEquals(0.0, relativeError(Fft.fft(transposed.copy()), Fft.fft(transposed)));
        assertEquals(0.0, relativeError(Fft.fft(x, null, 0, null), Fft.fft(transposed).transpose()));
        NDArray stepped = NDArrays.get(x, Index.range(null, null, 2L), Index.range(9L, null, -3L));
        assertEquals(0.0, relativeError(Fft.fft(stepped.copy()), Fft.fft(stepped)));
        NDArray real = randomReal(random, 8, 6);
        assertEquals(0.0, relativeError(Fft.rfft(real.transpose().copy()), Fft.rfft(real.transpose())));
        NDArray nativeArray = NDArray.zerosNative(DType.COMPLEX128, 6, 10);
        nativeArray.assign(x);
        assertEquals(0.0, relativeError(Fft.fft2(x), Fft.fft2(nativeArray)));
    }

    @Test
    void resultDtypesAreNumPys() {
        long[] shape = {2, 4};
        for (DType dtype : DType.values()) {
            NDArray x = NDArray.zeros(dtype, shape);
            DType complex = dtype == DType.FLOAT16 || dtype == DType.FLOAT32 || dtype == DType.COMPLEX64 ? DType.COMPLEX64 : DType.COMPLEX128;
            assertEquals(complex, Fft.fft(x).dtype(), dtype.toString());
            assertEquals(complex, Fft.ifftn(x).dtype(), dtype.toString());
            assertEquals(dtype == DType.FLOAT16 ? DType.FLOAT16 : complex == DType.COMPLEX64 ? DType.FLOAT32 : DType.FLOAT64,
                    Fft.irfft(x).dtype(), dtype.toString());
            if (!dtype.isComplex()) {
                assertEquals(complex, Fft.rfft(x).dtype(), dtype.toString());
            }
        }
        // Two steps: the ifft of float16 is complex64, whose irfft is float32 (as NumPy's irfftn).
        assertEquals(DType.FLOAT32, Fft.irfftn(NDArray.zeros(DType.FLOAT16, 3, 4)).dtype());
    }

    @Test
    void integerInputsConvertExactly() {
        NDArray x = NDArrays.array(new long[] {1, 2, 3, 4});
        NDArray result = Fft.fft(x);
        assertEquals(new Complex(10, 0), result.getComplex(0));
        assertEquals(new Complex(-2, 2), result.getComplex(1));
        NDArray unsigned = NDArray.zeros(DType.UINT64, 2);
        unsigned.setLong(-1L, 0); // 2^64 - 1
        assertEquals(0x1p64, Fft.fft(unsigned).getComplex(0).real());
        NDArray bools = NDArrays.array(true, false, true);
        assertEquals(new Complex(2, 0), Fft.fft(bools).getComplex(0));
    }

    @Test
    void nCropsAndPads() {
        NDArray x = NDArrays.array(1.0, 2.0, 3.0, 4.0);
        assertEquals(new Complex(3, 0), Fft.fft(x, 2L, 0, null).getComplex(0));
        NDArray padded = Fft.fft(x, 8L, -1, null);
        assertArrayEquals(new long[] {8}, padded.shape());
        assertEquals(new Complex(10, 0), padded.getComplex(0));
        assertArrayEquals(new long[] {5}, Fft.rfft(x, 9L, 0, null).shape());
        assertArrayEquals(new long[] {7}, Fft.irfft(x, 7L, 0, null).shape());
        assertArrayEquals(new long[] {6}, Fft.irfft(x).shape());
        assertArrayEquals(new long[] {0, 8}, Fft.fft(NDArray.zeros(DType.FLOAT64, 0, 8)).shape());
    }

    @Test
    void frequenciesAreNumPys() {
        NDArray frequencies = Fft.fftfreq(8, 0.1);
        double[] expected = {0.0, 1.25, 2.5, 3.75, -5.0, -3.75, -2.5, -1.25};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], frequencies.getDouble(i), 0.0);
        }
        NDArray odd = Fft.fftfreq(5, 1.0);
        assertEquals(-0.4, odd.getDouble(3), 0.0);
        assertEquals(0.4, odd.getDouble(2), 0.0);
        NDArray real = Fft.rfftfreq(9, 0.5);
        assertArrayEquals(new long[] {5}, real.shape());
        assertEquals(4 * (1.0 / (9 * 0.5)), real.getDouble(4), 0.0);
    }

    @Test
    void noAxesReturnTheInput() {
        NDArray x = NDArrays.array(1.0, 2.0);
        assertSame(x, Fft.fftn(x, null, new int[0], null));
    }

    @Test
    void badArgumentsFailAsNumPys() {
        NDArray x = NDArray.zeros(DType.COMPLEX128, 3, 4);
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> Fft.fft(x, 0L, -1, null));
        assertEquals("Invalid number of FFT data points (0) specified.", zero.getMessage());
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> Fft.fft(NDArray.zeros(DType.FLOAT64, 0)));
        assertEquals("Invalid number of FFT data points (0) specified.", empty.getMessage());
        IllegalArgumentException oneValue = assertThrows(IllegalArgumentException.class, () -> Fft.irfft(NDArray.zeros(DType.COMPLEX128, 1)));
        assertEquals("Invalid number of FFT data points (0) specified.", oneValue.getMessage());
        AxisException axis = assertThrows(AxisException.class, () -> Fft.fft(x, 4L, 2, null));
        assertEquals("axis 2 is out of bounds for array of dimension 2", axis.getMessage());
        assertThrows(AxisException.class, () -> Fft.ifft(x, null, -3, null));
        ArgumentTypeException complexInput = assertThrows(ArgumentTypeException.class, () -> Fft.rfft(x));
        assertTrue(complexInput.getMessage().contains("complex128"), complexInput.getMessage());
        IllegalArgumentException lengths = assertThrows(IllegalArgumentException.class,
                () -> Fft.fftn(x, new long[] {3, 4, 5}, new int[] {0, 1}, null));
        assertTrue(lengths.getMessage().startsWith("Shape and axes have different lengths"), lengths.getMessage());
        IndexOutOfBoundsException twoAxes = assertThrows(IndexOutOfBoundsException.class, () -> Fft.fft2(NDArray.zeros(DType.FLOAT64, 5)));
        assertTrue(twoAxes.getMessage().contains("-2"), twoAxes.getMessage());
        IllegalArgumentException norm = assertThrows(IllegalArgumentException.class, () -> FftNorm.parse("Ortho"));
        assertEquals("Invalid norm value Ortho; should be \"backward\", \"ortho\" or \"forward\".", norm.getMessage());
    }
}

package org.tessera.ndarray.linalg;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;

/** The reference: a triple loop over 2-D operands, in long (wrapping), double or complex double. */
final class NaiveProduct {
    private NaiveProduct() {}

    static NDArray multiply(NDArray a, NDArray b, DType dtype) {
        long rows = a.shape(0), depth = a.shape(1), columns = b.shape(1);
        NDArray result = NDArray.zeros(dtype, rows, columns);
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < columns; j++) {
                switch (dtype.kind()) {
                    case BOOL, SIGNED, UNSIGNED -> {
                        long sum = 0;
                        for (long p = 0; p < depth; p++) {
                            sum += a.getLong(i, p) * b.getLong(p, j);
                        }
                        result.setLong(sum, i, j);
                    }
                    case FLOAT -> {
                        double sum = 0;
                        for (long p = 0; p < depth; p++) {
                            sum += a.getDouble(i, p) * b.getDouble(p, j);
                        }
                        result.setDouble(sum, i, j);
                    }
                    case COMPLEX -> {
                        double real = 0, imag = 0;
                        for (long p = 0; p < depth; p++) {
                            Complex x = a.getComplex(i, p), y = b.getComplex(p, j);
                            real += x.real() * y.real() - x.imag() * y.imag();
                            imag += x.real() * y.imag() + x.imag() * y.real();
                        }
                        result.setComplex(new Complex(real, imag), i, j);
                    }
                }
            }
        }
        return result;
    }
}

package org.tessera.ndarray.linalg;

import java.util.Random;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;

/** Random test arrays: small integers (so products stay exact where they should) or uniform floats. */
final class RandomArrays {
    private RandomArrays() {}

    static NDArray random(Random random, DType dtype, long... shape) {
        NDArray result = NDArray.zeros(dtype, shape);
        NDArray flat = result.reshape(result.size());
        for (long i = 0; i < flat.size(); i++) {
            switch (dtype.kind()) {
                case BOOL -> flat.setBoolean(random.nextInt(3) == 0, i);
                case SIGNED -> flat.setLong(random.nextInt(200) - 100, i);
                case UNSIGNED -> flat.setLong(random.nextInt(256), i);
                case FLOAT -> flat.setDouble(random.nextDouble() * 2 - 1, i);
                case COMPLEX -> flat.setComplex(new Complex(random.nextDouble() * 2 - 1, random.nextDouble() * 2 - 1), i);
            }
        }
        return result;
    }
}

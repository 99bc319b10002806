package org.tessera.ndarray.sort;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.kernel.Elements;
import org.tessera.ndarray.dtype.DType;

/**
 * One lane of elements loaded into its carrier, with NumPy's sort order. {@code compare} returns
 * a negative number, zero or a positive number as element i sorts before, with, or after element j.
 */
sealed interface Keys permits Keys.Integers, Keys.Reals, Keys.Complexes {
    int length();

    int compare(int i, int j);

    /** Whether element i is NaN (for complex: either part), which unique may treat as all equal. */
    boolean isNan(int i);

    /** Loads {@code length} elements starting at {@code byteOffset}, {@code byteStride} bytes apart. */
    static Keys load(DType dtype, MemorySegment segment, long byteOffset, long byteStride, int length) {
        return switch (dtype.kind()) {
            case BOOL, SIGNED, UNSIGNED -> {
                long[] values = new long[length];
                if (dtype.byteSize() == Long.BYTES && byteStride == Long.BYTES) {
                    MemorySegment.copy(segment, ValueLayout.JAVA_LONG_UNALIGNED, byteOffset, values, 0, length);
                    yield new Integers(values, dtype == DType.UINT64);
                }
                for (int i = 0; i < length; i++) {
                    values[i] = Elements.loadLong(dtype, segment, byteOffset + i * byteStride);
                }
                yield new Integers(values, dtype == DType.UINT64);
            }
            case FLOAT -> {
                double[] values = new double[length];
                if (dtype == DType.FLOAT64 && byteStride == Double.BYTES) {
                    MemorySegment.copy(segment, ValueLayout.JAVA_DOUBLE_UNALIGNED, byteOffset, values, 0, length);
                    yield new Reals(values);
                }
                for (int i = 0; i < length; i++) {
                    values[i] = Elements.loadReal(dtype, segment, byteOffset + i * byteStride);
                }
                yield new Reals(values);
            }
            case COMPLEX -> {
                double[] real = new double[length];
                double[] imag = new double[length];
                for (int i = 0; i < length; i++) {
                    real[i] = Elements.loadReal(dtype, segment, byteOffset + i * byteStride);
                    imag[i] = Elements.loadImag(dtype, segment, byteOffset + i * byteStride);
                }
                yield new Complexes(real, imag);
            }
        };
    }

    /** Lanes at least this long are sorted by the fork-join pool. */
    int PARALLEL_SORT_LENGTH = 1 << 16;

    private static void sortPrimitive(long[] values) {
        if (values.length >= PARALLEL_SORT_LENGTH) {
            java.util.Arrays.parallelSort(values);
        } else {
            java.util.Arrays.sort(values);
        }
    }

    private static void sortPrimitive(double[] values) {
        if (values.length >= PARALLEL_SORT_LENGTH) {
            java.util.Arrays.parallelSort(values);
        } else {
            java.util.Arrays.sort(values);
        }
    }

    /** NumPy's float order: NaN after everything, -0.0 equal to 0.0 (unlike {@link Double#compare}). */
    static int compareReal(double x, double y) {
        if (x < y) {
            return -1;
        }
        if (x > y) {
            return 1;
        }
        boolean xNan = x != x, yNan = y != y;
        return xNan == yNan ? 0 : (xNan ? 1 : -1);
    }

    /** Bool and integers; the unsigned flag matters only for uint64, whose carrier may look negative. */
    record Integers(long[] values, boolean unsigned) implements Keys {
        public int length() { return values.length; }

        public int compare(int i, int j) {
            return unsigned ? Long.compareUnsigned(values[i], values[j]) : Long.compare(values[i], values[j]);
        }

        public boolean isNan(int i) { return false; }

        /** Sorts the values themselves (uint64 by flipping the sign bit so signed order is unsigned order). */
        void sortValues() {
            long flip = unsigned ? Long.MIN_VALUE : 0;
            for (int i = 0; i < values.length; i++) {
                values[i] ^= flip;
            }
            sortPrimitive(values);
            for (int i = 0; i < values.length; i++) {
                values[i] ^= flip;
            }
        }
    }

    record Reals(double[] values) implements Keys {
        public int length() { return values.length; }

        public int compare(int i, int j) { return compareReal(values[i], values[j]); }

        public boolean isNan(int i) { return Double.isNaN(values[i]); }

        /**
         * Sorts the values themselves. {@link java.util.Arrays#sort(double[])} already puts NaN
         * last but orders -0.0 before 0.0, so the zeros are rewritten with their signs in input
         * order, which is what a stable sort in NumPy's order gives.
         */
        void sortValues() {
            boolean[] zeroIsNegative = new boolean[values.length];
            int zeroCount = 0;
            for (double value : values) {
                if (value == 0) {
                    zeroIsNegative[zeroCount++] = Double.doubleToRawLongBits(value) != 0;
                }
            }
            sortPrimitive(values);
            int firstZero = 0;
            while (firstZero < values.length && !(values[firstZero] == 0)) {
                firstZero++;
            }
            for (int k = 0; k < zeroCount; k++) {
                values[firstZero + k] = zeroIsNegative[k] ? -0.0 : 0.0;
            }
        }
    }

    /**
     * Complex order: first by where the NaNs are (none, imaginary, real, both), then by the parts
     * that are not NaN, real before imaginary. This is the order NumPy's complex less-than gives.
     */
    record Complexes(double[] real, double[] imag) implements Keys {
        public int length() { return real.length; }

        public int compare(int i, int j) {
            int placement = Integer.compare(nanPlacement(i), nanPlacement(j));
            if (placement != 0) {
                return placement;
            }
            int byReal = compareReal(real[i], real[j]);
            return byReal != 0 ? byReal : compareReal(imag[i], imag[j]);
        }

        public boolean isNan(int i) { return nanPlacement(i) != 0; }

        private int nanPlacement(int i) {
            return (Double.isNaN(real[i]) ? 2 : 0) + (Double.isNaN(imag[i]) ? 1 : 0);
        }
    }
}

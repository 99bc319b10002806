package org.tessera.ndarray.fft;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.kernel.Elements;

/**
 * Copies one line of an array (start offset and byte stride along the transformed axis) into a
 * double buffer and back, converting from and to the array's dtype. Complex buffers are
 * interleaved; real ones plain.
 */
final class Lines {
    private Lines() {}

    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;

    /** {@code count} elements as complex values into {@code buffer[at .. at + 2 count)} (real types get a zero imaginary part). */
    static void loadComplex(DType dtype, MemorySegment segment, long offset, long stride, int count, double[] buffer, int at) {
        switch (dtype) {
            case COMPLEX128 -> {
                if (stride == 16) {
                    MemorySegment.copy(segment, F64, offset, buffer, at, 2 * count);
                } else {
                    for (int k = 0; k < count; k++) {
                        long from = offset + k * stride;
                        buffer[at + 2 * k] = segment.get(F64, from);
                        buffer[at + 2 * k + 1] = segment.get(F64, from + 8);
                    }
                }
            }
            case COMPLEX64 -> {
                for (int k = 0; k < count; k++) {
                    long from = offset + k * stride;
                    buffer[at + 2 * k] = segment.get(F32, from);
                    buffer[at + 2 * k + 1] = segment.get(F32, from + 4);
                }
            }
            case FLOAT64 -> {
                for (int k = 0; k < count; k++) {
                    buffer[at + 2 * k] = segment.get(F64, offset + k * stride);
                    buffer[at + 2 * k + 1] = 0.0;
                }
            }
            default -> {
                for (int k = 0; k < count; k++) {
                    buffer[at + 2 * k] = realValue(dtype, segment, offset + k * stride);
                    buffer[at + 2 * k + 1] = 0.0;
                }
            }
        }
    }

    /** {@code count} elements of a real dtype into {@code buffer[at .. at + count)}. */
    static void loadReal(DType dtype, MemorySegment segment, long offset, long stride, int count, double[] buffer, int at) {
        if (dtype == DType.FLOAT64) {
            if (stride == 8) {
                MemorySegment.copy(segment, F64, offset, buffer, at, count);
            } else {
                for (int k = 0; k < count; k++) {
                    buffer[at + k] = segment.get(F64, offset + k * stride);
                }
            }
            return;
        }
        for (int k = 0; k < count; k++) {
            buffer[at + k] = realValue(dtype, segment, offset + k * stride);
        }
    }

    /** A bool, integer or float element as a double (uint64 unsigned). */
    private static double realValue(DType dtype, MemorySegment segment, long at) {
        if (dtype.isFloat()) {
            return Elements.loadReal(dtype, segment, at);
        }
        long value = Elements.loadLong(dtype, segment, at);
        if (dtype == DType.UINT64 && value < 0) {
            // Unsigned: the high bit worth 2^63, rounded as a conversion of the exact value.
            return (double) (value >>> 1 | (value & 1)) * 2.0;
        }
        return value;
    }

    /** {@code count} interleaved complex values from the buffer into a complex line. */
    static void storeComplex(double[] buffer, DType dtype, MemorySegment segment, long offset, long stride, int count) {
        if (dtype == DType.COMPLEX128) {
            if (stride == 16) {
                MemorySegment.copy(buffer, 0, segment, F64, offset, 2 * count);
            } else {
                for (int k = 0; k < count; k++) {
                    long at = offset + k * stride;
                    segment.set(F64, at, buffer[2 * k]);
                    segment.set(F64, at + 8, buffer[2 * k + 1]);
                }
            }
        } else if (dtype == DType.COMPLEX64) {
            for (int k = 0; k < count; k++) {
                long at = offset + k * stride;
                segment.set(F32, at, (float) buffer[2 * k]);
                segment.set(F32, at + 4, (float) buffer[2 * k + 1]);
            }
        } else {
            throw new IllegalArgumentException("an FFT result of dtype " + dtype + " is not complex");
        }
    }

    /** {@code count} reals from the buffer into a float line (rounded to its dtype). */
    static void storeReal(double[] buffer, DType dtype, MemorySegment segment, long offset, long stride, int count) {
        if (dtype == DType.FLOAT64 && stride == 8) {
            MemorySegment.copy(buffer, 0, segment, F64, offset, count);
            return;
        }
        for (int k = 0; k < count; k++) {
            Elements.storeReal(dtype, segment, offset + k * stride, buffer[k]);
        }
    }

    // ---------------------------------------------------------------- blocks of lines
    // Lines next to each other in memory (a step of `lineStep` bytes apart) are moved together, element k of
    // every line before element k + 1, so that a line along a long-strided axis costs a few cache lines and
    // pages per block instead of one per element. In the buffer, line l starts at l * lineDoubles.

    /** {@code lines} lines of {@code count} elements each as complex values into the buffer. */
    static void loadComplexBlock(DType dtype, MemorySegment segment, long offset, long stride, long lineStep, int lines, int count,
                                 double[] buffer, int lineDoubles) {
        for (int k = 0; k < count; k++) {
            long row = offset + k * stride;
            switch (dtype) {
                case COMPLEX128 -> {
                    for (int l = 0; l < lines; l++) {
                        long from = row + l * lineStep;
                        buffer[l * lineDoubles + 2 * k] = segment.get(F64, from);
                        buffer[l * lineDoubles + 2 * k + 1] = segment.get(F64, from + 8);
                    }
                }
                case FLOAT64 -> {
                    for (int l = 0; l < lines; l++) {
                        buffer[l * lineDoubles + 2 * k] = segment.get(F64, row + l * lineStep);
                        buffer[l * lineDoubles + 2 * k + 1] = 0.0;
                    }
                }
                default -> {
                    for (int l = 0; l < lines; l++) {
                        long from = row + l * lineStep;
                        buffer[l * lineDoubles + 2 * k] = dtype.isComplex() ? Elements.loadReal(dtype, segment, from) : realValue(dtype, segment, from);
                        buffer[l * lineDoubles + 2 * k + 1] = dtype.isComplex() ? Elements.loadImag(dtype, segment, from) : 0.0;
                    }
                }
            }
        }
    }

    /** {@code lines} lines of {@code count} elements of a real dtype into the buffer. */
    static void loadRealBlock(DType dtype, MemorySegment segment, long offset, long stride, long lineStep, int lines, int count,
                              double[] buffer, int lineDoubles) {
        for (int k = 0; k < count; k++) {
            long row = offset + k * stride;
            if (dtype == DType.FLOAT64) {
                for (int l = 0; l < lines; l++) {
                    buffer[l * lineDoubles + k] = segment.get(F64, row + l * lineStep);
                }
            } else {
                for (int l = 0; l < lines; l++) {
                    buffer[l * lineDoubles + k] = realValue(dtype, segment, row + l * lineStep);
                }
            }
        }
    }

    /** {@code count} complex values of each of {@code lines} buffer lines into a complex array. */
    static void storeComplexBlock(double[] buffer, int lineDoubles, DType dtype, MemorySegment segment, long offset, long stride, long lineStep,
                                  int lines, int count) {
        for (int k = 0; k < count; k++) {
            long row = offset + k * stride;
            if (dtype == DType.COMPLEX128) {
                for (int l = 0; l < lines; l++) {
                    long to = row + l * lineStep;
                    segment.set(F64, to, buffer[l * lineDoubles + 2 * k]);
                    segment.set(F64, to + 8, buffer[l * lineDoubles + 2 * k + 1]);
                }
            } else {
                for (int l = 0; l < lines; l++) {
                    Elements.storeComplex(dtype, segment, row + l * lineStep, buffer[l * lineDoubles + 2 * k], buffer[l * lineDoubles + 2 * k + 1]);
                }
            }
        }
    }

    /** {@code count} reals of each of {@code lines} buffer lines into a float array. */
    static void storeRealBlock(double[] buffer, int lineDoubles, DType dtype, MemorySegment segment, long offset, long stride, long lineStep,
                               int lines, int count) {
        for (int k = 0; k < count; k++) {
            long row = offset + k * stride;
            if (dtype == DType.FLOAT64) {
                for (int l = 0; l < lines; l++) {
                    segment.set(F64, row + l * lineStep, buffer[l * lineDoubles + k]);
                }
            } else {
                for (int l = 0; l < lines; l++) {
                    Elements.storeReal(dtype, segment, row + l * lineStep, buffer[l * lineDoubles + k]);
                }
            }
        }
    }
}

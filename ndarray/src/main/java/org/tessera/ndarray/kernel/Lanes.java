package org.tessera.ndarray.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.dtype.DType;

/**
 * Block moves between strided memory and the three computing lanes of the ufunc loops: {@code long[]}
 * for bool and integers (unsigned zero-extended, uint64 as raw bits), {@code double[]} for floats
 * (float16 and float32 widened exactly) and {@code double[]} of interleaved real and imaginary
 * parts, twice as long, for complex types. The dtype switch sits outside each counted loop, so
 * every loop is a plain typed copy the JIT compiles once per dtype.
 */
public final class Lanes {
    private Lanes() {}

    /** Whether values of {@code dtype} travel in the long lane (bool, integers) rather than the double lane. */
    public static boolean isLongLane(DType dtype) {
        return dtype.isBool() || dtype.isInteger();
    }

    /** Loads {@code count} bool or integer elements into {@code target[0..count)}. */
    public static void loadLongs(DType dtype, MemorySegment segment, long offset, long stride, long[] target, int count) {
        if (stride == dtype.byteSize() && loadContiguousLongs(dtype, segment, offset, target, count)) {
            return;
        }
        switch (dtype) {
            case BOOL -> { for (int i = 0; i < count; i++) { target[i] = segment.get(ValueLayout.JAVA_BYTE, offset + i * stride) != 0 ? 1 : 0; } }
            case INT8 -> { for (int i = 0; i < count; i++) { target[i] = segment.get(ValueLayout.JAVA_BYTE, offset + i * stride); } }
            case UINT8 -> { for (int i = 0; i < count; i++) { target[i] = segment.get(ValueLayout.JAVA_BYTE, offset + i * stride) & 0xffL; } }
            case INT16 -> { for (int i = 0; i < count; i++) { target[i] = segment.get(Elements.I16, offset + i * stride); } }
            case UINT16 -> { for (int i = 0; i < count; i++) { target[i] = segment.get(Elements.I16, offset + i * stride) & 0xffffL; } }
            case INT32 -> { for (int i = 0; i < count; i++) { target[i] = segment.get(Elements.I32, offset + i * stride); } }
            case UINT32 -> { for (int i = 0; i < count; i++) { target[i] = segment.get(Elements.I32, offset + i * stride) & 0xffffffffL; } }
            case INT64, UINT64 -> { for (int i = 0; i < count; i++) { target[i] = segment.get(Elements.I64, offset + i * stride); } }
            default -> throw new IllegalArgumentException("dtype " + dtype + " does not travel in the long lane");
        }
    }

    /**
     * Contiguous 32- and 64-bit integers move with one bulk copy (and a widening loop over Java
     * arrays that C2 vectorises) instead of a bounds-checked access per element.
     */
    private static boolean loadContiguousLongs(DType dtype, MemorySegment segment, long offset, long[] target, int count) {
        switch (dtype) {
            case INT64, UINT64 -> MemorySegment.copy(segment, Elements.I64, offset, target, 0, count);
            case INT32, UINT32 -> {
                int[] narrow = new int[count];
                MemorySegment.copy(segment, Elements.I32, offset, narrow, 0, count);
                if (dtype == DType.INT32) {
                    for (int i = 0; i < count; i++) {
                        target[i] = narrow[i];
                    }
                } else {
                    for (int i = 0; i < count; i++) {
                        target[i] = narrow[i] & 0xffffffffL;
                    }
                }
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /** Stores the low bits of {@code source[0..count)} (bool stores value != 0). */
    public static void storeLongs(DType dtype, long[] source, int sourceStart, MemorySegment segment, long offset, long stride, int count) {
        if (stride == 8 && (dtype == DType.INT64 || dtype == DType.UINT64)) {
            MemorySegment.copy(source, sourceStart, segment, Elements.I64, offset, count);
            return;
        }
        if (stride == 4 && (dtype == DType.INT32 || dtype == DType.UINT32)) {
            int[] narrowed = new int[count];
            for (int i = 0; i < count; i++) {
                narrowed[i] = (int) source[sourceStart + i];
            }
            MemorySegment.copy(narrowed, 0, segment, Elements.I32, offset, count);
            return;
        }
        switch (dtype) {
            case BOOL -> { for (int i = 0; i < count; i++) { segment.set(ValueLayout.JAVA_BYTE, offset + i * stride, (byte) (source[sourceStart + i] != 0 ? 1 : 0)); } }
            case INT8, UINT8 -> { for (int i = 0; i < count; i++) { segment.set(ValueLayout.JAVA_BYTE, offset + i * stride, (byte) source[sourceStart + i]); } }
            case INT16, UINT16 -> { for (int i = 0; i < count; i++) { segment.set(Elements.I16, offset + i * stride, (short) source[sourceStart + i]); } }
            case INT32, UINT32 -> { for (int i = 0; i < count; i++) { segment.set(Elements.I32, offset + i * stride, (int) source[sourceStart + i]); } }
            case INT64, UINT64 -> { for (int i = 0; i < count; i++) { segment.set(Elements.I64, offset + i * stride, source[sourceStart + i]); } }
            default -> throw new IllegalArgumentException("dtype " + dtype + " does not travel in the long lane");
        }
    }

    /** Loads {@code count} float elements, widened to double. */
    public static void loadDoubles(DType dtype, MemorySegment segment, long offset, long stride, double[] target, int count) {
        if (stride == 8 && dtype == DType.FLOAT64) {
            MemorySegment.copy(segment, Elements.F64, offset, target, 0, count);
            return;
        }
        if (stride == 4 && dtype == DType.FLOAT32) {
            float[] narrow = new float[count];
            MemorySegment.copy(segment, Elements.F32, offset, narrow, 0, count);
            for (int i = 0; i < count; i++) {
                target[i] = narrow[i];
            }
            return;
        }
        switch (dtype) {
            case FLOAT16 -> { for (int i = 0; i < count; i++) { target[i] = Float.float16ToFloat(segment.get(Elements.I16, offset + i * stride)); } }
            case FLOAT32 -> { for (int i = 0; i < count; i++) { target[i] = segment.get(Elements.F32, offset + i * stride); } }
            case FLOAT64 -> { for (int i = 0; i < count; i++) { target[i] = segment.get(Elements.F64, offset + i * stride); } }
            default -> throw new IllegalArgumentException("dtype " + dtype + " does not travel in the double lane");
        }
    }

    /** Stores {@code source[0..count)} rounded once to the float type. */
    public static void storeDoubles(DType dtype, double[] source, int sourceStart, MemorySegment segment, long offset, long stride, int count) {
        if (stride == 8 && dtype == DType.FLOAT64) {
            MemorySegment.copy(source, sourceStart, segment, Elements.F64, offset, count);
            return;
        }
        if (stride == 4 && dtype == DType.FLOAT32) {
            float[] narrowed = new float[count];
            for (int i = 0; i < count; i++) {
                narrowed[i] = (float) source[sourceStart + i];
            }
            MemorySegment.copy(narrowed, 0, segment, Elements.F32, offset, count);
            return;
        }
        switch (dtype) {
            case FLOAT16 -> { for (int i = 0; i < count; i++) { segment.set(Elements.I16, offset + i * stride, Float16s.fromDouble(source[sourceStart + i])); } }
            case FLOAT32 -> { for (int i = 0; i < count; i++) { segment.set(Elements.F32, offset + i * stride, (float) source[sourceStart + i]); } }
            case FLOAT64 -> { for (int i = 0; i < count; i++) { segment.set(Elements.F64, offset + i * stride, source[sourceStart + i]); } }
            default -> throw new IllegalArgumentException("dtype " + dtype + " does not travel in the double lane");
        }
    }

    /** Rounds double-lane values to the precision of {@code dtype} in place (a cast from float64). */
    public static void roundTo(DType dtype, double[] values, int count) {
        switch (dtype) {
            case FLOAT16 -> { for (int i = 0; i < count; i++) { values[i] = Float.float16ToFloat(Float16s.fromDouble(values[i])); } }
            case FLOAT32 -> { for (int i = 0; i < count; i++) { values[i] = (float) values[i]; } }
            default -> { }
        }
    }

    /** Wraps long-lane values to the width and signedness of {@code dtype} in place (an integer cast). */
    public static void wrapTo(DType dtype, long[] values, int count) {
        for (int i = 0; i < count; i++) {
            values[i] = wrap(dtype, values[i]);
        }
    }

    /** The low bits of {@code value} as a long-lane value of {@code dtype} (sign- or zero-extended). */
    public static long wrap(DType dtype, long value) {
        return switch (dtype) {
            case BOOL -> value != 0 ? 1 : 0;
            case INT8 -> (byte) value;
            case UINT8 -> value & 0xffL;
            case INT16 -> (short) value;
            case UINT16 -> value & 0xffffL;
            case INT32 -> (int) value;
            case UINT32 -> value & 0xffffffffL;
            default -> value;
        };
    }

    /** Integer lane values of {@code from} (uint64 unsigned) as doubles, rounded once to the float {@code to}. */
    public static void longsToDoubles(DType from, long[] source, DType to, double[] target, int count) {
        for (int i = 0; i < count; i++) {
            long value = source[i];
            if (to == DType.FLOAT32) {
                target[i] = from == DType.UINT64 && value < 0 ? unsignedToFloat(value) : (float) value;
            } else {
                target[i] = from == DType.UINT64 && value < 0 ? unsignedToDouble(value) : (double) value;
            }
        }
        if (to == DType.FLOAT16) {
            roundTo(to, target, count);
        }
    }

    /** Double values converted to integers as NumPy's unsafe cast does (see {@link Casts}). */
    public static void doublesToLongs(double[] source, DType to, long[] target, int count) {
        for (int i = 0; i < count; i++) {
            target[i] = toInteger(source[i], to);
        }
    }

    /** One double converted to the long-lane value of bool or an integer type, as NumPy's unsafe cast. */
    public static long toInteger(double value, DType to) {
        if (to == DType.BOOL) {
            return value != 0 || Double.isNaN(value) ? 1 : 0;
        }
        return wrap(to, Casts.truncate(value, to));
    }

    /** A lane buffer for {@code count} values of {@code dtype}. */
    public static Object buffer(DType dtype, int count) {
        return isLongLane(dtype) ? new long[count] : new double[dtype.isComplex() ? 2 * count : count];
    }

    /** Loads {@code count} complex elements as interleaved (real, imaginary) doubles. */
    public static void loadComplex(DType dtype, MemorySegment segment, long offset, long stride, double[] target, int count) {
        if (dtype == DType.COMPLEX64) {
            for (int i = 0; i < count; i++) {
                target[2 * i] = segment.get(Elements.F32, offset + i * stride);
                target[2 * i + 1] = segment.get(Elements.F32, offset + i * stride + 4);
            }
        } else {
            for (int i = 0; i < count; i++) {
                target[2 * i] = segment.get(Elements.F64, offset + i * stride);
                target[2 * i + 1] = segment.get(Elements.F64, offset + i * stride + 8);
            }
        }
    }

    /** Stores interleaved complex values from index {@code sourceStart} (counted in elements). */
    public static void storeComplex(DType dtype, double[] source, int sourceStart, MemorySegment segment, long offset, long stride, int count) {
        for (int i = 0; i < count; i++) {
            int at = 2 * (sourceStart + i);
            Elements.storeComplex(dtype, segment, offset + i * stride, source[at], source[at + 1]);
        }
    }

    /** Loads {@code count} elements of {@code dtype} into its lane buffer. */
    public static void load(DType dtype, MemorySegment segment, long offset, long stride, Object target, int count) {
        if (dtype.isComplex()) {
            loadComplex(dtype, segment, offset, stride, (double[]) target, count);
        } else if (isLongLane(dtype)) {
            loadLongs(dtype, segment, offset, stride, (long[]) target, count);
        } else {
            loadDoubles(dtype, segment, offset, stride, (double[]) target, count);
        }
    }

    /** Stores {@code source[sourceStart, sourceStart + count)} of {@code dtype}'s lane. */
    public static void store(DType dtype, Object source, int sourceStart, MemorySegment segment, long offset, long stride, int count) {
        if (dtype.isComplex()) {
            storeComplex(dtype, (double[]) source, sourceStart, segment, offset, stride, count);
        } else if (isLongLane(dtype)) {
            storeLongs(dtype, (long[]) source, sourceStart, segment, offset, stride, count);
        } else {
            storeDoubles(dtype, (double[]) source, sourceStart, segment, offset, stride, count);
        }
    }

    /** Casts lane values of {@code from} into the lane buffer of {@code to}, as NumPy's unsafe cast. */
    public static void convert(DType from, Object source, DType to, Object target, int count) {
        if (from.isComplex() || to.isComplex()) {
            convertComplex(from, source, to, target, count);
            return;
        }
        boolean fromLong = isLongLane(from);
        boolean toLong = isLongLane(to);
        if (fromLong && toLong) {
            System.arraycopy(source, 0, target, 0, count);
            wrapTo(to, (long[]) target, count);
        } else if (fromLong) {
            longsToDoubles(from, (long[]) source, to, (double[]) target, count);
        } else if (toLong) {
            doublesToLongs((double[]) source, to, (long[]) target, count);
        } else {
            System.arraycopy(source, 0, target, 0, count);
            roundTo(to, (double[]) target, count);
        }
    }

    /** Casts into or out of the complex lane through the real lane of the part type. */
    private static void convertComplex(DType from, Object source, DType to, Object target, int count) {
        if (from.isComplex() && to.isComplex()) {
            double[] values = (double[]) target;
            System.arraycopy(source, 0, values, 0, 2 * count);
            roundTo(to.realType(), values, 2 * count);
        } else if (to.isComplex()) {
            double[] reals = new double[count];
            convert(from, source, to.realType(), reals, count);
            double[] values = (double[]) target;
            for (int i = 0; i < count; i++) {
                values[2 * i] = reals[i];
                values[2 * i + 1] = 0.0;
            }
        } else if (to.isBool()) {
            // A complex number is true when either part is nonzero (NumPy's cast to bool), not by its real part.
            double[] complexValues = (double[]) source;
            long[] truths = (long[]) target;
            for (int i = 0; i < count; i++) {
                truths[i] = complexValues[2 * i] != 0 || complexValues[2 * i + 1] != 0 ? 1 : 0;
            }
        } else {
            double[] complexValues = (double[]) source;
            double[] reals = new double[count];
            for (int i = 0; i < count; i++) {
                reals[i] = complexValues[2 * i];
            }
            convert(from.realType(), reals, to, target, count);
        }
    }

    /** The unsigned value of uint64 bits as the nearest double. */
    public static double unsignedToDouble(long bits) {
        if (bits >= 0) {
            return bits;
        }
        // Halve with the lost bit kept sticky so the final rounding stays correct.
        return ((bits >>> 1) | (bits & 1)) * 2.0;
    }

    private static float unsignedToFloat(long bits) {
        return (float) (((bits >>> 1) | (bits & 1)) * 2.0f);
    }
}

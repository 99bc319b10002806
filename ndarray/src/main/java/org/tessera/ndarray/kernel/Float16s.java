package org.tessera.ndarray.kernel;

/** Conversions to IEEE binary16 that round once, as NumPy's double-to-half cast does. */
public final class Float16s {
    private Float16s() {}

    /**
     * Rounds a double straight to half precision. Going through float first would round twice
     * and can differ from NumPy in the last bit, so values are rounded from the double.
     */
    public static short fromDouble(double value) {
        float narrowed = (float) value;
        short candidate = Float.floatToFloat16(narrowed);
        if ((double) narrowed == value || Double.isNaN(value) || Double.isInfinite(value)) {
            return candidate;
        }
        double candidateValue = Float.float16ToFloat(candidate);
        if (Double.isInfinite(candidateValue)) {
            // 65520 is the halfway point between the largest half (65504) and infinity.
            return Math.abs(value) >= 65520.0 ? candidate : (short) (value > 0 ? 0x7bff : 0xfbff);
        }
        // Double rounding can only go wrong when the float lands exactly halfway between two halves.
        short below = candidate;
        short other = (short) (candidateValue > value ? nextDown(candidate) : nextUp(candidate));
        double otherValue = Float.float16ToFloat(other);
        if (Double.isNaN(otherValue)) {
            return candidate;
        }
        double candidateError = Math.abs(candidateValue - value);
        double otherError = Math.abs(otherValue - value);
        if (otherError < candidateError) {
            return other;
        }
        if (otherError == candidateError && (other & 1) == 0) {
            return other;
        }
        return below;
    }

    private static int nextUp(short half) {
        int bits = half & 0xffff;
        if (bits == 0x8000) {
            return 0x0001;
        }
        return (bits & 0x8000) != 0 ? bits - 1 : bits + 1;
    }

    private static int nextDown(short half) {
        int bits = half & 0xffff;
        if (bits == 0x0000) {
            return 0x8001;
        }
        return (bits & 0x8000) != 0 ? bits + 1 : bits - 1;
    }
}

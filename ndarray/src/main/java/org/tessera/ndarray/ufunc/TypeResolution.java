package org.tessera.ndarray.ufunc;

import java.math.BigInteger;
import java.util.List;
import java.util.StringJoiner;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.Casting;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.dtype.Promotion;
import org.tessera.ndarray.error.CastingException;
import org.tessera.ndarray.memory.Scratch;

/**
 * Picks a ufunc's loop the way NumPy 2 does for its built-in loops. Weak Java scalars (NEP 50)
 * first take the promoted dtype of all operands (a Java int next to an int8 array is int8, a
 * Java double next to it float64); then the loops are searched in order for the first one every
 * input casts to safely. A Java integer outside its dtype's range is NumPy's OverflowError.
 */
final class TypeResolution {
    private TypeResolution() {}

    /** The chosen loop and the inputs as arrays (weak scalars made 0-d arrays of their dtype). */
    record Resolved(Loop loop, NDArray[] inputs) {}

    /**
     * How an array of {@code dtype} and the weak scalar {@code scalar} at {@code scalarPosition}
     * resolved: the loop, and the scalar as the read-only 0-d array the loop reads.
     */
    record WeakPair(DType dtype, int scalarPosition, Object scalar, Loop loop, NDArray scalarArray) {
        /**
         * Whether {@code operands} are an array of this dtype and this scalar in these places: of the
         * same class and equal, a floating scalar bit for bit (NaN payloads and the zeros' signs).
         */
        boolean matches(Object[] operands) {
            Object weak = operands[scalarPosition];
            return operands[1 - scalarPosition] instanceof NDArray array && array.dtype() == dtype && weak != null
                    && weak.getClass() == scalar.getClass() && sameBits(weak, scalar);
        }

        private static boolean sameBits(Object one, Object other) {
            return switch (one) {
                case Double real -> Double.doubleToRawLongBits(real) == Double.doubleToRawLongBits((Double) other);
                case Float real -> Float.floatToRawIntBits(real) == Float.floatToRawIntBits((Float) other);
                default -> one.equals(other);
            };
        }

        Resolved resolved(Object[] operands) {
            NDArray array = (NDArray) operands[1 - scalarPosition];
            return new Resolved(loop, scalarPosition == 0 ? new NDArray[] {scalarArray, array} : new NDArray[] {array, scalarArray});
        }
    }

    static Resolved resolve(Ufunc ufunc, Object[] operands) {
        WeakPair last = operands.length == 2 ? ufunc.lastWeakPair() : null;
        if (last != null && last.matches(operands)) {
            return last.resolved(operands);
        }
        Resolved resolved = resolveAnew(ufunc, operands);
        int scalarPosition = operands.length != 2 ? -1 : operands[0] instanceof NDArray ? 1 : 0;
        if (scalarPosition >= 0 && operands[1 - scalarPosition] instanceof NDArray array && isImmutableScalar(operands[scalarPosition])) {
            NDArray scalarArray = kept(operands[scalarPosition], resolved.loop().inputs().get(scalarPosition));
            ufunc.rememberWeakPair(new WeakPair(array.dtype(), scalarPosition, operands[scalarPosition], resolved.loop(), scalarArray));
        }
        return resolved;
    }

    /**
     * The weak scalar as a read-only 0-d array on the ordinary heap: inside a task's scratch memory
     * this call's own scalar lives in a slab the next task overwrites (an argmax's block offset,
     * kept from one task, read as another's in the next).
     */
    private static NDArray kept(Object scalar, DType dtype) {
        return Scratch.outsideOf(() -> weakScalar(scalar, dtype)).readOnly();
    }

    /** Java's boxed numbers and booleans: a value that cannot change while a resolution keeps it. */
    private static boolean isImmutableScalar(Object operand) {
        return operand instanceof Double || operand instanceof Long || operand instanceof Integer || operand instanceof Boolean
                || operand instanceof Float || operand instanceof Short || operand instanceof Byte;
    }

    private static Resolved resolveAnew(Ufunc ufunc, Object[] operands) {
        boolean anyWeak = false;
        for (Object operand : operands) {
            anyWeak |= !(operand instanceof NDArray);
        }
        DType common = anyWeak ? Promotion.resultType(promotionOperands(operands)) : null;
        DType[] dtypes = new DType[operands.length];
        for (int i = 0; i < operands.length; i++) {
            if (operands[i] instanceof NDArray array) {
                dtypes[i] = array.dtype();
            } else if (ufunc.comparesWeakIntegersExactly() && !fits(operands[i], common)) {
                // NumPy 2 compares an out-of-range Python int by value: float64 holds the sign and magnitude.
                dtypes[i] = DType.FLOAT64;
            } else {
                dtypes[i] = common;
            }
        }
        Loop loop = findLoop(ufunc, dtypes);
        NDArray[] inputs = new NDArray[operands.length];
        for (int i = 0; i < operands.length; i++) {
            inputs[i] = operands[i] instanceof NDArray array ? array : weakScalar(operands[i], loop.inputs().get(i));
        }
        return new Resolved(loop, inputs);
    }

    /** The operands as promotion sees them: arrays by their dtype (strong), Java scalars as themselves (weak). */
    private static Object[] promotionOperands(Object[] operands) {
        Object[] promotionOperands = new Object[operands.length];
        for (int i = 0; i < operands.length; i++) {
            promotionOperands[i] = operands[i] instanceof NDArray array ? array.dtype() : operands[i];
        }
        return promotionOperands;
    }

    /** Whether a weak scalar's value lies in {@code dtype}'s range; only Java integers into integer types can miss. */
    private static boolean fits(Object weak, DType dtype) {
        boolean integral = weak instanceof Long || weak instanceof Integer || weak instanceof Short || weak instanceof Byte;
        return !(integral && dtype.isInteger()) || inRange(((Number) weak).longValue(), dtype);
    }

    /** The first loop all {@code dtypes} cast to safely, honouring the ufunc's special rules. */
    static Loop findLoop(Ufunc ufunc, DType... dtypes) {
        Loop chosen = ufunc.chosenLoop(dtypes);
        if (chosen == null) {
            chosen = searchLoop(ufunc, List.of(dtypes));
            ufunc.rememberLoop(dtypes, chosen);
        }
        return chosen;
    }

    private static Loop searchLoop(Ufunc ufunc, List<DType> dtypes) {
        if (ufunc.rejectsBool() && allMatch(dtypes, DType::isBool)) {
            throw new CastingException("numpy boolean " + ufunc.name() + " is not supported, use the bitwise or logical operators instead"
                    + " (ufunc '" + ufunc.name() + "' with types " + describe(dtypes) + ")");
        }
        if (ufunc.inputsAsBool()) {
            return ufunc.loops().getFirst();
        }
        if (ufunc.integerInputsAs() != null && allMatch(dtypes, dtype -> dtype.isBool() || dtype.isInteger())) {
            Loop loop = ufunc.loopFor(ufunc.integerInputsAs());
            if (loop != null) {
                return loop;
            }
        }
        for (Loop loop : ufunc.loops()) {
            boolean accepts = true;
            for (int i = 0; i < dtypes.size() && accepts; i++) {
                accepts = Promotion.canCast(dtypes.get(i), loop.inputs().get(i), Casting.SAFE);
            }
            if (accepts) {
                return loop;
            }
        }
        throw new CastingException("ufunc '" + ufunc.name() + "' not supported for the input types " + describe(dtypes)
                + ", and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''");
    }

    private static boolean allMatch(List<DType> dtypes, java.util.function.Predicate<DType> test) {
        for (DType dtype : dtypes) {
            if (!test.test(dtype)) {
                return false;
            }
        }
        return true;
    }

    private static String describe(List<DType> dtypes) {
        StringJoiner text = new StringJoiner(", ", "(", ")");
        dtypes.forEach(dtype -> text.add("dtype('" + dtype + "')"));
        return text.toString();
    }

    /** A Java scalar as a 0-d array of {@code dtype}; integers must fit. */
    static NDArray weakScalar(Object value, DType dtype) {
        NDArray scalar = NDArray.zeros(dtype);
        switch (value) {
            case Boolean flag -> scalar.setBoolean(flag);
            case org.tessera.ndarray.dtype.Complex complex -> scalar.setComplex(complex);
            case Double real -> scalar.setDouble(real);
            case Float real -> scalar.setDouble(real);
            case Number integer when dtype.isBool() -> scalar.setBoolean(integer.longValue() != 0);
            case Number integer when dtype.isInteger() -> {
                if (!inRange(integer.longValue(), dtype)) {
                    throw new ArithmeticException("Python integer " + integer + " out of bounds for " + dtype);
                }
                scalar.setLong(integer.longValue());
            }
            case Number integer -> scalar.setDouble(integer.doubleValue());
            default -> throw new IllegalArgumentException("cannot use " + value.getClass().getName() + " as a ufunc operand");
        }
        return scalar;
    }

    private static boolean inRange(long value, DType dtype) {
        BigInteger exact = BigInteger.valueOf(value);
        int bits = dtype.byteSize() * 8;
        BigInteger low = dtype.isUnsigned() ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(bits - 1).negate();
        BigInteger high = dtype.isUnsigned() ? BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE);
        return exact.compareTo(low) >= 0 && exact.compareTo(high) <= 0;
    }
}

package org.tessera.ndarray.ufunc;

import static org.tessera.ndarray.ufunc.TypeCodes.BOOL;
import static org.tessera.ndarray.ufunc.TypeCodes.COMPLEX;
import static org.tessera.ndarray.ufunc.TypeCodes.FLOATS;
import static org.tessera.ndarray.ufunc.TypeCodes.INTEGERS;

import java.util.List;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoublePredicate;
import java.util.function.DoubleUnaryOperator;

import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.kernel.ContiguousLoops;
import org.tessera.ndarray.kernel.VectorMath;

/**
 * The ufunc catalogue: each entry states its scalar semantics once per lane (long for bool and
 * integers, double for floats) and the type groups that get a loop, in NumPy's search order.
 */
public final class Ufuncs {
    private Ufuncs() {}

    private static final String NUMBERS = INTEGERS + FLOATS;
    private static final String ALL = BOOL + INTEGERS + FLOATS;

    // ---------------------------------------------------------------- arithmetic

    public static final Ufunc ADD = Ufunc.builder("add", 2, 1).identity(0L)
            .each(BOOL, dtype -> new Kernel.LongBinary((a, b) -> a | b))
            .each(INTEGERS, dtype -> new Kernel.LongArithmetic(Arithmetic.ADD))
            .each(FLOATS, dtype -> new Kernel.DoubleArithmetic(Arithmetic.ADD))
            .each(COMPLEX, dtype -> new Kernel.ComplexBinary(ComplexMath::add))
            .contiguous(DType.FLOAT64, ContiguousLoops::addFloat64)
            .contiguous(DType.INT32, ContiguousLoops::addInt32)
            .contiguous(DType.INT64, ContiguousLoops::addInt64)
            .build();

    public static final Ufunc SUBTRACT = Ufunc.builder("subtract", 2, 1).rejectsBool()
            .each(INTEGERS, dtype -> new Kernel.LongArithmetic(Arithmetic.SUBTRACT))
            .each(FLOATS, dtype -> new Kernel.DoubleArithmetic(Arithmetic.SUBTRACT))
            .each(COMPLEX, dtype -> new Kernel.ComplexBinary(ComplexMath::subtract))
            .contiguous(DType.FLOAT64, ContiguousLoops::subtractFloat64)
            .contiguous(DType.INT32, ContiguousLoops::subtractInt32)
            .contiguous(DType.INT64, ContiguousLoops::subtractInt64)
            .build();

    public static final Ufunc MULTIPLY = Ufunc.builder("multiply", 2, 1).identity(1L)
            .each(BOOL, dtype -> new Kernel.LongBinary((a, b) -> a & b))
            .each(INTEGERS, dtype -> new Kernel.LongArithmetic(Arithmetic.MULTIPLY))
            .each(FLOATS, dtype -> new Kernel.DoubleArithmetic(Arithmetic.MULTIPLY))
            .each(COMPLEX, dtype -> new Kernel.ComplexBinary(ComplexMath::multiply))
            .contiguous(DType.FLOAT64, ContiguousLoops::multiplyFloat64)
            .contiguous(DType.INT32, ContiguousLoops::multiplyInt32)
            .contiguous(DType.INT64, ContiguousLoops::multiplyInt64)
            .build();

    public static final Ufunc TRUE_DIVIDE = Ufunc.builder("true_divide", 2, 1).integerInputsAs(DType.FLOAT64)
            .each(FLOATS, dtype -> new Kernel.DoubleArithmetic(Arithmetic.DIVIDE))
            .each(COMPLEX, dtype -> new Kernel.ComplexBinary(ComplexMath::divide))
            .contiguous(DType.FLOAT64, ContiguousLoops::divideFloat64)
            .build();

    public static final Ufunc FLOOR_DIVIDE = Ufunc.builder("floor_divide", 2, 1)
            .each(INTEGERS, dtype -> new Kernel.LongBinary((a, b) -> IntegerMath.floorDivide(dtype, a, b)))
            .each(FLOATS, dtype -> new Kernel.DoubleBinary(FloatMath::floorDivide))
            .build();

    public static final Ufunc REMAINDER = Ufunc.builder("remainder", 2, 1)
            .each(INTEGERS, dtype -> new Kernel.LongBinary((a, b) -> IntegerMath.remainder(dtype, a, b)))
            .each(FLOATS, dtype -> new Kernel.DoubleBinary(FloatMath::remainder))
            .build();

    public static final Ufunc DIVMOD = Ufunc.builder("divmod", 2, 2)
            .eachWithKernels(INTEGERS, dtype -> List.of(
                    new Kernel.LongBinary((a, b) -> IntegerMath.floorDivide(dtype, a, b)),
                    new Kernel.LongBinary((a, b) -> IntegerMath.remainder(dtype, a, b))))
            .eachWithKernels(FLOATS, dtype -> List.of(new Kernel.DoubleBinary(FloatMath::floorDivide),
                    new Kernel.DoubleBinary(FloatMath::remainder)))
            .build();

    public static final Ufunc POWER = Ufunc.builder("power", 2, 1)
            .each(INTEGERS, dtype -> new Kernel.LongBinary((a, b) -> IntegerMath.power(dtype, a, b)))
            .each(FLOATS, dtype -> new Kernel.DoubleBinary(Math::pow))
            .build();

    public static final Ufunc NEGATIVE = Ufunc.builder("negative", 1, 1).rejectsBool()
            .each(INTEGERS, dtype -> new Kernel.LongUnary(a -> -a))
            .each(FLOATS, dtype -> new Kernel.DoubleUnaryArithmetic(UnaryArithmetic.NEGATIVE))
            .each(COMPLEX, dtype -> new Kernel.ComplexUnary(ComplexMath::negative))
            .build();

    public static final Ufunc POSITIVE = Ufunc.builder("positive", 1, 1).rejectsBool()
            .each(INTEGERS, dtype -> new Kernel.LongUnary(a -> a))
            .each(FLOATS, dtype -> new Kernel.DoubleUnary(a -> a))
            .build();

    public static final Ufunc ABSOLUTE = Ufunc.builder("absolute", 1, 1)
            .each(BOOL, dtype -> new Kernel.LongUnary(a -> a))
            .each(INTEGERS, dtype -> new Kernel.LongUnary(a -> IntegerMath.absolute(dtype, a)))
            .each(FLOATS, dtype -> new Kernel.DoubleUnaryArithmetic(UnaryArithmetic.ABSOLUTE))
            .eachComplexTo(COMPLEX, dtype -> new Kernel.ComplexReal(ComplexMath::absolute))
            .build();

    public static final Ufunc SIGN = Ufunc.builder("sign", 1, 1).rejectsBool()
            .each(INTEGERS, dtype -> new Kernel.LongUnary(a -> IntegerMath.sign(dtype, a)))
            .each(FLOATS, dtype -> new Kernel.DoubleUnary(FloatMath::sign))
            .build();

    public static final Ufunc RECIPROCAL = Ufunc.builder("reciprocal", 1, 1)
            .each(INTEGERS, dtype -> new Kernel.LongUnary(a -> IntegerMath.reciprocal(dtype, a)))
            .each(FLOATS, dtype -> new Kernel.DoubleUnary(a -> 1.0 / a))
            .build();

    public static final Ufunc SQUARE = Ufunc.builder("square", 1, 1)
            .each(INTEGERS, dtype -> new Kernel.LongUnary(a -> a * a))
            .each(FLOATS, dtype -> new Kernel.DoubleUnaryArithmetic(UnaryArithmetic.SQUARE))
            .each(COMPLEX, dtype -> new Kernel.ComplexUnary(ComplexMath::square))
            .build();

    // ---------------------------------------------------------------- float functions

    public static final Ufunc SQRT = Ufunc.builder("sqrt", 1, 1)
            .each(FLOATS, dtype -> new Kernel.DoubleUnaryArithmetic(UnaryArithmetic.SQRT))
            .each(COMPLEX, dtype -> new Kernel.ComplexUnary(ComplexMath::sqrt))
            .build();
    public static final Ufunc CBRT = floatFunction("cbrt", Math::cbrt);
    public static final Ufunc EXP = laneFunction("exp", VectorMath.Function.EXP, ComplexMath::exp);
    public static final Ufunc EXP2 = floatFunction("exp2", FloatMath::exp2);
    public static final Ufunc EXPM1 = floatFunction("expm1", Math::expm1);
    public static final Ufunc LOG = laneFunction("log", VectorMath.Function.LOG, ComplexMath::log);
    public static final Ufunc LOG2 = floatFunction("log2", FloatMath::log2);
    public static final Ufunc LOG10 = floatFunction("log10", Math::log10);
    public static final Ufunc LOG1P = floatFunction("log1p", Math::log1p);
    public static final Ufunc SIN = floatFunction("sin", Math::sin);
    public static final Ufunc COS = floatFunction("cos", Math::cos);
    public static final Ufunc TAN = floatFunction("tan", Math::tan);
    public static final Ufunc ARCSIN = floatFunction("arcsin", Math::asin);
    public static final Ufunc ARCCOS = floatFunction("arccos", Math::acos);
    public static final Ufunc ARCTAN = floatFunction("arctan", Math::atan);
    public static final Ufunc SINH = floatFunction("sinh", Math::sinh);
    public static final Ufunc COSH = floatFunction("cosh", Math::cosh);
    public static final Ufunc TANH = floatFunction("tanh", Math::tanh);
    public static final Ufunc ARCSINH = floatFunction("arcsinh", FloatMath::arcsinh);
    public static final Ufunc ARCCOSH = floatFunction("arccosh", FloatMath::arccosh);
    public static final Ufunc ARCTANH = floatFunction("arctanh", FloatMath::arctanh);
    public static final Ufunc RINT = floatFunction("rint", Math::rint);
    public static final Ufunc ARCTAN2 = floatFunction("arctan2", Math::atan2);
    public static final Ufunc HYPOT = floatFunction("hypot", Math::hypot);
    public static final Ufunc COPYSIGN = floatFunction("copysign", Math::copySign);

    /** floor, ceil and trunc keep integer and bool types (NumPy 2), which are already integral. */
    public static final Ufunc FLOOR = rounding("floor", Math::floor);
    public static final Ufunc CEIL = rounding("ceil", Math::ceil);
    public static final Ufunc TRUNC = rounding("trunc", a -> a < 0 ? Math.ceil(a) : Math.floor(a));

    // ---------------------------------------------------------------- extrema

    public static final Ufunc MAXIMUM = Ufunc.builder("maximum", 2, 1)
            .each(BOOL + INTEGERS, dtype -> dtype == DType.UINT64
                    ? new Kernel.LongBinary((a, b) -> IntegerMath.maximum(dtype, a, b)) : new Kernel.LongArithmetic(Arithmetic.MAXIMUM))
            .each(FLOATS, dtype -> new Kernel.DoubleArithmetic(Arithmetic.MAXIMUM))
            .build();
    public static final Ufunc MINIMUM = Ufunc.builder("minimum", 2, 1)
            .each(BOOL + INTEGERS, dtype -> dtype == DType.UINT64
                    ? new Kernel.LongBinary((a, b) -> IntegerMath.minimum(dtype, a, b)) : new Kernel.LongArithmetic(Arithmetic.MINIMUM))
            .each(FLOATS, dtype -> new Kernel.DoubleArithmetic(Arithmetic.MINIMUM))
            .build();
    public static final Ufunc FMAX = extremum("fmax", dtype -> (a, b) -> IntegerMath.maximum(dtype, a, b), FloatMath::fmax);
    public static final Ufunc FMIN = extremum("fmin", dtype -> (a, b) -> IntegerMath.minimum(dtype, a, b), FloatMath::fmin);

    public static final Ufunc CLIP = Ufunc.builder("clip", 3, 1)
            .each(BOOL + INTEGERS, dtype -> new Kernel.LongTernary((a, low, high) -> IntegerMath.clip(dtype, a, low, high)))
            .each(FLOATS, dtype -> new Kernel.DoubleTernary(FloatMath::clip))
            .build();

    /** NumPy's {@code where(condition, x, y)} as a ufunc over a bool condition. */
    public static final Ufunc WHERE = Ufunc.builder("where", 3, 1)
            .selecting(ALL + COMPLEX, dtype -> new Kernel.Select(dtype.isComplex() ? 2 : 1)).build();

    // ---------------------------------------------------------------- comparisons

    public static final Ufunc EQUAL = equality("equal", true);
    public static final Ufunc NOT_EQUAL = equality("not_equal", false);
    public static final Ufunc LESS = comparison("less", order -> order < 0, (a, b) -> a < b);
    public static final Ufunc LESS_EQUAL = comparison("less_equal", order -> order <= 0, (a, b) -> a <= b);
    public static final Ufunc GREATER = comparison("greater", order -> order > 0, (a, b) -> a > b);
    public static final Ufunc GREATER_EQUAL = comparison("greater_equal", order -> order >= 0, (a, b) -> a >= b);

    // ---------------------------------------------------------------- logical and bitwise

    public static final Ufunc LOGICAL_AND = logical("logical_and", true, (a, b) -> a && b);
    public static final Ufunc LOGICAL_OR = logical("logical_or", false, (a, b) -> a || b);
    public static final Ufunc LOGICAL_XOR = logical("logical_xor", false, (a, b) -> a != b);

    public static final Ufunc LOGICAL_NOT = Ufunc.builder("logical_not", 1, 1).inputsAsBool()
            .each(BOOL, dtype -> new Kernel.LongUnary(a -> a == 0 ? 1 : 0))
            .build();

    public static final Ufunc BITWISE_AND = bitwise("bitwise_and", -1L, (a, b) -> a & b);
    public static final Ufunc BITWISE_OR = bitwise("bitwise_or", 0L, (a, b) -> a | b);
    public static final Ufunc BITWISE_XOR = bitwise("bitwise_xor", 0L, (a, b) -> a ^ b);

    public static final Ufunc INVERT = Ufunc.builder("invert", 1, 1)
            .each(BOOL, dtype -> new Kernel.LongUnary(a -> a ^ 1))
            .each(INTEGERS, dtype -> new Kernel.LongUnary(a -> ~a))
            .build();

    public static final Ufunc LEFT_SHIFT = Ufunc.builder("left_shift", 2, 1)
            .each(INTEGERS, dtype -> new Kernel.LongBinary((a, b) -> IntegerMath.leftShift(dtype, a, b)))
            .build();

    public static final Ufunc RIGHT_SHIFT = Ufunc.builder("right_shift", 2, 1)
            .each(INTEGERS, dtype -> new Kernel.LongBinary((a, b) -> IntegerMath.rightShift(dtype, a, b)))
            .build();

    // ---------------------------------------------------------------- float classification

    public static final Ufunc ISNAN = floatTest("isnan", Double::isNaN);
    public static final Ufunc ISINF = floatTest("isinf", Double::isInfinite);
    public static final Ufunc ISFINITE = floatTest("isfinite", Double::isFinite);
    public static final Ufunc SIGNBIT = floatTest("signbit", a -> Double.doubleToRawLongBits(a) < 0);

    /** Every ufunc by NumPy's name ({@code "divide"} is an alias of true_divide, {@code "abs"} of absolute). */
    public static Ufunc byName(String name) {
        return switch (name) {
            case "divide" -> TRUE_DIVIDE;
            case "abs" -> ABSOLUTE;
            case "mod" -> REMAINDER;
            default -> CATALOGUE.stream().filter(ufunc -> ufunc.name().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no ufunc named '" + name + "'"));
        };
    }

    private static final List<Ufunc> CATALOGUE = List.of(ADD, SUBTRACT, MULTIPLY, TRUE_DIVIDE, FLOOR_DIVIDE, REMAINDER,
            DIVMOD, POWER, NEGATIVE, POSITIVE, ABSOLUTE, SIGN, RECIPROCAL, SQUARE, SQRT, CBRT, EXP, EXP2, EXPM1, LOG, LOG2,
            LOG10, LOG1P, SIN, COS, TAN, ARCSIN, ARCCOS, ARCTAN, SINH, COSH, TANH, ARCSINH, ARCCOSH, ARCTANH, RINT, ARCTAN2,
            HYPOT, COPYSIGN, FLOOR, CEIL, TRUNC, MAXIMUM, MINIMUM, FMAX, FMIN, CLIP, WHERE, EQUAL, NOT_EQUAL, LESS,
            LESS_EQUAL, GREATER, GREATER_EQUAL, LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR, LOGICAL_NOT, BITWISE_AND,
            BITWISE_OR, BITWISE_XOR, INVERT, LEFT_SHIFT, RIGHT_SHIFT, ISNAN, ISINF, ISFINITE, SIGNBIT);

    /** All ufuncs of the catalogue. */
    public static List<Ufunc> all() { return CATALOGUE; }

    // ---------------------------------------------------------------- families

    private static Ufunc floatFunction(String name, DoubleUnaryOperator function) {
        return Ufunc.builder(name, 1, 1).each(FLOATS, dtype -> new Kernel.DoubleUnary(function)).build();
    }

    private static Ufunc floatFunction(String name, DoubleBinaryOperator function) {
        return Ufunc.builder(name, 2, 1).each(FLOATS, dtype -> new Kernel.DoubleBinary(function)).build();
    }

    private static Ufunc complexFunction(String name, DoubleUnaryOperator real, Kernel.ComplexUnaryOperator complex) {
        return Ufunc.builder(name, 1, 1)
                .each(FLOATS, dtype -> new Kernel.DoubleUnary(real))
                .each(COMPLEX, dtype -> new Kernel.ComplexUnary(complex))
                .build();
    }

    private static Ufunc laneFunction(String name, VectorMath.Function real, Kernel.ComplexUnaryOperator complex) {
        return Ufunc.builder(name, 1, 1)
                .each(FLOATS, dtype -> new Kernel.DoubleLanes(real))
                .each(COMPLEX, dtype -> new Kernel.ComplexUnary(complex))
                .contiguous(DType.FLOAT64, (segments, offsets, count) -> ContiguousLoops.applyFloat64(real, segments, offsets, count))
                .build();
    }

    private static Ufunc rounding(String name, DoubleUnaryOperator function) {
        return Ufunc.builder(name, 1, 1)
                .each(BOOL + INTEGERS, dtype -> new Kernel.LongUnary(a -> a))
                .each(FLOATS, dtype -> new Kernel.DoubleUnary(function))
                .build();
    }

    private static Ufunc floatTest(String name, DoublePredicate test) {
        return Ufunc.builder(name, 1, 1).eachTo(FLOATS, DType.BOOL, dtype -> new Kernel.DoubleTest(test)).build();
    }

    private static Ufunc extremum(String name, java.util.function.Function<DType, java.util.function.LongBinaryOperator> integers,
                                  DoubleBinaryOperator floats) {
        return Ufunc.builder(name, 2, 1)
                .each(BOOL + INTEGERS, dtype -> new Kernel.LongBinary(integers.apply(dtype)))
                .each(FLOATS, dtype -> new Kernel.DoubleBinary(floats))
                .build();
    }

    /** An integer comparison by the sign of the three-way order (unsigned for uint64). */
    @FunctionalInterface
    private interface OrderTest {
        boolean test(int order);
    }

    private static Ufunc comparison(String name, OrderTest integers, Kernel.DoubleRelation floats) {
        return comparisonBuilder(name, integers, floats).build();
    }

    /** equal and not_equal also compare complex values, part by part. */
    private static Ufunc equality(String name, boolean equal) {
        return comparisonBuilder(name, order -> (order == 0) == equal, (a, b) -> (a == b) == equal)
                .eachTo(COMPLEX, DType.BOOL, dtype -> new Kernel.ComplexEquality(equal))
                .build();
    }

    private static Ufunc.Builder comparisonBuilder(String name, OrderTest integers, Kernel.DoubleRelation floats) {
        return Ufunc.builder(name, 2, 1).comparesWeakIntegersExactly()
                .eachTo(BOOL + INTEGERS, DType.BOOL, dtype -> new Kernel.LongCompare((a, b) -> integers.test(IntegerMath.compare(dtype, a, b))))
                .eachTo(FLOATS, DType.BOOL, dtype -> new Kernel.DoubleCompare(floats));
    }

    /** Truth of both operands combined; NaN counts as true, as any nonzero value. */
    @FunctionalInterface
    private interface TruthOperator {
        boolean apply(boolean a, boolean b);
    }

    private static Ufunc logical(String name, boolean identity, TruthOperator operator) {
        // NumPy 2 resolves the logical functions to their bool loop, casting any input to bool.
        return Ufunc.builder(name, 2, 1).identity(identity).inputsAsBool()
                .each(BOOL, dtype -> new Kernel.LongCompare((a, b) -> operator.apply(a != 0, b != 0)))
                .build();
    }

    private static Ufunc bitwise(String name, long identity, java.util.function.LongBinaryOperator operator) {
        return Ufunc.builder(name, 2, 1).identity(identity)
                .each(BOOL + INTEGERS, dtype -> new Kernel.LongBinary(operator))
                .build();
    }
}

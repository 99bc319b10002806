package org.tessera.ndarray.dtype;

import java.math.BigInteger;

/**
 * NumPy 2 type promotion (NEP 50) and the casting rules. Promotion of two types is the smallest
 * type both cast to safely; Java scalars are weak: they take the array's type when their kind is
 * not above the array's kind.
 */
public final class Promotion {
    private Promotion() {}

    /** NumPy's promotion of two dtypes. */
    public static DType resultType(DType first, DType second) {
        return promoteAll(java.util.List.of(first, second));
    }

    /**
     * The smallest type every dtype casts to safely: one of them when possible, else the first
     * candidate of the table. All are considered at once, as NumPy does: uint16, int16 and float32
     * give float32, though promoting pairwise would give float64.
     */
    private static DType promoteAll(java.util.List<DType> dtypes) {
        if (dtypes.size() == 1) {
            return dtypes.getFirst();
        }
        DType best = null;
        for (DType member : dtypes) {
            if (allCastSafely(dtypes, member) && (best == null || canCast(member, best, Casting.SAFE))) {
                best = member;
            }
        }
        if (best != null) {
            return best;
        }
        for (DType candidate : DType.values()) {
            if (allCastSafely(dtypes, candidate)) {
                return candidate;
            }
        }
        throw new IllegalArgumentException("no common dtype for " + dtypes);
    }

    // A loop, not a stream: promotion runs on every ufunc call with a Java scalar, block after block.
    private static boolean allCastSafely(java.util.List<DType> dtypes, DType target) {
        for (DType dtype : dtypes) {
            if (!canCast(dtype, target, Casting.SAFE)) {
                return false;
            }
        }
        return true;
    }

    /** Promotion of dtypes (strong) and Java scalars (weak, NEP 50). */
    public static DType resultType(Object... operands) {
        // The list is made only when the strong types differ: an array and a Java scalar, the usual
        // call, need no list at all.
        DType firstStrong = null;
        java.util.List<DType> strongTypes = null;
        int weakRank = -1;
        for (Object operand : operands) {
            if (operand instanceof DType dtype) {
                if (firstStrong == null) {
                    firstStrong = dtype;
                } else if (strongTypes == null && dtype != firstStrong) {
                    strongTypes = new java.util.ArrayList<>(java.util.List.of(firstStrong));
                }
                if (strongTypes != null) {
                    strongTypes.add(dtype);
                }
            } else {
                weakRank = Math.max(weakRank, weakRank(operand));
            }
        }
        DType strong = strongTypes != null ? promoteAll(strongTypes) : firstStrong;
        if (strong == null) {
            return switch (weakRank) {
                case 0 -> DType.BOOL;
                case 1 -> DType.INT64;
                case 2 -> DType.FLOAT64;
                default -> DType.COMPLEX128;
            };
        }
        int strongRank = switch (strong.kind()) {
            case BOOL -> 0;
            case SIGNED, UNSIGNED -> 1;
            case FLOAT -> 2;
            case COMPLEX -> 3;
        };
        if (weakRank <= strongRank) {
            return strong;
        }
        return switch (weakRank) {
            case 1 -> DType.INT64;
            case 2 -> strong.isBool() || strong.isInteger() ? DType.FLOAT64 : strong;
            default -> strong == DType.FLOAT32 || strong == DType.FLOAT16 ? DType.COMPLEX64 : DType.COMPLEX128;
        };
    }

    private static int weakRank(Object scalar) {
        return switch (scalar) {
            case Boolean ignored -> 0;
            case Byte ignored -> 1;
            case Short ignored -> 1;
            case Integer ignored -> 1;
            case Long ignored -> 1;
            case BigInteger ignored -> 1;
            case Float ignored -> 2;
            case Double ignored -> 2;
            case Complex ignored -> 3;
            case null -> throw new IllegalArgumentException("cannot promote a null operand");
            default -> throw new IllegalArgumentException("cannot promote an operand of type " + scalar.getClass().getName());
        };
    }

    /** Whether {@code from} converts to {@code to} under {@code casting}. */
    public static boolean canCast(DType from, DType to, Casting casting) {
        return switch (casting) {
            case NO, EQUIV -> from == to;
            case SAFE -> isSafe(from, to);
            // Within a kind any size goes; across kinds only upward: bool, unsigned, signed, float, complex.
            case SAME_KIND -> isSafe(from, to) || kindOrder(from) <= kindOrder(to);
            case UNSAFE -> true;
        };
    }

    private static int kindOrder(DType dtype) {
        return switch (dtype.kind()) {
            case BOOL -> 0;
            case UNSIGNED -> 1;
            case SIGNED -> 2;
            case FLOAT -> 3;
            case COMPLEX -> 4;
        };
    }

    private static boolean isSafe(DType from, DType to) {
        if (from == to || from.isBool()) {
            return true;
        }
        return switch (from.kind()) {
            case BOOL -> true;
            case UNSIGNED -> switch (to.kind()) {
                case UNSIGNED -> to.byteSize() >= from.byteSize();
                case SIGNED -> to.byteSize() > from.byteSize();
                case FLOAT -> mantissaHolds(from.byteSize() * 8, to);
                case COMPLEX -> mantissaHolds(from.byteSize() * 8, to.realType());
                case BOOL -> false;
            };
            case SIGNED -> switch (to.kind()) {
                case SIGNED -> to.byteSize() >= from.byteSize();
                case FLOAT -> mantissaHolds(from.byteSize() * 8, to);
                case COMPLEX -> mantissaHolds(from.byteSize() * 8, to.realType());
                default -> false;
            };
            case FLOAT -> to.isFloat() ? to.byteSize() >= from.byteSize() : to.isComplex() && to.realType().byteSize() >= from.byteSize();
            case COMPLEX -> to.isComplex() && to.byteSize() >= from.byteSize();
        };
    }

    /** NumPy lets an integer of {@code bits} cast safely to the float of about twice its width. */
    private static boolean mantissaHolds(int bits, DType floatType) {
        return switch (floatType) {
            case FLOAT16 -> bits <= 8;
            case FLOAT32 -> bits <= 16;
            default -> true;
        };
    }
}

package org.tessera.array.property;

/**
 * One operation of a {@link Chain}: its kind and three small numbers and a seed, read against the
 * array the step meets (an axis is {@code a % ndim}, an index is drawn from {@code seed}), so any
 * step applies to any array and shrinking a chain keeps it meaningful.
 *
 * @param kind the operation
 * @param a a choice in [0, 1000)
 * @param b a choice in [0, 1000)
 * @param c a choice in [0, 1000)
 * @param seed the seed of anything else the step draws: index arrays, the other operand, chunkings
 */
public record Step(Kind kind, int a, int b, int c, long seed) {

    /** The operations of the chains. */
    public enum Kind {
        UNARY, BINARY_SCALAR, BINARY_ARRAY, REDUCE, ARG_REDUCE, BASIC_INDEX, FANCY_INDEX, BOOL_INDEX, SET_BASIC, SET_MASK, RECHUNK,
        RESHAPE, TRANSPOSE, CONCATENATE, STACK, MATMUL, CUMULATIVE, MAP_OVERLAP, ASTYPE, COMPUTE_CHUNK_SIZES
    }

    @Override
    public String toString() {
        return "new Step(Kind." + kind + ", " + a + ", " + b + ", " + c + ", " + seed + "L)";
    }
}

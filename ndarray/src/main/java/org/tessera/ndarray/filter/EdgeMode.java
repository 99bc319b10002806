package org.tessera.ndarray.filter;

/**
 * How a filter extends the input beyond its edges, by {@code scipy.ndimage}'s names; for the input
 * {@code a b c d}: reflect {@code d c b a | a b c d | d c b a}, mirror {@code d c b | a b c d | c b a},
 * nearest {@code a a a | a b c d | d d d}, wrap {@code b c d | a b c d | a b c}, and constant a
 * given value.
 */
public sealed interface EdgeMode {
    EdgeMode REFLECT = new Reflect();
    EdgeMode MIRROR = new Mirror();
    EdgeMode NEAREST = new Nearest();
    EdgeMode WRAP = new Wrap();

    /** Every element beyond the edges is {@code value}. */
    static EdgeMode constant(double value) {
        return new Constant(value);
    }

    /**
     * The index inside {@code [0, length)} whose element stands at {@code index} of the extended
     * line, or -1 where the mode puts a constant there.
     */
    long sourceIndex(long index, long length);

    record Reflect() implements EdgeMode {
        @Override
        public long sourceIndex(long index, long length) {
            long period = 2 * length;
            long folded = Math.floorMod(index, period);
            return folded < length ? folded : period - 1 - folded;
        }
    }

    record Mirror() implements EdgeMode {
        @Override
        public long sourceIndex(long index, long length) {
            if (length == 1) {
                return 0;
            }
            long period = 2 * length - 2;
            long folded = Math.floorMod(index, period);
            return folded < length ? folded : period - folded;
        }
    }

    record Nearest() implements EdgeMode {
        @Override
        public long sourceIndex(long index, long length) {
            return Math.min(Math.max(index, 0), length - 1);
        }
    }

    record Wrap() implements EdgeMode {
        @Override
        public long sourceIndex(long index, long length) {
            return Math.floorMod(index, length);
        }
    }

    record Constant(double value) implements EdgeMode {
        @Override
        public long sourceIndex(long index, long length) {
            return index >= 0 && index < length ? index : -1;
        }
    }
}

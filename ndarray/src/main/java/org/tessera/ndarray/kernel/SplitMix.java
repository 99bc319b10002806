package org.tessera.ndarray.kernel;

/**
 * The output function of the SplitMix64 generator, as {@code java.util.SplittableRandom} uses it:
 * value k of the stream of a seed is {@code uniform(seed + (k + 1) * GOLDEN_GAMMA)}. Each value
 * depends on its counter alone, so any part of a stream is computed without the values before it,
 * and a {@link VectorMath} provider computes many at once.
 */
public final class SplitMix {
    private SplitMix() {
    }

    /** The increment {@code SplittableRandom} uses for a generator made from a seed. */
    public static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

    /** The first multiplier of Stafford's "variant 13" finaliser. */
    public static final long FIRST_MULTIPLIER = 0xbf58476d1ce4e5b9L;

    /** The second multiplier of the finaliser. */
    public static final long SECOND_MULTIPLIER = 0x94d049bb133111ebL;

    /** The weight of the lowest of the 53 bits that make a double in [0, 1). */
    public static final double DOUBLE_UNIT = 0x1.0p-53;

    /** The counter mixed by the finaliser, its top 53 bits as a double in [0, 1). */
    public static double uniform(long counter) {
        long z = counter;
        z = (z ^ (z >>> 30)) * FIRST_MULTIPLIER;
        z = (z ^ (z >>> 27)) * SECOND_MULTIPLIER;
        return ((z ^ (z >>> 31)) >>> 11) * DOUBLE_UNIT;
    }
}

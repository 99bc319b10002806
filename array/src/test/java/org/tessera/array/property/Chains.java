package org.tessera.array.property;

import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

import org.tessera.ndarray.dtype.DType;

/**
 * The generators of {@link Chain}s: shapes of 0 to 4 axes of lengths 0 to 7 (one axis in ten 8 to
 * 24, at most 4096 elements), every dtype of {@link Steps#DTYPES}, seeds for the values and the
 * chunking, and 1 to {@code maxSteps} steps of any kind.
 */
public final class Chains {
    private Chains() {
    }

    public static Arbitrary<Chain> chains(int maxSteps) {
        Arbitrary<Long> length = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(9, Arbitraries.longs().between(0, 7)),
                net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(8, 24)));
        Arbitrary<long[]> shapes = Arbitraries.integers().between(0, 4)
                .flatMap(ndim -> length.list().ofSize(ndim))
                .map(lengths -> lengths.stream().mapToLong(Long::longValue).toArray())
                .filter(shape -> java.util.Arrays.stream(shape).reduce(1, (a, b) -> a * b) <= 4096);
        Arbitrary<DType> dtypes = Arbitraries.of(Steps.DTYPES);
        Arbitrary<List<Step>> steps = steps().list().ofMinSize(1).ofMaxSize(maxSteps);
        return Combinators.combine(shapes, dtypes, Arbitraries.longs(), Arbitraries.longs(), steps).as(Chain::new);
    }

    public static Arbitrary<Step> steps() {
        Arbitrary<Integer> choice = Arbitraries.integers().between(0, 999);
        return Combinators.combine(Arbitraries.of(Step.Kind.class), choice, choice, choice, Arbitraries.longs()).as(Step::new);
    }
}

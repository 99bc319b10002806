package org.tessera.array.property;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.api.ChunkedArrays;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;

/**
 * One generated case: a start array (shape, dtype, values and chunking drawn from seeds) and a
 * chain of steps. {@link #run(Scheduler)} applies every step to the dense array and to the chunked
 * array built from the same values, and checks after each step that the chunked array predicts the
 * dense dtype and shape, and at the end that it computes to the dense values (see {@link Comparison}).
 * A case is plain data, so a shrunk failure is written back as a JUnit test by copying its
 * {@link #toString()}.
 *
 * @param shape the start array's shape
 * @param dtype its dtype
 * @param valueSeed the seed of its values ({@link #values(long[], DType, long)})
 * @param chunkSeed the seed of its chunking ({@link #chunking(long[], SplittableRandom)})
 * @param steps the operations, in order
 */
public record Chain(long[] shape, DType dtype, long valueSeed, long chunkSeed, List<Step> steps) {

    /** The last outcome of {@link #run}: how the final values were compared. */
    public static final String COMPARED_BIT_FOR_BIT = "compared bit for bit";
    public static final String COMPARED_WITHIN_TOLERANCE = "compared within tolerance";

    /** The chunked array for the dense start array: one read per block of a region source, or a rechunk of one block. */
    public ChunkedArray start(NDArray values) {
        SplittableRandom random = new SplittableRandom(chunkSeed);
        ChunkSpec spec = ChunkSpec.explicit(chunking(values.shape(), random));
        return random.nextInt(3) == 0 ? ChunkedArrays.fromArray(values, spec) : Creation.fromSource(RegionSource.of(values), spec);
    }

    /**
     * Runs the chain on {@code scheduler}; throws an AssertionError naming the step where the
     * chunked array first parts from the dense one. Returns what became of each step: applied,
     * skipped (a step that does not fit the array, such as an arg-reduction after a reordered float
     * sum) or rejected (the dense array raised NumPy's error, and so did the chunked one: the chain
     * goes on from the array before the step), and last how the values were compared.
     */
    public List<String> run(Scheduler scheduler) {
        List<String> outcomes = new ArrayList<>();
        State state = apply(scheduler, outcomes);
        Comparison.assertComputes("end of chain " + this, state, scheduler);
        outcomes.add(state.tolerant() ? COMPARED_WITHIN_TOLERANCE : COMPARED_BIT_FOR_BIT);
        return outcomes;
    }

    /** The chunked array at the end of the chain, its values not computed (steps that need chunk sizes compute those). */
    public ChunkedArray build(Scheduler scheduler) {
        return apply(scheduler, new ArrayList<>()).chunked();
    }

    /** Applies the steps, checking each predicts the dense dtype and shape; adds what became of each step to {@code outcomes}. */
    private State apply(Scheduler scheduler, List<String> outcomes) {
        NDArray dense = values(shape, dtype, valueSeed);
        State state = State.start(dense, start(dense));
        Comparison.assertPredicts("start", state);
        for (int index = 0; index < steps.size(); index++) {
            Step step = steps.get(index);
            String where = "step " + index + " " + step;
            State next;
            try {
                next = Steps.apply(step, state, scheduler, where);
            } catch (Steps.DenseRejected rejected) {
                outcomes.add(step.kind() + " rejected (" + rejected.getCause().getClass().getSimpleName() + ")");
                continue;
            }
            if (next == null) {
                outcomes.add(step.kind() + " skipped");
                continue;
            }
            outcomes.add(step.kind() + " applied");
            state = next;
            Comparison.assertPredicts(where, state);
        }
        return state;
    }

    /**
     * Values for a shape and dtype: bool at random; signed integers in [-6, 6]; unsigned in [0, 12];
     * floats multiples of 1/4 in [-6, 6] with an occasional NaN, -0.0 or infinity; complex numbers
     * with such parts. Sums of such values are exact in any order while they stay small.
     */
    public static NDArray values(long[] shape, DType dtype, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        NDArray result = NDArray.zeros(dtype, shape);
        NDArray flat = result.reshape(result.size());
        for (long element = 0; element < result.size(); element++) {
            switch (dtype.kind()) {
                case BOOL -> flat.setBoolean(random.nextBoolean(), element);
                case SIGNED -> flat.setLong(random.nextInt(-6, 7), element);
                case UNSIGNED -> flat.setLong(random.nextInt(0, 13), element);
                case FLOAT -> flat.setDouble(floatValue(random), element);
                case COMPLEX -> flat.setComplex(new Complex(floatValue(random), floatValue(random)), element);
            }
        }
        return result;
    }

    private static double floatValue(SplittableRandom random) {
        int special = random.nextInt(60);
        return switch (special) {
            case 0 -> Double.NaN;
            case 1 -> -0.0;
            case 2 -> random.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
            default -> random.nextInt(-24, 25) / 4.0;
        };
    }

    /**
     * Block lengths per axis: one block (one time in five), or pieces of 1 to 4 with an empty block
     * now and then, at the start, between pieces or at the end. An axis of length 0 is one empty
     * block, or two.
     */
    public static long[][] chunking(long[] shape, SplittableRandom random) {
        long[][] lengths = new long[shape.length][];
        for (int axis = 0; axis < shape.length; axis++) {
            lengths[axis] = axisChunks(shape[axis], random);
        }
        return lengths;
    }

    static long[] axisChunks(long length, SplittableRandom random) {
        if (length == 0) {
            return random.nextInt(4) == 0 ? new long[] {0, 0} : new long[] {0};
        }
        if (random.nextInt(5) == 0) {
            return new long[] {length};
        }
        List<Long> pieces = new ArrayList<>();
        long left = length;
        long largest = 1 + random.nextInt(4);
        while (left > 0) {
            if (random.nextInt(8) == 0) {
                pieces.add(0L);
            }
            long piece = Math.min(left, 1 + random.nextLong(largest));
            pieces.add(piece);
            left -= piece;
        }
        if (random.nextInt(8) == 0) {
            pieces.add(0L);
        }
        return pieces.stream().mapToLong(Long::longValue).toArray();
    }

    /** Chunks for a shape drawn from {@code seed}. */
    public static Chunks chunksFor(long[] shape, long seed) {
        return Chunks.of(chunking(shape, new SplittableRandom(seed)));
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("new Chain(new long[] {");
        for (int axis = 0; axis < shape.length; axis++) {
            text.append(axis == 0 ? "" : ", ").append(shape[axis]);
        }
        text.append("}, DType.").append(dtype.name()).append(", ").append(valueSeed).append("L, ").append(chunkSeed).append("L, List.of(");
        for (int index = 0; index < steps.size(); index++) {
            text.append(index == 0 ? "" : ", ").append(steps.get(index));
        }
        return text.append("))").toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Chain chain && Arrays.equals(shape, chain.shape) && dtype == chain.dtype && valueSeed == chain.valueSeed
                && chunkSeed == chain.chunkSeed && steps.equals(chain.steps);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(shape) * 31 + steps.hashCode();
    }
}

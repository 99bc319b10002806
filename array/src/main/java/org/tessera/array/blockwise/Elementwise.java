package org.tessera.array.blockwise;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.tessera.array.ChunkedArray;
import org.tessera.array.Metas;
import org.tessera.array.RegionSource;
import org.tessera.array.api.ChunkedArrays;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.plan.Working;
import org.tessera.graph.Deferred;
import org.tessera.graph.Deferring;
import org.tessera.graph.memory.Footprint.PartMaking;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.ufunc.RunCombiner;
import org.tessera.ndarray.ufunc.Ufunc;

/**
 * A ufunc over chunked arrays, block by block: operands are aligned on the right as NumPy
 * broadcasts, chunks are unified, and Java scalars stay weak scalars (NEP 50) so {@code x + 1}
 * keeps x's dtype. The output dtype and chunk family come from running the ufunc on the operands'
 * empty metas: dense metas give dense blocks, sparse metas sparse blocks, and metas of different
 * families meet by the mixing rule of {@link ArrayFamilies#common} (sparse with dense gives dense),
 * as the blocks will. An in-memory operand of another family than NDArray becomes one block.
 */
public final class Elementwise {
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    /** What a Java scalar operand costs a task: a 0-d array of the loop's dtype, 16 bytes at most. */
    private static final long SCALAR_BYTES = 16;

    private Elementwise() {
    }

    /** {@code ufunc(operands...)}; an operand is a ChunkedArray, an NDArray (one block) or a Java scalar. */
    public static ChunkedArray apply(Ufunc ufunc, Object... operands) {
        if (ufunc.nout() != 1) {
            throw new IllegalArgumentException(ufunc.name() + " has " + ufunc.nout() + " outputs; use applyAll");
        }
        return applyAll(ufunc, operands).getFirst();
    }

    /** Every output of {@code ufunc(operands...)} (two for divmod), each its own chunked array. */
    public static List<ChunkedArray> applyAll(Ufunc ufunc, Object... operands) {
        List<Object> arguments = new ArrayList<>(operands.length);
        int ndim = 0;
        List<long[]> shapes = new ArrayList<>();
        for (Object operand : operands) {
            Object argument = operand instanceof NDArray array ? Creation.fromSource(RegionSource.of(array), ChunkSpec.whole())
                    : operand instanceof AnyArray<?> array && !(operand instanceof ChunkedArray) ? ChunkedArrays.fromBlock(array) : operand;
            arguments.add(argument);
            if (argument instanceof ChunkedArray array) {
                ndim = Math.max(ndim, array.ndim());
                shapes.add(array.chunks().requireKnownShape(ufunc.name()));
            }
        }
        if (shapes.isEmpty()) {
            throw new IllegalArgumentException(ufunc.name() + ": no chunked operand among " + Arrays.toString(operands));
        }
        Shapes.broadcast(shapes.toArray(long[][]::new));
        String output = LETTERS.substring(0, ndim);
        Object[] metas = new Object[arguments.size()];
        for (int position = 0; position < metas.length; position++) {
            metas[position] = arguments.get(position) instanceof ChunkedArray array ? array.meta() : arguments.get(position);
        }
        AnyArray<?>[] metaOutputs = outputMetas(ufunc, metas);
        // The loop casts operands in small lane buffers, so a task allocates its result and a 0-d
        // array for each Java scalar (at most a complex128), nothing else.
        long scalars = arguments.stream().filter(argument -> !(argument instanceof ChunkedArray)).count();
        // A part is the ufunc of its operands' parts of the same box, each computed into an array of
        // its own, or both written into the part's where they combine (see DeferredUfunc).
        PartMaking making = combines(ufunc, arguments) ? PartMaking.COMBINED : PartMaking.MADE;
        Working working = (scalars == 0 ? Working.none() : Working.fixed(SCALAR_BYTES * scalars)).makingParts(making, true, true);
        List<ChunkedArray> results = new ArrayList<>(metaOutputs.length);
        for (int outputIndex = 0; outputIndex < metaOutputs.length; outputIndex++) {
            String label = metaOutputs.length == 1 ? ufunc.name() : ufunc.name() + "-" + outputIndex;
            Blockwise.Builder builder = Blockwise.of(label, new UfuncBlock(ufunc, outputIndex), output)
                    .meta(Metas.metaFromArray(metaOutputs[outputIndex], ndim, metaOutputs[outputIndex].dtype())).working(working);
            for (Object argument : arguments) {
                if (argument instanceof ChunkedArray array) {
                    builder.input(array, output.substring(ndim - array.ndim()));
                } else {
                    builder.constant(argument);
                }
            }
            results.add(builder.build());
        }
        return results;
    }

    /**
     * Whether each part will be made as {@link DeferredUfunc#combinedPart} makes it: two operands of
     * one shape and the same chunks (none rechunked), whose blocks combine in place (random blocks
     * and their transposes, which fill in place too, as one of the two must) under a ufunc with a
     * float64 combiner.
     */
    private static boolean combines(Ufunc ufunc, List<Object> arguments) {
        return arguments.size() == 2 && arguments.get(0) instanceof ChunkedArray first && arguments.get(1) instanceof ChunkedArray second
                && first.chunks().equals(second.chunks()) && first.dtype() == DType.FLOAT64 && second.dtype() == DType.FLOAT64
                && CombinesParts.of(first) && CombinesParts.of(second) && (CombinesParts.fills(first) || CombinesParts.fills(second)) && RunCombiner.of(ufunc, DType.FLOAT64, false).isPresent();
    }

    /** The ufunc on the metas: dense metas through the ufunc itself, others through their families' namespaces. */
    private static AnyArray<?>[] outputMetas(Ufunc ufunc, Object[] metas) {
        if (Arrays.stream(metas).noneMatch(meta -> meta instanceof AnyArray<?> && !(meta instanceof NDArray))) {
            return ufunc.applyAll(metas);
        }
        if (ufunc.nout() != 1) {
            throw new UnsupportedOperationException(ufunc.name() + " has " + ufunc.nout() + " outputs, which only dense chunks support; the operands' "
                    + "chunk families are " + Arrays.stream(metas).map(ArrayFamilies::describe).toList());
        }
        return new AnyArray<?>[] {ArrayFamilies.apply(ufunc.name(), metas)};
    }

    /**
     * Applies the ufunc to the blocks and scalars of one output block and keeps one output. Given
     * deferred blocks among dense operands, it defers too: a part of the result is the ufunc of the
     * matching parts of the operands.
     */
    record UfuncBlock(Ufunc ufunc, int output) implements BlockFunction, Deferring {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            Object[] operands = arguments.toArray();
            if (hasOtherFamilies(arguments)) {
                // Blocks of other families: their namespaces compute, and families meet by the mixing rule.
                return ArrayFamilies.apply(ufunc.name(), operands);
            }
            return output == 0 && ufunc.nout() == 1 ? ufunc.apply(operands) : ufunc.applyAll(operands)[output];
        }

        /** Whether any operand is a block of another family than NDArray. */
        private static boolean hasOtherFamilies(List<Object> operands) {
            // A loop, not a stream: this runs once per block, and a stream's set-up costs more than a small block's ufunc (W5).
            for (Object operand : operands) {
                if (operand instanceof AnyArray<?> && !(operand instanceof NDArray)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public boolean acceptsDeferred(int position) {
            return true;
        }

        @Override
        public Object applyDeferring(List<Object> arguments) throws Exception {
            if (!DeferredBlock.anyDeferred(arguments)) {
                return apply(arguments);
            }
            if (hasOtherFamilies(arguments)) {
                List<Object> forced = new ArrayList<>(arguments.size());
                for (Object argument : arguments) {
                    forced.add(Deferred.force(argument));
                }
                return apply(forced);
            }
            return new DeferredUfunc(this, List.copyOf(arguments), Shapes.broadcast(arguments.stream().map(DeferredBlock::shapeOf).toArray(long[][]::new)));
        }
    }

    /** The ufunc of deferred and computed operands, computed part by part. */
    private record DeferredUfunc(UfuncBlock function, List<Object> operands, long[] shape) implements DeferredBlock {
        @Override
        public NDArray part(long[] start, long[] partShape) throws Exception {
            NDArray combined = combinedPart(start, partShape);
            if (combined != null) {
                return combined;
            }
            List<Object> parts = new ArrayList<>(operands.size());
            for (Object operand : operands) {
                parts.add(DeferredBlock.cut(operand, shape.length, start, partShape));
            }
            return (NDArray) function.apply(parts);
        }

        /**
         * The part made in one array, or null: where a binary ufunc's two operands are whole blocks
         * of the result's shape, one of which writes its part straight into memory and the other
         * combines its values into memory as it makes them (random blocks, and transposes of them),
         * the first fills the result and the second is combined into it run by run, so neither
         * operand's part is made on its own and the ufunc reads no part back. In {@code (x + x.T)}
         * over random blocks that is two of the three strips a part took, and the pass that added them.
         */
        private NDArray combinedPart(long[] start, long[] partShape) throws Exception {
            if (operands.size() != 2 || !(operands.get(0) instanceof DeferredBlock first) || !(operands.get(1) instanceof DeferredBlock second)
                    || !Arrays.equals(first.shape(), shape) || !Arrays.equals(second.shape(), shape)) {
                return null;
            }
            boolean secondCombines = first.fillsInPlace() && second.combinesInPlace();
            if (!secondCombines && !(second.fillsInPlace() && first.combinesInPlace())) {
                return null;
            }
            Optional<RunCombiner> combiner = RunCombiner.of(function.ufunc(), DType.FLOAT64, !secondCombines);
            if (combiner.isEmpty()) {
                return null;
            }
            NDArray result = NDArray.empty(DType.FLOAT64, partShape);
            (secondCombines ? first : second).partInto(start, result);
            (secondCombines ? second : first).combineInto(start, result, combiner.get());
            return result;
        }
    }
}

package org.tessera.array.reshape;

import java.io.Serial;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Metas;
import org.tessera.array.blockwise.BlockFunction;
import org.tessera.array.blockwise.CombinesParts;
import org.tessera.array.blockwise.Blockwise;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.array.creation.CreationLayer;
import org.tessera.array.plan.Working;
import org.tessera.graph.Deferring;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.memory.Footprint.PartMaking;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.error.AxisException;
import org.tessera.ndarray.ufunc.RunCombiner;

/** Axis permutations of chunked arrays: block (i, j) of x.T is block (j, i) of x, transposed (a view). */
public final class Transpose {
    private Transpose() {
    }

    /** Reverses the axes, as NumPy's {@code x.T}. */
    public static ChunkedArray transpose(ChunkedArray array) {
        int[] reversed = new int[array.ndim()];
        for (int axis = 0; axis < reversed.length; axis++) {
            reversed[axis] = reversed.length - 1 - axis;
        }
        return transpose(array, reversed);
    }

    /** Output axis k is input axis {@code axes[k]}. */
    public static ChunkedArray transpose(ChunkedArray array, int... axes) {
        int ndim = array.ndim();
        if (axes.length != ndim) {
            throw new IllegalArgumentException("transpose: axes " + Arrays.toString(axes) + " do not match an array of " + ndim + " axes");
        }
        boolean[] seen = new boolean[ndim];
        int[] normalized = new int[ndim];
        for (int position = 0; position < ndim; position++) {
            int axis = axes[position] < 0 ? axes[position] + ndim : axes[position];
            if (axis < 0 || axis >= ndim) {
                throw new AxisException(axes[position], ndim);
            }
            if (seen[axis]) {
                throw new IllegalArgumentException("transpose: repeated axis in " + Arrays.toString(axes));
            }
            seen[axis] = true;
            normalized[position] = axis;
        }
        String output = CreationLayer.AXIS_LETTERS.substring(0, ndim);
        char[] input = new char[ndim];
        for (int position = 0; position < ndim; position++) {
            input[normalized[position]] = output.charAt(position);
        }
        // A dense block's transpose is a view; another family's (a sparse matrix) is a new array of the block's size.
        Working working = array.meta() instanceof NDArray ? Working.none().makingParts(PartMaking.PASSED, false) : Working.none();
        return Blockwise.of("transpose", new BlockTranspose(normalized), output).input(array, new String(input))
                .token(normalized).meta(Metas.metaFromArray(array, ndim, array.dtype())).working(working).build();
    }

    /** The block with its axes permuted; of a deferred block, a deferred block whose parts are transposed parts. */
    record BlockTranspose(int[] axes) implements BlockFunction, Deferring, CombinesParts {
        @Serial
        private static final long serialVersionUID = 1L;

        /** As the deferred transpose combines: where its input combines transposed parts. */
        @Override
        public boolean combinesParts(HighLevelGraph graph, BlockwiseLayer layer) {
            return layer.inputLayers().size() == 1 && graph.layer(layer.inputLayers().iterator().next()) instanceof BlockwiseLayer input
                    && CombinesParts.partsOf(input) instanceof CombinesParts parts && parts.combinesTransposedParts(axes.length, axes);
        }

        @Override
        public Object apply(List<Object> arguments) {
            return Blocks.transpose(arguments.getFirst(), axes);
        }

        @Override
        public boolean acceptsDeferred(int position) {
            return true;
        }

        @Override
        public Object applyDeferring(List<Object> arguments) {
            return arguments.getFirst() instanceof DeferredBlock block ? new DeferredTranspose(block, axes) : apply(arguments);
        }

        /** A transpose of a deferred block is deferred and computes nothing until its parts are asked. */
        @Override
        public boolean defersCheaply() {
            return true;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof BlockTranspose transpose && Arrays.equals(axes, transpose.axes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(axes);
        }

        @Override
        public String toString() {
            return "BlockTranspose" + Arrays.toString(axes);
        }
    }

    /** Output axis k of a part is axis {@code axes[k]} of the same box of the input. */
    private record DeferredTranspose(DeferredBlock input, int[] axes) implements DeferredBlock {
        @Override
        public long[] shape() {
            return permuted(input.shape(), false);
        }

        @Override
        public NDArray part(long[] start, long[] shape) throws Exception {
            return input.transposedPart(permuted(start, true), permuted(shape, true), axes);
        }

        @Override
        public void combineInto(long[] start, NDArray target, RunCombiner combiner) throws Exception {
            input.combineTransposedInto(permuted(start, true), permuted(target.shape(), true), axes, target, combiner);
        }

        @Override
        public boolean combinesInPlace() {
            return input.combinesTransposedInPlace(axes);
        }

        /** Input order to output order, or back when {@code toInput}. */
        private long[] permuted(long[] values, boolean toInput) {
            long[] result = new long[values.length];
            for (int axis = 0; axis < axes.length; axis++) {
                if (toInput) {
                    result[axes[axis]] = values[axis];
                } else {
                    result[axis] = values[axes[axis]];
                }
            }
            return result;
        }
    }
}

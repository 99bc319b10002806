package org.tessera.array.shape;

import java.io.Serial;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Metas;
import org.tessera.array.blockwise.BlockFunction;
import org.tessera.array.blockwise.Blockwise;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.CreationLayer;
import org.tessera.array.plan.Working;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.layout.Shapes;

/**
 * Axes of length 1 removed, added or broadcast: NumPy's {@code squeeze}, {@code expand_dims} and
 * {@code broadcast_to} with Dask's chunks. All three are blockwise views, so they fuse with their
 * neighbours in the graph; an added axis is one block of length 1, and an axis that broadcasts
 * (new, or of length 1) is one block of the whole target length, as Dask chunks it.
 */
public final class Dimensions {
    private Dimensions() {
    }

    /** Every axis of length 1 removed. */
    public static ChunkedArray squeeze(ChunkedArray x) {
        return squeeze(x, java.util.stream.IntStream.range(0, x.ndim()).filter(axis -> x.shape(axis) == 1).toArray());
    }

    /** The given axes, each of length 1, removed. */
    public static ChunkedArray squeeze(ChunkedArray x, int... axes) {
        int ndim = x.ndim();
        boolean[] removed = new boolean[ndim];
        for (int axis : axes) {
            int normalized = AxisOrder.normalize(axis, ndim);
            if (x.shape(normalized) != 1) {
                throw new IllegalArgumentException("cannot select an axis to squeeze out which has size not equal to one: axis " + axis
                        + " of shape " + Shapes.format(x.shape()));
            }
            if (removed[normalized]) {
                throw new IllegalArgumentException("squeeze: repeated axis " + axis + " in " + Arrays.toString(axes));
            }
            removed[normalized] = true;
        }
        if (axes.length == 0) {
            return x;
        }
        ChunkedArray input = x;
        long[][] lengths = new long[ndim][];
        boolean split = false;
        for (int axis = 0; axis < ndim; axis++) {
            lengths[axis] = removed[axis] ? new long[] {1} : x.chunks().axis(axis);
            split |= removed[axis] && x.chunks().blockCount(axis) != 1;
        }
        if (split) {
            // An axis of length 1 can still hold empty blocks beside its element; merge them away first.
            input = Rechunk.rechunk(x, Chunks.of(lengths));
        }
        String inputLetters = CreationLayer.AXIS_LETTERS.substring(0, ndim);
        StringBuilder outputLetters = new StringBuilder();
        int[] normalizedAxes = java.util.stream.IntStream.range(0, ndim).filter(axis -> removed[axis]).toArray();
        for (int axis = 0; axis < ndim; axis++) {
            if (!removed[axis]) {
                outputLetters.append(inputLetters.charAt(axis));
            }
        }
        // A removed letter is contracted over its single block, which the concatenation hands over unchanged.
        return Blockwise.of("squeeze", new BlockSqueeze(normalizedAxes), outputLetters.toString()).input(input, inputLetters)
                .concatenate(true).token(normalizedAxes).meta(Metas.metaFromArray(x, outputLetters.length(), x.dtype())).working(Working.none()).build();
    }

    /** Axes of length 1 inserted at the given positions of the result (negative count from its end). */
    public static ChunkedArray expandDims(ChunkedArray x, int... axes) {
        int outputNdim = x.ndim() + axes.length;
        boolean[] inserted = new boolean[outputNdim];
        for (int axis : axes) {
            int normalized = AxisOrder.normalize(axis, outputNdim);
            if (inserted[normalized]) {
                throw new IllegalArgumentException("repeated axis in expand_dims: axes " + Arrays.toString(axes));
            }
            inserted[normalized] = true;
        }
        String letters = CreationLayer.AXIS_LETTERS.substring(0, outputNdim);
        StringBuilder inputLetters = new StringBuilder();
        for (int axis = 0; axis < outputNdim; axis++) {
            if (!inserted[axis]) {
                inputLetters.append(letters.charAt(axis));
            }
        }
        int[] normalizedAxes = java.util.stream.IntStream.range(0, outputNdim).filter(axis -> inserted[axis]).toArray();
        Blockwise.Builder builder = Blockwise.of("expand-dims", new BlockExpandDims(normalizedAxes), letters).input(x, inputLetters.toString())
                .token(normalizedAxes).meta(Metas.metaFromArray(x, outputNdim, x.dtype())).working(Working.none());
        for (int axis : normalizedAxes) {
            builder.newAxis(letters.charAt(axis), 1);
        }
        return builder.build();
    }

    /**
     * The array broadcast to {@code shape} by NumPy's rule (new leading axes, axes of length 1
     * stretched); read-only views of the input blocks.
     */
    public static ChunkedArray broadcastTo(ChunkedArray x, long... shape) {
        long[] own = x.chunks().requireKnownShape("broadcast_to");
        int added = shape.length - own.length;
        boolean compatible = added >= 0;
        for (int axis = 0; compatible && axis < own.length; axis++) {
            compatible = own[axis] == shape[added + axis] || own[axis] == 1;
        }
        if (!compatible || Arrays.stream(shape).anyMatch(length -> length < 0)) {
            throw new ShapeMismatchException("cannot broadcast an array of shape " + Shapes.format(own) + " to shape " + Shapes.format(shape));
        }
        if (added == 0 && Arrays.equals(own, shape)) {
            return x;
        }
        long[] stretched = new long[shape.length];
        for (int axis = 0; axis < shape.length; axis++) {
            boolean broadcasts = axis < added || (own[axis - added] == 1 && shape[axis] != 1);
            stretched[axis] = broadcasts ? shape[axis] : -1;
        }
        String letters = CreationLayer.AXIS_LETTERS.substring(0, shape.length);
        Blockwise.Builder builder = Blockwise.of("broadcast-to", new BlockBroadcast(stretched), letters)
                .input(x, letters.substring(added)).meta(Metas.metaFromArray(x, shape.length, x.dtype())).working(Working.none());
        for (int axis = 0; axis < shape.length; axis++) {
            if (axis < added) {
                builder.newAxis(letters.charAt(axis), shape[axis]);
            } else if (stretched[axis] >= 0) {
                builder.adjustChunks(letters.charAt(axis), shape[axis]);
            }
        }
        return builder.token(stretched).build();
    }

    private static Object squeezeBlock(Object block, int[] axes) {
        if (block instanceof NDArray dense) {
            return dense.squeeze(axes);
        }
        long[] shape = Blocks.array(block).shape();
        long[] kept = java.util.stream.IntStream.range(0, shape.length).filter(axis -> Arrays.stream(axes).noneMatch(removed -> removed == axis))
                .mapToLong(axis -> shape[axis]).toArray();
        return Blocks.reshape(block, kept);
    }

    private static Object expandBlock(Object block, int[] axes) {
        if (block instanceof NDArray dense) {
            return dense.expandDims(axes);
        }
        long[] shape = Blocks.array(block).shape();
        long[] expanded = new long[shape.length + axes.length];
        for (int axis = 0, next = 0; axis < expanded.length; axis++) {
            int position = axis;
            expanded[axis] = Arrays.stream(axes).anyMatch(added -> added == position) ? 1 : shape[next++];
        }
        return Blocks.reshape(block, expanded);
    }

    /** The block without the given axes. */
    record BlockSqueeze(int[] axes) implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return squeezeBlock(arguments.getFirst(), axes);
        }

        @Override
        public String toString() {
            return "BlockSqueeze" + Arrays.toString(axes);
        }
    }

    /** The block with axes of length 1 at the given positions. */
    record BlockExpandDims(int[] axes) implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return expandBlock(arguments.getFirst(), axes);
        }

        @Override
        public String toString() {
            return "BlockExpandDims" + Arrays.toString(axes);
        }
    }

    /** The block broadcast: axis k stretched to {@code lengths[k]} where that is not -1, kept elsewhere. */
    record BlockBroadcast(long[] lengths) implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(List<Object> arguments) {
            NDArray block = Blocks.dense(arguments.getFirst(), "broadcast_to");
            long[] target = lengths.clone();
            int added = target.length - block.ndim();
            for (int axis = added; axis < target.length; axis++) {
                if (target[axis] < 0) {
                    target[axis] = block.shape(axis - added);
                }
            }
            return block.broadcastTo(target);
        }

        @Override
        public String toString() {
            return "BlockBroadcast" + Arrays.toString(lengths);
        }
    }
}

package org.tessera.array.linalg;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Metas;
import org.tessera.array.blockwise.BlockFunction;
import org.tessera.array.blockwise.Blockwise;
import org.tessera.array.blockwise.ChunkUnification;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.array.plan.Working;
import org.tessera.array.reduction.ReductionKind;
import org.tessera.array.reduction.TreeReduction;
import org.tessera.array.reshape.Reshape;
import org.tessera.graph.Key;
import org.tessera.graph.memory.Footprint.PartMaking;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.dtype.Casting;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Order;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.ndarray.ufunc.Statistics;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * A contraction of chunked arrays in index notation, as Dask builds matmul, tensordot and einsum:
 * a blockwise product in which the contracted letters stay as extra output axes (one block of
 * length 1 per block of the contracted axis), so each task multiplies one block of each operand
 * with the in-memory BLAS path; then a tree reduction adds the partial products along those axes,
 * {@code splitEvery} at a time. No task ever holds a whole row of blocks, so memory stays bounded
 * however long the contracted axes are (Dask's reason for not concatenating, dask#6874).
 *
 * <p>Partial products are added in the result dtype, as NumPy's matmul accumulates: booleans stay
 * booleans (add is logical or) and small integers wrap as they do in one product.
 */
public final class Contraction {
    private Contraction() {
    }

    /**
     * @param operands      the chunked inputs
     * @param indices       the letters of each operand's axes; a letter shared by operands is one index
     * @param output        the letters of the result's axes; letters only on inputs are contracted
     * @param blockProduct  the in-memory product of one block of each operand, contracted letters
     *                      summed, axes in {@code output} order
     * @param dtype         the result dtype
     * @param splitEvery    how many partial products one task of the tree adds
     */
    public static ChunkedArray contract(String label, List<ChunkedArray> operands, List<String> indices, String output, BlockFunction blockProduct,
                                        DType dtype, int splitEvery) {
        if (operands.size() != indices.size()) {
            throw new IllegalArgumentException(label + ": " + operands.size() + " operands but " + indices.size() + " index patterns " + indices);
        }
        String contracted = contractedLetters(indices, output);
        String partialLetters = output + contracted;
        Blockwise.Builder product = Blockwise.of(label, contracted.isEmpty() ? blockProduct : new WithUnitAxes(blockProduct, contracted.length()),
                partialLetters);
        for (int operand = 0; operand < operands.size(); operand++) {
            product.input(operands.get(operand), indices.get(operand));
        }
        for (char letter : contracted.toCharArray()) {
            long[] ones = new long[blockCount(operands, indices, letter)];
            Arrays.fill(ones, 1);
            product.adjustChunks(letter, ones);
        }
        // A block product is a new array (BLAS writes it, or einsum makes it).
        product.working(OperandBlocks.of(operands, indices, partialLetters, blockProduct instanceof ChunkedProducts.EinsumBlocks ? 1 : 0)
                .makingParts(PartMaking.WHOLE, false, true));
        ChunkedArray partials = product.meta(Metas.common(operands, partialLetters.length(), dtype)).build();
        if (contracted.isEmpty()) {
            return partials;
        }
        int[] summed = new int[contracted.length()];
        boolean oneBlockEach = true;
        for (int position = 0; position < summed.length; position++) {
            summed[position] = output.length() + position;
            oneBlockEach &= partials.chunks().blockCount(summed[position]) == 1;
        }
        if (oneBlockEach) {
            // One partial product per output block is already the sum: drop the unit axes (views).
            return Reshape.reshape(partials, Arrays.copyOf(partials.shape(), output.length()));
        }
        return TreeReduction.reduce(partials, new Addition(dtype), summed, false, splitEvery, Metas.metaFromArray(partials, output.length(), dtype));
    }

    /** Letters on some input but not on the output, in order of first appearance. */
    static String contractedLetters(List<String> indices, String output) {
        StringBuilder contracted = new StringBuilder();
        for (String letters : indices) {
            for (char letter : letters.toCharArray()) {
                if (output.indexOf(letter) < 0 && contracted.indexOf(String.valueOf(letter)) < 0) {
                    contracted.append(letter);
                }
            }
        }
        return contracted.toString();
    }

    /** The number of blocks along {@code letter} once blockwise has unified the operands' chunks. */
    private static int blockCount(List<ChunkedArray> operands, List<String> indices, char letter) {
        List<long[]> candidates = new ArrayList<>();
        for (int operand = 0; operand < operands.size(); operand++) {
            String letters = indices.get(operand);
            for (int axis = 0; axis < letters.length(); axis++) {
                if (letters.charAt(axis) == letter) {
                    candidates.add(operands.get(operand).chunks().axis(axis));
                }
            }
        }
        return ChunkUnification.common(candidates).length;
    }

    /**
     * The working memory of a block product: the BLAS path copies each heap operand, and its
     * result, into native scratch memory (pooled, so made when no idle one is large enough), and an
     * operand of another dtype is cast first; an einsum may also make an intermediate of the
     * result's size ({@code extraResults}). Each operand's block is the one at the task's key: its
     * letters are all letters of the task's output (the contracted ones as trailing unit axes).
     *
     * @param positions per operand, per axis, the position of its letter among the output's letters (-1 where unification
     *                  splits its blocks)
     * @param lengths   per operand, per axis, its block lengths
     * @param itemSizes per operand, its bytes per element, counted twice where it is cast to the result's dtype
     */
    record OperandBlocks(int[][] positions, long[][][] lengths, long[] itemSizes, int extraResults) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        static OperandBlocks of(List<ChunkedArray> operands, List<String> indices, String outputLetters, int extraResults) {
            int count = operands.size();
            int[][] positions = new int[count][];
            long[][][] lengths = new long[count][][];
            long[] itemSizes = new long[count];
            DType result = operands.getFirst().dtype();
            for (ChunkedArray operand : operands) {
                result = org.tessera.ndarray.dtype.Promotion.resultType(result, operand.dtype());
            }
            for (int operand = 0; operand < count; operand++) {
                String letters = indices.get(operand);
                ChunkedArray array = operands.get(operand);
                positions[operand] = new int[letters.length()];
                lengths[operand] = new long[letters.length()][];
                for (int axis = 0; axis < letters.length(); axis++) {
                    char letter = letters.charAt(axis);
                    // Where unification splits the operand's blocks, its block at the key is not at the key's index: the largest stands for it.
                    boolean unified = array.chunks().blockCount(axis) == blockCount(operands, indices, letter);
                    positions[operand][axis] = unified ? outputLetters.indexOf(letter) : -1;
                    lengths[operand][axis] = array.chunks().axis(axis);
                }
                itemSizes[operand] = array.dtype().byteSize() + (array.dtype() == result ? 0 : result.byteSize());
            }
            // b.T @ b block by block: both operands are one block, which the BLAS path (syrk) copies once.
            if (count == 2 && ChunkedProducts.transposeOf(operands.get(0), operands.get(1))) {
                itemSizes[0] = 0;
            }
            return new OperandBlocks(positions, lengths, itemSizes, extraResults);
        }

        @Override
        public long bytes(Key key, long resultBytes) {
            long bytes = resultBytes * (1L + extraResults);
            for (int operand = 0; operand < positions.length; operand++) {
                long elements = 1;
                for (int axis = 0; axis < positions[operand].length; axis++) {
                    long[] along = lengths[operand][axis];
                    int position = positions[operand][axis];
                    int block = position >= 0 && position < key.rank() ? Math.min(key.index(position), along.length - 1) : -1;
                    long length = block >= 0 && along.length > 1 ? along[block] : Arrays.stream(along).max().orElse(0);
                    elements *= Math.max(0, length);
                }
                bytes += elements * itemSizes[operand] * (1L + extraResults);
            }
            return bytes;
        }
    }

    /** The block product with a trailing axis of length 1 per contracted letter, where the tree reduction adds. */
    record WithUnitAxes(BlockFunction product, int count) implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) throws Exception {
            Object result = product.apply(arguments);
            long[] own = Blocks.array(result).shape();
            long[] shape = Arrays.copyOf(own, own.length + count);
            Arrays.fill(shape, own.length, shape.length, 1);
            return Blocks.reshape(result, shape);
        }
    }

    /**
     * Addition of partial products in one dtype: each block is its own partial (it already has
     * length 1 along the summed axes), groups are added.
     */
    record Addition(DType dtype) implements ReductionKind {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public String name() {
            return "sum-of-products";
        }

        @Override
        public NDArray[] chunk(NDArray block, int[] axes, BlockPlace place) {
            return new NDArray[] {block};
        }

        /** A block product is its own partial: nothing is made. */
        @Override
        public double chunkTimesPartial() {
            return 0;
        }

        @Override
        public NDArray[] combine(NDArray[] joined, int[] axes) {
            return new NDArray[] {Statistics.sum(joined[0], new Options(axes, dtype, true, null, null))};
        }

        /**
         * Partial products of length 1 along the summed axis, added in order: what the sum over the
         * joined axis gives, bit for bit, for fewer than eight (NumPy's pairwise sum adds so few one
         * after another), without the joined copy. The sums are made strip by strip, each strip of
         * the result taking every partial's strip while it is in cache, so the result is written
         * once; a sum starts from 0, as NumPy's, so -0.0 comes out +0.0 here already.
         */
        @Override
        public NDArray[] combineInOrder(List<NDArray[]> partials, int[] axes) {
            if (partials.size() >= PAIRWISE_BLOCK || !dtype.isInexact() && !dtype.isInteger()) {
                return null;
            }
            for (NDArray[] partial : partials) {
                if (partial[0].dtype() != dtype || partial[0].shape(axes[0]) != 1) {
                    return null;
                }
            }
            NDArray sum = NDArray.emptyBlock(dtype, Order.C, partials.getFirst()[0].shape());
            long size = sum.size();
            boolean inStrips = partials.stream().allMatch(partial -> partial[0].isCContiguous());
            NDArray[] flat = new NDArray[partials.size()];
            for (int position = 0; position < flat.length; position++) {
                NDArray partial = partials.get(position)[0];
                flat[position] = inStrips ? partial.reshape(size) : partial;
            }
            // Strided partials are added whole.
            long strip = inStrips ? DeferredBlock.STRIP_ELEMENTS : Math.max(1, size);
            NDArray total = sum.reshape(size);
            for (long start = 0; start < size; start += strip) {
                long length = Math.min(strip, size - start);
                NDArray out = inStrips ? total.slice(0, start, 1, length) : sum;
                for (int position = 0; position < flat.length; position++) {
                    NDArray part = inStrips ? flat[position].slice(0, start, 1, length) : flat[position];
                    if (position == 0 && !dtype.isInexact()) {
                        out.assign(part);
                    } else {
                        Ufuncs.ADD.apply(new Object[] {position == 0 ? 0 : out, part}, new NDArray[] {out}, null, Casting.SAME_KIND);
                    }
                }
            }
            return new NDArray[] {sum};
        }

        /** The in-order sum is already the result's values: its summed axes are dropped, not summed again. */
        @Override
        public NDArray finishCombined(NDArray[] combined, int[] axes, boolean keepdims) {
            if (keepdims) {
                return combined[0];
            }
            long[] shape = combined[0].shape();
            long[] kept = new long[shape.length - axes.length];
            int position = 0;
            for (int axis = 0; axis < shape.length; axis++) {
                if (Arrays.binarySearch(axes, axis) < 0) {
                    kept[position++] = shape[axis];
                }
            }
            return combined[0].reshape(kept);
        }

        @Override
        public boolean combinesInOrder(long group, int reducedAxes) {
            return reducedAxes == 1 && group < PAIRWISE_BLOCK && (dtype.isInexact() || dtype.isInteger());
        }

        /** Below this many elements NumPy's pairwise sum adds one after another. */
        private static final int PAIRWISE_BLOCK = 8;

        @Override
        public NDArray finish(NDArray[] joined, int[] axes, boolean keepdims) {
            return Statistics.sum(joined[0], new Options(axes, dtype, keepdims, null, null));
        }

        @Override
        public Reduction familyReduction() {
            return Reduction.SUM;
        }

        @Override
        public DType familyDtype() {
            return dtype;
        }
    }
}

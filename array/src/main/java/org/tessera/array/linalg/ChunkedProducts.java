package org.tessera.array.linalg;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.blockwise.BlockFunction;
import org.tessera.array.blockwise.Blockwise;
import org.tessera.array.blockwise.Elementwise;
import org.tessera.array.join.ChunkedJoining;
import org.tessera.array.reduction.TreeReduction;
import org.tessera.array.reshape.Reshape;
import org.tessera.array.reshape.Transpose;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.dtype.Promotion;
import org.tessera.ndarray.error.AxisException;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.memory.Scratch;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * NumPy's matrix products on chunked arrays: {@code matmul}, {@code dot}, {@code tensordot},
 * {@code outer} and {@code einsum}, each a {@link Contraction} whose blocks are multiplied by the
 * NDArray BLAS path. The result dtype and shape are NumPy's; the chunks are Dask's (an output axis
 * keeps the blocks of the operand axis it comes from, shared axes are unified).
 */
public final class ChunkedProducts {
    private ChunkedProducts() {
    }

    /**
     * {@code a @ b}: the last two axes are matrices, the others batch axes that broadcast; a 1-D
     * first operand is a row and a 1-D second operand a column, whose axis the result drops.
     */
    public static ChunkedArray matmul(ChunkedArray a, ChunkedArray b) {
        return matmul(a, b, TreeReduction.DEFAULT_SPLIT_EVERY);
    }

    /** {@link #matmul(ChunkedArray, ChunkedArray)}, adding {@code splitEvery} partial products per task. */
    public static ChunkedArray matmul(ChunkedArray a, ChunkedArray b, int splitEvery) {
        if (a.ndim() == 2 && b.ndim() == 2 && b.chunks().blockCount(1) > 1 && transposeOf(a, b)) {
            return gram(b, splitEvery);
        }
        return contractedMatmul(a, b, splitEvery);
    }

    /** Whether {@code a} is {@code b.T}: the same graph, so the same name. */
    static boolean transposeOf(ChunkedArray a, ChunkedArray b) {
        return a.name().equals(Transpose.transpose(b).name());
    }

    /**
     * {@code b.T @ b}, which is symmetric: only the blocks on and above the diagonal are computed,
     * those on it through syrk (one triangle, as NumPy's matmul does for {@code b.T @ b}), and each
     * block below is the transpose of its mirror. About half the work of the general product.
     */
    private static ChunkedArray gram(ChunkedArray b, int splitEvery) {
        long[] offsets = b.chunks().offsets(1);
        int count = offsets.length - 1;
        List<ChunkedArray> bands = new ArrayList<>(count);
        for (int band = 0; band < count; band++) {
            bands.add(b.get(Index.all(), Index.range(offsets[band], offsets[band + 1], null)));
        }
        ChunkedArray[][] blocks = new ChunkedArray[count][count];
        for (int row = 0; row < count; row++) {
            for (int column = row; column < count; column++) {
                // On the diagonal both operands are the same block, so its product with its own
                // transpose reaches the NDArray matmul, which sends it to syrk.
                blocks[row][column] = contractedMatmul(Transpose.transpose(bands.get(row)), bands.get(column), splitEvery);
            }
        }
        List<List<ChunkedArray>> grid = new ArrayList<>(count);
        for (int row = 0; row < count; row++) {
            List<ChunkedArray> line = new ArrayList<>(count);
            for (int column = 0; column < count; column++) {
                line.add(column >= row ? blocks[row][column] : Transpose.transpose(blocks[column][row]));
            }
            grid.add(line);
        }
        return ChunkedJoining.block(grid);
    }

    private static ChunkedArray contractedMatmul(ChunkedArray a, ChunkedArray b, int splitEvery) {
        for (int operand = 0; operand < 2; operand++) {
            if ((operand == 0 ? a : b).ndim() == 0) {
                throw new IllegalArgumentException("matmul: Input operand " + operand
                        + " does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)");
            }
        }
        long[] aShape = a.chunks().requireKnownShape("matmul");
        long[] bShape = b.chunks().requireKnownShape("matmul");
        ChunkedArray left = a.ndim() == 1 ? Reshape.reshape(a, 1, aShape[0]) : a;
        ChunkedArray right = b.ndim() == 1 ? Reshape.reshape(b, bShape[0], 1) : b;
        long depth = left.shape(left.ndim() - 1);
        if (right.shape(right.ndim() - 2) != depth) {
            throw new ShapeMismatchException("matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                    + "(n?,k),(k,m?)->(n?,m?) (size " + right.shape(right.ndim() - 2) + " is different from " + depth + "): shapes "
                    + Shapes.format(aShape) + " and " + Shapes.format(bShape));
        }
        long[] leftBatch = Arrays.copyOf(left.shape(), left.ndim() - 2);
        long[] rightBatch = Arrays.copyOf(right.shape(), right.ndim() - 2);
        try {
            Shapes.broadcast(leftBatch, rightBatch);
        } catch (ShapeMismatchException mismatch) {
            throw new ShapeMismatchException("matmul: shapes " + Shapes.format(aShape) + " and " + Shapes.format(bShape) + ": batch dimensions "
                    + Shapes.format(leftBatch) + " and " + Shapes.format(rightBatch) + " do not broadcast");
        }
        if (a.ndim() == 2 && b.ndim() == 2 && GroupedMatmul.serves(left, right, splitEvery)) {
            return GroupedMatmul.matmul(left, right, splitEvery);
        }
        int ndim = Math.max(left.ndim(), right.ndim());
        left = withLeadingOnes(left, ndim);
        right = withLeadingOnes(right, ndim);
        String batch = letters(0, ndim - 2);
        char row = letter(ndim - 2);
        char summed = letter(ndim - 1);
        char column = letter(ndim);
        ChunkedArray product = Contraction.contract("matmul", List.of(left, right), List.of(batch + row + summed, batch + summed + column),
                batch + row + column, new MatmulBlocks(), Promotion.resultType(a.dtype(), b.dtype()), splitEvery);
        if (a.ndim() == 1) {
            product = dropAxis(product, product.ndim() - 2);
        }
        if (b.ndim() == 1) {
            product = dropAxis(product, product.ndim() - 1);
        }
        return product;
    }

    /**
     * NumPy's {@code dot}: with a 0-d operand, the elementwise product; with a 1-D second operand,
     * the sum over the last axis of a and the axis of b; otherwise the sum over the last axis of a
     * and the second to last of b.
     */
    public static ChunkedArray dot(ChunkedArray a, ChunkedArray b) {
        if (a.ndim() == 0 || b.ndim() == 0) {
            return Elementwise.apply(Ufuncs.MULTIPLY, a, b);
        }
        int bAxis = b.ndim() == 1 ? 0 : b.ndim() - 2;
        if (a.shape(a.ndim() - 1) != b.shape(bAxis)) {
            throw new ShapeMismatchException("dot: shapes " + Shapes.format(a.shape()) + " and " + Shapes.format(b.shape()) + " not aligned: "
                    + a.shape(a.ndim() - 1) + " (dim " + (a.ndim() - 1) + ") != " + b.shape(bAxis) + " (dim " + bAxis + ")");
        }
        return tensordot(a, b, new int[] {a.ndim() - 1}, new int[] {bAxis});
    }

    /** NumPy's {@code tensordot} with a count: the last {@code axisCount} axes of a against the first of b. */
    public static ChunkedArray tensordot(ChunkedArray a, ChunkedArray b, int axisCount) {
        if (axisCount < 0 || axisCount > a.ndim() || axisCount > b.ndim()) {
            throw new IllegalArgumentException("tensordot: cannot sum over " + axisCount + " axes of arrays of shapes "
                    + Shapes.format(a.shape()) + " and " + Shapes.format(b.shape()));
        }
        int[] aAxes = new int[axisCount];
        int[] bAxes = new int[axisCount];
        for (int position = 0; position < axisCount; position++) {
            aAxes[position] = a.ndim() - axisCount + position;
            bAxes[position] = position;
        }
        return tensordot(a, b, aAxes, bAxes);
    }

    /**
     * NumPy's {@code tensordot} with axis lists: a's {@code aAxes} are summed against b's
     * {@code bAxes}, pairwise; the result has a's other axes, then b's.
     */
    public static ChunkedArray tensordot(ChunkedArray a, ChunkedArray b, int[] aAxes, int[] bAxes) {
        if (aAxes.length != bAxes.length) {
            throw new ShapeMismatchException("tensordot: shape-mismatch for sum: " + aAxes.length + " axes " + Arrays.toString(aAxes) + " of "
                    + Shapes.format(a.shape()) + " against " + bAxes.length + " axes " + Arrays.toString(bAxes) + " of " + Shapes.format(b.shape()));
        }
        int[] aSummed = normalizedAxes(aAxes, a.ndim(), "tensordot");
        int[] bSummed = normalizedAxes(bAxes, b.ndim(), "tensordot");
        char[] aLetters = new char[a.ndim()];
        char[] bLetters = new char[b.ndim()];
        for (int axis = 0; axis < a.ndim(); axis++) {
            aLetters[axis] = letter(axis);
        }
        for (int axis = 0; axis < b.ndim(); axis++) {
            bLetters[axis] = letter(a.ndim() + axis);
        }
        for (int pair = 0; pair < aSummed.length; pair++) {
            if (a.shape(aSummed[pair]) != b.shape(bSummed[pair])) {
                throw new ShapeMismatchException("tensordot: shape-mismatch for sum: axis " + aSummed[pair] + " of " + Shapes.format(a.shape())
                        + " has length " + a.shape(aSummed[pair]) + " but axis " + bSummed[pair] + " of " + Shapes.format(b.shape())
                        + " has " + b.shape(bSummed[pair]));
            }
            bLetters[bSummed[pair]] = aLetters[aSummed[pair]];
        }
        StringBuilder output = new StringBuilder();
        for (int axis = 0; axis < a.ndim(); axis++) {
            if (!contains(aSummed, axis)) {
                output.append(aLetters[axis]);
            }
        }
        for (int axis = 0; axis < b.ndim(); axis++) {
            if (!contains(bSummed, axis)) {
                output.append(bLetters[axis]);
            }
        }
        return Contraction.contract("tensordot", List.of(a, b), List.of(new String(aLetters), new String(bLetters)), output.toString(),
                new TensordotBlocks(aSummed, bSummed), Promotion.resultType(a.dtype(), b.dtype()), TreeReduction.DEFAULT_SPLIT_EVERY);
    }

    /** NumPy's {@code outer}: both operands flattened, {@code result[i, j] = a[i] * b[j]}; nothing is summed. */
    public static ChunkedArray outer(ChunkedArray a, ChunkedArray b) {
        ChunkedArray flatA = Reshape.ravel(a);
        ChunkedArray flatB = Reshape.ravel(b);
        return Blockwise.of("outer", new OuterBlocks(), "ij").input(flatA, "i").input(flatB, "j")
                .working(Contraction.OperandBlocks.of(List.of(flatA, flatB), List.of("i", "j"), "ij", 0))
                .meta(ChunkedArray.metaOf(Promotion.resultType(a.dtype(), b.dtype()), 2)).build();
    }

    /**
     * NumPy's {@code einsum} for explicit ({@code "ij,jk->ik"}) and implicit ({@code "ij,jk"})
     * subscripts, with {@code "..."} for broadcast axes and repeated letters for diagonals. Each
     * block is evaluated by the NDArray einsum; letters the output lacks are summed across blocks
     * as a tree.
     */
    public static ChunkedArray einsum(String subscripts, ChunkedArray... operands) {
        String compact = subscripts.replace(" ", "");
        int arrow = compact.indexOf("->");
        String inputsPart = arrow < 0 ? compact : compact.substring(0, arrow);
        String[] inputs = inputsPart.split(",", -1);
        if (inputs.length != operands.length) {
            throw new IllegalArgumentException("einsum: '" + subscripts + "' names " + inputs.length + " operands but " + operands.length + " were given");
        }
        int broadcastRank = 0;
        for (int operand = 0; operand < operands.length; operand++) {
            String labels = inputs[operand];
            int explicitCount = labels.replace("...", "").length();
            boolean ellipsis = labels.contains("...");
            int rank = ellipsis ? operands[operand].ndim() - explicitCount : 0;
            if (rank < 0 || (!ellipsis && explicitCount != operands[operand].ndim())) {
                throw new IllegalArgumentException("einsum: operand " + operand + " has " + operands[operand].ndim() + " dimensions (shape "
                        + Shapes.format(operands[operand].shape()) + ") but subscripts '" + labels + "' name " + explicitCount);
            }
            inputs[operand] = labels.replace("...", broadcastLabels(rank));
            broadcastRank = Math.max(broadcastRank, rank);
        }
        String output;
        if (arrow < 0) {
            output = broadcastLabels(broadcastRank) + implicitOutput(inputsPart.replace("...", ""));
        } else {
            String written = compact.substring(arrow + 2);
            if (!written.contains("...") && broadcastRank > 0) {
                throw new IllegalArgumentException("einsum: output has more dimensions than subscripts given in '" + subscripts
                        + "', but no '...' ellipsis provided to broadcast the extra dimensions");
            }
            output = written.replace("...", broadcastLabels(broadcastRank));
        }
        checkLabels(subscripts, inputs, output, operands);
        DType dtype = operands[0].dtype();
        for (ChunkedArray operand : operands) {
            dtype = Promotion.resultType(dtype, operand.dtype());
        }
        String blockSubscripts = String.join(",", inputs) + "->" + output;
        return Contraction.contract("einsum", List.of(operands), List.of(inputs), output, new EinsumBlocks(blockSubscripts), dtype,
                TreeReduction.DEFAULT_SPLIT_EVERY);
    }

    private static void checkLabels(String subscripts, String[] inputs, String output, ChunkedArray[] operands) {
        Map<Character, Long> lengths = new HashMap<>();
        for (int operand = 0; operand < operands.length; operand++) {
            for (int axis = 0; axis < inputs[operand].length(); axis++) {
                char label = inputs[operand].charAt(axis);
                if (!Character.isLetter(label)) {
                    throw new IllegalArgumentException("einsum: invalid subscript '" + label + "' in '" + subscripts + "'");
                }
                long length = operands[operand].shape(axis);
                Long known = lengths.get(label);
                if (known == null || known == 1) {
                    lengths.put(label, length);
                } else if (length != 1 && length != known) {
                    throw new ShapeMismatchException("einsum: label '" + label + "' has length " + known + " and, in operand " + operand + ", "
                            + length + " ('" + subscripts + "')");
                }
            }
        }
        for (int position = 0; position < output.length(); position++) {
            char label = output.charAt(position);
            if (!lengths.containsKey(label) || output.indexOf(label) != position) {
                throw new IllegalArgumentException("einsum: output subscript '" + label + "' "
                        + (lengths.containsKey(label) ? "appears more than once" : "does not appear in the inputs") + " in '" + subscripts + "'");
            }
        }
    }

    /** Labels for the axes an ellipsis covers, aligned from the right; Greek, so they never clash with written labels. */
    private static String broadcastLabels(int rank) {
        StringBuilder labels = new StringBuilder();
        for (int fromRight = rank - 1; fromRight >= 0; fromRight--) {
            labels.append((char) ('\u03b1' + fromRight));
        }
        return labels.toString();
    }

    /** NumPy's implicit output: the labels used exactly once, in sorted order. */
    private static String implicitOutput(String inputs) {
        StringBuilder output = new StringBuilder();
        inputs.chars().filter(Character::isLetter).distinct().sorted()
                .filter(label -> inputs.chars().filter(character -> character == label).count() == 1)
                .forEach(label -> output.append((char) label));
        return output.toString();
    }

    /** The array with leading axes of length 1 up to {@code ndim} (a view per block). */
    private static ChunkedArray withLeadingOnes(ChunkedArray array, int ndim) {
        if (array.ndim() == ndim) {
            return array;
        }
        long[] shape = new long[ndim];
        Arrays.fill(shape, 1);
        System.arraycopy(array.shape(), 0, shape, ndim - array.ndim(), array.ndim());
        return Reshape.reshape(array, shape);
    }

    /** The array without {@code axis}, which has length 1 (blocks keep their chunks). */
    private static ChunkedArray dropAxis(ChunkedArray array, int axis) {
        long[] shape = array.shape();
        long[] kept = new long[shape.length - 1];
        for (int position = 0, target = 0; position < shape.length; position++) {
            if (position != axis) {
                kept[target++] = shape[position];
            }
        }
        return Reshape.reshape(array, kept);
    }

    private static int[] normalizedAxes(int[] axes, int ndim, String operation) {
        int[] normalized = new int[axes.length];
        for (int position = 0; position < axes.length; position++) {
            if (axes[position] < -ndim || axes[position] >= ndim) {
                throw new AxisException(axes[position], ndim);
            }
            normalized[position] = axes[position] < 0 ? axes[position] + ndim : axes[position];
            for (int earlier = 0; earlier < position; earlier++) {
                if (normalized[earlier] == normalized[position]) {
                    throw new IllegalArgumentException(operation + ": repeated axis " + axes[position] + " in " + Arrays.toString(axes));
                }
            }
        }
        return normalized;
    }

    private static boolean contains(int[] values, int value) {
        return Arrays.stream(values).anyMatch(element -> element == value);
    }

    /** Index letters: Latin letters first, then any further characters (Blockwise takes any character). */
    private static char letter(int position) {
        String latin = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        return position < latin.length() ? latin.charAt(position) : (char) ('\u0100' + position);
    }

    private static String letters(int from, int to) {
        StringBuilder letters = new StringBuilder();
        for (int position = from; position < to; position++) {
            letters.append(letter(position));
        }
        return letters.toString();
    }

    /**
     * One block product of matmul (batch axes broadcast inside the block too). The product is made
     * on the heap even where its task runs in scratch memory: it is the partial the task keeps, which
     * would otherwise be copied out of the scratch whole (a 32 MB copy for each 2000² block).
     */
    record MatmulBlocks() implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) throws Exception {
            if (arguments.get(0) instanceof NDArray first && arguments.get(1) instanceof NDArray second) {
                return Scratch.outside(() -> NDArrays.matmul(first, second));
            }
            return Blocks.matmul(arguments.get(0), arguments.get(1));
        }
    }

    /** One block product of tensordot. */
    record TensordotBlocks(int[] aAxes, int[] bAxes) implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(List<Object> arguments) {
            return NDArrays.tensordot(Blocks.dense(arguments.get(0), "tensordot"), Blocks.dense(arguments.get(1), "tensordot"), aAxes, bAxes);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof TensordotBlocks blocks && Arrays.equals(aAxes, blocks.aAxes) && Arrays.equals(bAxes, blocks.bAxes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(aAxes) * 31 + Arrays.hashCode(bAxes);
        }

        @Override
        public String toString() {
            return "TensordotBlocks" + Arrays.toString(aAxes) + Arrays.toString(bAxes);
        }
    }

    /** One block of an outer product. */
    record OuterBlocks() implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(List<Object> arguments) {
            return NDArrays.outer(Blocks.dense(arguments.get(0), "outer"), Blocks.dense(arguments.get(1), "outer"));
        }
    }

    /** One block of an einsum, with explicit subscripts. */
    record EinsumBlocks(String subscripts) implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(List<Object> arguments) {
            List<NDArray> blocks = new ArrayList<>(arguments.size());
            arguments.forEach(argument -> blocks.add(Blocks.dense(argument, "einsum")));
            return NDArrays.einsum(subscripts, blocks.toArray(NDArray[]::new));
        }
    }
}

package org.tessera.array.linalg;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.ChunkedArray;
import org.tessera.array.Metas;
import org.tessera.array.blockwise.BlockFunction;
import org.tessera.array.blockwise.Blockwise;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.array.join.ChunkedJoining;
import org.tessera.array.plan.Working;
import org.tessera.array.reduction.TreeReduction;
import org.tessera.graph.Deferred;
import org.tessera.graph.Deferring;
import org.tessera.graph.Key;
import org.tessera.graph.memory.Footprint.PartMaking;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.layout.Order;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.linalg.Matmul;
import org.tessera.ndarray.memory.NativeBuffers;
import org.tessera.ndarray.memory.Scratch;

/**
 * A product of two chunked matrices of floats whose contracted axis has more blocks than one task
 * adds: each task multiplies a group of {@code splitEvery} block pairs along it and adds the
 * products as it goes, and a tree adds the groups' sums. The general contraction makes every block
 * product a task of its own, held until the first level of the tree adds it: for {@code A.T @ A}
 * over 2000 x 2000 blocks that is a 32 MB array made on the heap, held, added and dropped for every
 * block pair. Here BLAS adds each product into the group's sum itself ({@code beta = 1}), as one
 * product over the group's joined depth adds its panels: no array holds a product, and the sum is
 * rounded once per product rather than the product first (the tree adds the groups' sums in order).
 * A task holds a pair of operand blocks and the sum at a time however long the group: its
 * operands, taken deferred, are made a pair at a time.
 */
final class GroupedMatmul {
    private GroupedMatmul() {
    }

    /** Whether {@link #matmul} serves {@code left @ right}: matrices of one float dtype, with more blocks to add than one task adds. */
    static boolean serves(ChunkedArray left, ChunkedArray right, int splitEvery) {
        return left.ndim() == 2 && right.ndim() == 2 && left.meta() instanceof NDArray && right.meta() instanceof NDArray && left.dtype() == right.dtype()
                && (left.dtype() == DType.FLOAT64 || left.dtype() == DType.FLOAT32)
                && Arrays.equals(left.chunks().axis(1), right.chunks().axis(0)) && left.chunks().blockCount(1) > 1 && splitEvery >= 2;
    }

    /** {@code left @ right}, groups of {@code splitEvery} block pairs along the contracted axis a task each. */
    static ChunkedArray matmul(ChunkedArray left, ChunkedArray right, int splitEvery) {
        // b.T @ b of one column block of b (a block on the diagonal of A.T @ A): one output block, symmetric.
        boolean symmetric = ChunkedProducts.transposeOf(left, right) && right.chunks().blockCount(1) == 1;
        long[] offsets = left.chunks().offsets(1);
        int blocks = offsets.length - 1;
        List<ChunkedArray> sums = new ArrayList<>();
        for (int first = 0; first < blocks; first += splitEvery) {
            int end = Math.min(blocks, first + splitEvery);
            Index along = Index.range(offsets[first], offsets[end], null);
            ChunkedArray leftGroup = left.get(Index.all(), along);
            ChunkedArray rightGroup = right.get(along, Index.all());
            // b.T @ b takes b's blocks alone: a task makes each once and multiplies it with its own transpose.
            List<ChunkedArray> operands = symmetric ? List.of(rightGroup) : List.of(leftGroup, rightGroup);
            List<String> indices = symmetric ? List.of("kj") : List.of("ik", "kj");
            Blockwise.Builder product = Blockwise.of("matmul-group", new GroupProduct(symmetric, left.dtype()), "ij");
            for (int operand = 0; operand < operands.size(); operand++) {
                product.input(operands.get(operand), indices.get(operand));
            }
            if (symmetric) {
                product.newAxis('i', right.chunks().axis(1));
            }
            product.working(new GroupWorking(Contraction.OperandBlocks.of(operands, indices, "ij", 0)).makingParts(PartMaking.WHOLE, false, true));
            sums.add(product.meta(Metas.common(List.of(left, right), 2, left.dtype())).build());
        }
        if (sums.size() == 1) {
            return sums.getFirst();
        }
        ChunkedArray stacked = ChunkedJoining.stack(sums, 2);
        return TreeReduction.reduce(stacked, new Contraction.Addition(left.dtype()), new int[] {2}, false, splitEvery,
                Metas.metaFromArray(stacked, 2, left.dtype()));
    }

    /**
     * The working memory of a group's task: a block product's (its operands in native memory, made
     * there or copied there by BLAS, and the sum BLAS adds into). Its operand blocks are made one
     * pair at a time, so only one pair of them counts, whatever the group's length.
     */
    record GroupWorking(Working product) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long bytes(Key key, long resultBytes) {
            return product.bytes(key, resultBytes);
        }

        /** A pair of operand blocks. */
        @Override
        public int inputsAtOnce() {
            return 2;
        }
    }

    /**
     * The sum of the products of the blocks of one group, in order. Given {@code symmetric} (the
     * first operand is the second's transpose, {@code b.T @ b}) only the second operand's blocks are
     * made, and each product is of a block with its own transpose, which BLAS computes through syrk
     * into the sum's upper triangle; the sum takes its lower triangle once, at the end. The sum and
     * the operand blocks the task makes in place live in pooled native memory, which BLAS reads and
     * adds into where it lies: heap arrays it copies to native memory and back around every call
     * (W2, 2000 x 2000 blocks: 5.40-5.96 s before, 5.08-5.22 s after, alternating four times). The
     * sum is copied to the heap once, at the end.
     */
    record GroupProduct(boolean symmetric, DType dtype) implements BlockFunction, Deferring {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) throws Exception {
            List<?> rights = (List<?>) arguments.get(symmetric ? 0 : 1);
            List<?> lefts = symmetric ? rights : (List<?>) arguments.get(0);
            boolean add = rights.size() > 1;
            Scratch scratch = Scratch.borrow();
            try (NativeBuffers.Lease sumMemory = NativeBuffers.lease()) {
                NDArray[] sum = new NDArray[1];
                for (int block = 0; block < rights.size(); block++) {
                    Object leftBlock = lefts.get(block);
                    Object rightBlock = rights.get(block);
                    try (NativeBuffers.Lease operandMemory = NativeBuffers.lease()) {
                        scratch.call(() -> {
                            NDArray right = made(rightBlock, operandMemory);
                            NDArray left = symmetric ? right.transpose() : made(leftBlock, operandMemory);
                            if (sum[0] == null) {
                                sum[0] = Scratch.outside(() -> array(sumMemory, left.shape(0), right.shape(1)));
                                // A sum starts from 0, as the tree's (-0.0 comes out +0.0); a group of one is its product.
                                if (add) {
                                    sum[0].fill(0.0);
                                }
                            }
                            if (symmetric) {
                                Matmul.gramUpperInto(right, sum[0], add);
                            } else {
                                Matmul.matmulInto(left, right, sum[0], add);
                            }
                            return null;
                        });
                    }
                    scratch.reset();
                }
                if (symmetric) {
                    Matmul.mirrorUpper(sum[0]);
                }
                if (!sum[0].segment().isNative()) {
                    return sum[0];
                }
                // A block of its own, outside any scratch of the task's: the result outlives it.
                NDArray result = Scratch.outside(() -> NDArray.emptyBlock(dtype, Order.C, sum[0].shape()));
                result.assign(sum[0]);
                return result;
            } finally {
                scratch.giveBack();
            }
        }

        /**
         * An operand block: made straight into a pooled native buffer (when large) where the block
         * fills memory in place; else made as it makes itself, and copied by BLAS where it must be.
         */
        private NDArray made(Object operand, NativeBuffers.Lease memory) throws Exception {
            if (!(operand instanceof DeferredBlock deferred) || !deferred.fillsInPlace()) {
                return (NDArray) Deferred.force(operand);
            }
            NDArray block = array(memory, deferred.shape());
            deferred.partInto(new long[block.ndim()], block);
            return block;
        }

        /** A C-ordered array of the group's dtype: over a pooled native buffer when it is large, else as any block (the task's scratch). */
        private NDArray array(NativeBuffers.Lease memory, long... shape) {
            long bytes = Math.multiplyExact(Shapes.size(shape), (long) dtype.byteSize());
            if (bytes < NativeBuffers.MIN_BYTES) {
                return NDArray.emptyBlock(dtype, Order.C, shape);
            }
            return NDArray.wrap(memory.segment(bytes), shape, dtype, Order.C, true);
        }

        @Override
        public boolean acceptsDeferred(int position) {
            return false;
        }

        /** Operand blocks come deferred, so that each pair is made only when its product is. */
        @Override
        public boolean acceptsDeferredItems(int position) {
            return position < (symmetric ? 1 : 2);
        }

        @Override
        public Object applyDeferring(List<Object> arguments) throws Exception {
            return apply(arguments);
        }
    }
}

package org.tessera.array;

import java.util.ArrayList;
import java.util.List;

import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.join.Joining;

/**
 * What block tasks do to a block of any array family. A dense block (NDArray) takes the NDArray
 * path the operations always had (views, no copies); a block of another family goes through its
 * namespace. Operations that need dense blocks ask for {@link #dense}, which refuses another family
 * with a message naming it instead of failing with a ClassCastException.
 */
public final class Blocks {
    private Blocks() {
    }

    /** {@code block} as an array of some family, or an IllegalStateException naming what it is. */
    public static AnyArray<?> array(Object block) {
        if (block instanceof AnyArray<?> array) {
            return array;
        }
        throw new IllegalStateException("a block computed to " + (block == null ? "nothing" : "a " + block.getClass().getName())
                + ", not an array of any family");
    }

    /**
     * {@code block} as an NDArray, for operations that only dense blocks support.
     *
     * @throws UnsupportedOperationException naming the operation and the block's family otherwise
     */
    public static NDArray dense(Object block, String operation) {
        if (block instanceof NDArray array) {
            return array;
        }
        throw new UnsupportedOperationException(operation + " needs dense (NDArray) blocks, but this block is "
                + ArrayFamilies.describe(block) + "; convert the chunks first (for instance map the blocks to dense)");
    }

    public static Object slice(Object block, int axis, long start, long step, long count) {
        if (block instanceof NDArray array) {
            return array.slice(axis, start, step, count);
        }
        return sliceIn(array(block).namespace(), block, axis, start, step, count);
    }

    /** Position {@code position} along {@code axis}, the axis removed (NumPy's integer index). */
    public static Object take(Object block, int axis, long position) {
        if (block instanceof NDArray array) {
            return array.take(axis, position);
        }
        AnyArray<?> sliced = array(slice(block, axis, position, 1, 1));
        long[] shape = sliced.shape();
        long[] removed = new long[shape.length - 1];
        for (int other = 0, next = 0; other < shape.length; other++) {
            if (other != axis) {
                removed[next++] = shape[other];
            }
        }
        return reshape(sliced, removed);
    }

    /** A new axis of length 1 at {@code axis}. */
    public static Object expandDims(Object block, int axis) {
        if (block instanceof NDArray array) {
            return array.expandDims(axis);
        }
        long[] shape = array(block).shape();
        long[] expanded = new long[shape.length + 1];
        for (int other = 0, next = 0; other < expanded.length; other++) {
            expanded[other] = other == axis ? 1 : shape[next++];
        }
        return reshape(block, expanded);
    }

    public static Object reshape(Object block, long... shape) {
        if (block instanceof NDArray array) {
            return array.reshape(shape);
        }
        return reshapeIn(array(block).namespace(), block, shape);
    }

    public static Object transpose(Object block, int... axes) {
        if (block instanceof NDArray array) {
            return axes.length == 0 ? array.transpose() : array.transpose(axes);
        }
        return transposeIn(array(block).namespace(), block, axes);
    }

    public static Object astype(Object block, DType dtype) {
        if (block instanceof NDArray array) {
            return array.dtype() == dtype ? array : array.astype(dtype);
        }
        return astypeIn(array(block).namespace(), block, dtype);
    }

    /** The blocks joined along {@code axis}; blocks of different families meet by the mixing rule. */
    public static Object concatenate(List<?> blocks, int axis) {
        List<NDArray> dense = new ArrayList<>(blocks.size());
        for (Object block : blocks) {
            if (!(block instanceof NDArray array)) {
                break;
            }
            dense.add(array);
        }
        if (dense.size() == blocks.size()) {
            return Joining.concatenate(dense, axis);
        }
        ArrayNamespace<?> family = ArrayFamilies.common(blocks.toArray());
        return concatenateIn(family, List.of(ArrayFamilies.operandsFor(family, blocks.toArray())), axis);
    }

    public static Object reduce(Reduction reduction, Object block, int[] axes, boolean keepdims) {
        return reduceIn(array(block).namespace(), reduction, block, axes, keepdims);
    }

    /** {@code first @ second}; blocks of different families meet by the mixing rule. */
    public static Object matmul(Object first, Object second) {
        ArrayNamespace<?> family = ArrayFamilies.common(first, second);
        Object[] operands = ArrayFamilies.operandsFor(family, first, second);
        return matmulIn(family, operands[0], operands[1]);
    }

    /** The ufunc over blocks and scalars, in the family the mixing rule gives them. */
    public static Object apply(String ufunc, Object... operands) {
        return ArrayFamilies.apply(ufunc, operands);
    }

    /** {@code block} converted into {@code family} (a dense block is converted by the family's asarray). */
    public static Object convert(Object block, ArrayNamespace<?> family) {
        return family.arrayType().isInstance(block) ? block : family.asarray(block);
    }

    private static <A extends AnyArray<A>> A sliceIn(ArrayNamespace<A> family, Object block, int axis, long start, long step, long count) {
        return family.slice(family.cast(block), axis, start, step, count);
    }

    private static <A extends AnyArray<A>> A reshapeIn(ArrayNamespace<A> family, Object block, long[] shape) {
        return family.reshape(family.cast(block), shape);
    }

    private static <A extends AnyArray<A>> A transposeIn(ArrayNamespace<A> family, Object block, int[] axes) {
        return family.transpose(family.cast(block), axes);
    }

    private static <A extends AnyArray<A>> A astypeIn(ArrayNamespace<A> family, Object block, DType dtype) {
        return family.astype(family.cast(block), dtype);
    }

    private static <A extends AnyArray<A>> A concatenateIn(ArrayNamespace<A> family, List<Object> blocks, int axis) {
        return family.concatenate(blocks.stream().map(family::cast).toList(), axis);
    }

    private static <A extends AnyArray<A>> A reduceIn(ArrayNamespace<A> family, Reduction reduction, Object block, int[] axes, boolean keepdims) {
        return family.reduce(reduction, family.cast(block), axes, keepdims);
    }

    private static <A extends AnyArray<A>> A matmulIn(ArrayNamespace<A> family, Object first, Object second) {
        return family.matmul(family.cast(first), family.cast(second));
    }
}

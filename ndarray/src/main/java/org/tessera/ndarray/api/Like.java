package org.tessera.ndarray.api;

import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.dtype.DType;

/**
 * NumPy's {@code like=} (NEP 35) as Java overloads: every creation function with a trailing
 * {@code like} array, whose result belongs to like's family: an NDArray for a dense {@code like},
 * a sparse array for a sparse one, a chunked array with like's chunk type for a chunked one. The
 * call is resolved through {@code like.namespace()}, so a family added through
 * {@link java.util.ServiceLoader} works too.
 *
 * <p>Generic code is written once against the namespace; NEP 35's own example reads:
 * <pre>{@code
 * static <A extends AnyArray<A>> A pad(AnyArray<A> array, double[] padding) {
 *     ArrayNamespace<A> xp = array.namespace();
 *     A edge = Like.asarray(padding, array);            // np.array(padding, like=arr)
 *     return xp.concatenate(List.of(edge, xp.cast(array), edge), 0);
 * }
 * }</pre>
 */
public final class Like {
    private Like() {
    }

    /** The namespace of {@code like}'s family. */
    public static <A extends AnyArray<A>> ArrayNamespace<A> namespace(AnyArray<A> like) {
        return like.namespace();
    }

    public static <A extends AnyArray<A>> A asarray(Object values, AnyArray<A> like) {
        return like.namespace().asarray(values);
    }

    public static <A extends AnyArray<A>> A asarray(Object values, DType dtype, AnyArray<A> like) {
        return like.namespace().asarray(values, dtype);
    }

    /** NumPy's {@code np.array(values, like=like)}: the same as {@link #asarray(Object, AnyArray)} (values are always copied or converted). */
    public static <A extends AnyArray<A>> A array(Object values, AnyArray<A> like) {
        return like.namespace().asarray(values);
    }

    public static <A extends AnyArray<A>> A zeros(DType dtype, long[] shape, AnyArray<A> like) {
        return like.namespace().zeros(dtype, shape);
    }

    public static <A extends AnyArray<A>> A ones(DType dtype, long[] shape, AnyArray<A> like) {
        return like.namespace().ones(dtype, shape);
    }

    public static <A extends AnyArray<A>> A full(DType dtype, double value, long[] shape, AnyArray<A> like) {
        return like.namespace().full(dtype, value, shape);
    }

    public static <A extends AnyArray<A>> A empty(DType dtype, long[] shape, AnyArray<A> like) {
        return like.namespace().empty(dtype, shape);
    }

    public static <A extends AnyArray<A>> A arange(double start, double stop, double step, DType dtype, AnyArray<A> like) {
        return like.namespace().arange(start, stop, step, dtype);
    }

    public static <A extends AnyArray<A>> A arange(long stop, AnyArray<A> like) {
        return like.namespace().arange(stop);
    }

    public static <A extends AnyArray<A>> A linspace(double start, double stop, long count, AnyArray<A> like) {
        return like.namespace().linspace(start, stop, count);
    }

    public static <A extends AnyArray<A>> A eye(long rows, long columns, long k, DType dtype, AnyArray<A> like) {
        return like.namespace().eye(rows, columns, k, dtype);
    }

    public static <A extends AnyArray<A>> A identity(long n, DType dtype, AnyArray<A> like) {
        return like.namespace().identity(n, dtype);
    }
}

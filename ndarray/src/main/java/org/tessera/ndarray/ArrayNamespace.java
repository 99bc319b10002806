package org.tessera.ndarray;

import java.util.List;

import org.tessera.ndarray.dtype.DType;

/**
 * The functions of one array family, so that generic code is written once for all families
 * (NumPy's NEP 35 and the array API standard's namespace): creation functions, conversion to and
 * from the dense family, and the operations generic code needs. Every array answers
 * {@link AnyArray#namespace()}; creating "like" an array is asking its namespace
 * ({@code org.tessera.ndarray.api.Like} spells it as NumPy's {@code like=} overloads).
 *
 * <p>Families are found by {@link ArrayFamilies} through {@link java.util.ServiceLoader}: a third
 * party adds one by implementing this interface (with a public no-argument constructor) and
 * naming the class in {@code META-INF/services/org.tessera.ndarray.ArrayNamespace}.
 *
 * <p>Mixing families follows one documented rule ({@link ArrayFamilies#common}): an operation of
 * this namespace accepts its own arrays, Java scalars (weak, NEP 50), Java arrays and nested lists,
 * and arrays of the families it {@linkplain #absorbs absorbs}; any other array is refused with an
 * IllegalArgumentException naming both families, never converted silently.
 *
 * <p>Ufuncs are named as in NumPy ({@code "add"}, {@code "multiply"}, {@code "sqrt"}, ...), which
 * keeps this interface below the ufunc package.
 *
 * @param <A> the family's array type
 */
public interface ArrayNamespace<A extends AnyArray<A>> {

    // ---------------------------------------------------------------- identity

    /** A short name for messages and lookups: "dense", "sparse", "chunked[sparse]". */
    String family();

    /** The class every array of this family is an instance of. */
    Class<A> arrayType();

    /**
     * Whether arrays of {@code other}'s family may be operands of this namespace, converted into
     * this family (chunked absorbs in-memory families; dense absorbs sparse). Its own family is
     * always accepted.
     */
    default boolean absorbs(ArrayNamespace<?> other) {
        return false;
    }

    /**
     * Whether this family's arrays convert into {@code other}'s when the two meet (sparse yields to
     * dense, as SciPy and pydata-sparse densify {@code sparse + dense}). Lets a family declare its
     * place in the mixing rule without the other family knowing about it.
     */
    default boolean yieldsTo(ArrayNamespace<?> other) {
        return false;
    }

    /** {@code array} as this family's array type, or an IllegalArgumentException naming both families. */
    default A cast(Object array) {
        if (arrayType().isInstance(array)) {
            return arrayType().cast(array);
        }
        throw new IllegalArgumentException("expected an array of the " + family() + " family, got "
                + ArrayFamilies.describe(array));
    }

    // ---------------------------------------------------------------- creation

    /**
     * An array of this family holding {@code values}: an array of any family that this one can
     * convert (every family converts from dense), a Java array of primitives (nested for more
     * axes), a nested {@link List} of numbers or booleans, or a Java scalar (0-d). A null
     * {@code dtype} infers it as NumPy does (floats give float64, integers int64, booleans bool).
     */
    A asarray(Object values, DType dtype);

    default A asarray(Object values) {
        return asarray(values, null);
    }

    A zeros(DType dtype, long... shape);

    default A ones(DType dtype, long... shape) {
        return full(dtype, 1, shape);
    }

    A full(DType dtype, double value, long... shape);

    /** An array whose values must not be relied on; families may return zeros. */
    default A empty(DType dtype, long... shape) {
        return zeros(dtype, shape);
    }

    /** {@code start, start + step, ...} below {@code stop} (above it for a negative step). */
    A arange(double start, double stop, double step, DType dtype);

    default A arange(long stop) {
        return arange(0, stop, 1, DType.INT64);
    }

    /** {@code count} evenly spaced float64 values from {@code start} to {@code stop}, both included. */
    A linspace(double start, double stop, long count);

    /** Ones on the diagonal {@code k} (above the main one when positive) of a rows x columns matrix. */
    A eye(long rows, long columns, long k, DType dtype);

    default A identity(long n, DType dtype) {
        return eye(n, n, 0, dtype);
    }

    /**
     * The meta of this family for {@code dtype} and {@code ndim} axes: an empty array (every length
     * 0) that records family and dtype, as Dask keeps on every chunked array.
     */
    default A meta(DType dtype, int ndim) {
        return zeros(dtype, new long[ndim]);
    }

    // ---------------------------------------------------------------- conversion

    /** The values as a dense array (a copy or a view, as the family can). */
    NDArray toDense(A array);

    // ---------------------------------------------------------------- operations

    /** The NumPy ufunc {@code ufunc} over {@code operands} (arrays this family accepts, Java scalars). */
    A apply(String ufunc, Object... operands);

    default A add(Object first, Object second) {
        return apply("add", first, second);
    }

    default A multiply(Object first, Object second) {
        return apply("multiply", first, second);
    }

    /** {@code reduction} over {@code axes} (null: every axis; negative axes count from the end). */
    A reduce(Reduction reduction, A array, int[] axes, boolean keepdims);

    default A sum(A array, int... axes) {
        return reduce(Reduction.SUM, array, axes.length == 0 ? null : axes, false);
    }

    default A max(A array, int... axes) {
        return reduce(Reduction.MAX, array, axes.length == 0 ? null : axes, false);
    }

    /** The arrays joined along {@code axis}; dtypes promote as in NumPy. */
    A concatenate(List<? extends A> arrays, int axis);

    /** NumPy's matmul for 1-D and 2-D operands (families may support batches). */
    A matmul(A first, A second);

    /** The same elements in C order with {@code shape} (one length may be -1). */
    A reshape(A array, long... shape);

    /** Output axis k is axis {@code axes[k]}; no axes reverse them. */
    A transpose(A array, int... axes);

    /** Elements {@code start, start + step, ...} ({@code count} of them) along {@code axis}. */
    A slice(A array, int axis, long start, long step, long count);

    /** A cast as NumPy's {@code astype} (unsafe casting). */
    A astype(A array, DType dtype);
}

package org.tessera.array.property;

import java.util.Arrays;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.Chunks;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;

/**
 * What "the chunked array equals the dense one" means.
 *
 * <p>Before computing: the chunked array's dtype and number of axes are the dense array's, and so
 * is every axis length it knows (after a boolean mask some are unknown). Computed: the dtype and
 * shape again, then every element.
 *
 * <p>Elements are compared bit for bit (bool and integers by value, floats by their bits with every
 * NaN one NaN, so {@code -0.0} differs from {@code 0.0}; complex numbers part by part) unless the
 * chain has added floating-point values in a different order than the dense array does: a sum,
 * product, mean, variance or standard deviation of floats (of integers too, for the mean and the
 * variance, which are computed in float64), a float matmul or a float cumulative sum or product. Then an element
 * may differ by {@code rtol * max(|expected|, scale)}, with {@code rtol} 1e-9 for float64 and
 * complex128, 1e-4 for float32 and complex64 and 1e-2 for float16 (which bool operands of float
 * ufuncs give, as in NumPy), or the bound of a sum of that many terms in two orders where it is
 * larger ({@link #rtol(DType, long)}), the loosest of the dtypes the chain held since then (a float32 variance
 * cast to float64 keeps its float32 difference), and {@code scale} the largest finite magnitude any
 * dense array of the chain held (a later subtraction may cancel most of a value, never its error);
 * NaN must still be NaN and an infinity the same infinity, except that a complex element with a
 * non-infinite part need only be non-finite too (complex multiplication with infinities is not
 * associative: a cumulative product in blocks may give inf where NumPy's gives NaN), and from
 * such a complex result on, a non-finite element of any later array (its absolute value, say)
 * need only be non-finite. After such a step a chain applies only
 * operations that keep that bound meaningful (no comparisons, divisions by arrays, casts to
 * integers or arg-reductions, whose results a last-bit difference may flip).
 */
final class Comparison {
    static final double RTOL_DOUBLE = 1e-9;
    static final double RTOL_SINGLE = 1e-4;
    static final double RTOL_HALF = 1e-2;

    private Comparison() {
    }

    static void assertPredicts(String where, State state) {
        NDArray dense = state.dense();
        ChunkedArray chunked = state.chunked();
        if (chunked.dtype() != dense.dtype()) {
            throw new AssertionError(where + ": the chunked array predicts dtype " + chunked.dtype() + ", the dense array has " + dense.dtype());
        }
        if (chunked.ndim() != dense.ndim() || chunked.meta().ndim() != dense.ndim()) {
            throw new AssertionError(where + ": the chunked array has " + chunked.ndim() + " axes (meta " + chunked.meta().ndim() + "), the dense array "
                    + Arrays.toString(dense.shape()));
        }
        Chunks chunks = chunked.chunks();
        for (int axis = 0; axis < dense.ndim(); axis++) {
            if (chunks.isKnown(axis) && chunks.axisLength(axis) != dense.shape(axis)) {
                throw new AssertionError(where + ": the chunked array predicts shape " + Arrays.toString(chunked.shape()) + " (chunks " + chunks
                        + "), the dense array has " + Arrays.toString(dense.shape()));
            }
        }
    }

    static void assertComputes(String where, State state, Scheduler scheduler) {
        ChunkedArray chunked = state.chunked();
        if (!chunked.chunks().isKnown()) {
            chunked = chunked.computeChunkSizes(scheduler);
            assertPredicts(where + " (chunk sizes computed)", new State(state.dense(), chunked, state.tolerant(), state.scale(), state.anyNonFinite(), state.rtol()));
        }
        NDArray expected = state.dense();
        NDArray actual = chunked.compute(scheduler);
        if (actual.dtype() != expected.dtype() || !Arrays.equals(actual.shape(), expected.shape())) {
            throw new AssertionError(where + ": computed " + actual.dtype() + Arrays.toString(actual.shape()) + ", expected " + expected.dtype()
                    + Arrays.toString(expected.shape()));
        }
        String mismatch = mismatch(expected, actual, state.tolerant(), state.scale(), state.anyNonFinite(), state.rtol());
        if (mismatch != null) {
            throw new AssertionError(where + ": " + mismatch + "\nexpected " + expected + "\ncomputed " + actual);
        }
    }

    /** The first element that differs, or null. */
    static String mismatch(NDArray expected, NDArray actual, boolean tolerant, double scale, boolean anyNonFinite, double chainRtol) {
        NDArray wanted = expected.copy().reshape(expected.size());
        NDArray found = actual.copy().reshape(actual.size());
        DType dtype = expected.dtype();
        double rtol = Math.max(rtol(dtype), chainRtol);
        for (long element = 0; element < wanted.size(); element++) {
            boolean same = switch (dtype.kind()) {
                case BOOL -> wanted.getBoolean(element) == found.getBoolean(element);
                case SIGNED, UNSIGNED -> wanted.getLong(element) == found.getLong(element);
                case FLOAT -> anyNonFinite && !Double.isFinite(wanted.getDouble(element)) && !Double.isFinite(found.getDouble(element))
                        || same(wanted.getDouble(element), found.getDouble(element), tolerant, rtol, scale);
                case COMPLEX -> {
                    Complex w = wanted.getComplex(element);
                    Complex f = found.getComplex(element);
                    if ((tolerant || anyNonFinite) && !(finite(w) && finite(f))) {
                        // Complex products with an infinite part are not associative: (a b) c and
                        // a (b c) may put inf or NaN in either part. Only being non-finite is kept.
                        yield !finite(w) && !finite(f);
                    }
                    yield same(w.real(), f.real(), tolerant, rtol, scale) && same(w.imag(), f.imag(), tolerant, rtol, scale);
                }
            };
            if (!same) {
                String what = switch (dtype.kind()) {
                    case BOOL -> wanted.getBoolean(element) + " / " + found.getBoolean(element);
                    case SIGNED, UNSIGNED -> wanted.getLong(element) + " / " + found.getLong(element);
                    case FLOAT -> wanted.getDouble(element) + " / " + found.getDouble(element);
                    case COMPLEX -> wanted.getComplex(element) + " / " + found.getComplex(element);
                };
                return "flat element " + element + " differs (expected / computed: " + what + ")" + (tolerant ? ", tolerance " + rtol + " x " + scale : ", bit for bit");
            }
        }
        return null;
    }

    private static boolean same(double wanted, double found, boolean tolerant, double rtol, double scale) {
        if (!tolerant || Double.isNaN(wanted) || Double.isInfinite(wanted)) {
            return Double.doubleToLongBits(wanted) == Double.doubleToLongBits(found);
        }
        return Math.abs(wanted - found) <= rtol * Math.max(Math.abs(wanted), scale);
    }

    /** The largest finite magnitude of an array's elements (of either part of complex ones); 0 for non-float arrays. */
    static double largestMagnitude(NDArray array) {
        if (!array.dtype().isInexact() || array.size() == 0) {
            return 0;
        }
        NDArray flat = array.copy().reshape(array.size());
        double largest = 0;
        for (long element = 0; element < flat.size(); element++) {
            if (array.dtype().isComplex()) {
                Complex value = flat.getComplex(element);
                largest = Math.max(largest, Math.max(finite(value.real()), finite(value.imag())));
            } else {
                largest = Math.max(largest, finite(flat.getDouble(element)));
            }
        }
        return largest;
    }

    /** The relative tolerance of a dtype's precision. */
    static double rtol(DType dtype) {
        return dtype == DType.FLOAT16 ? RTOL_HALF : dtype == DType.FLOAT32 || dtype == DType.COMPLEX64 ? RTOL_SINGLE : RTOL_DOUBLE;
    }

    /**
     * The relative tolerance after {@code terms} values were added in another order: the dtype's,
     * or {@code 2 n u} where that is larger ({@code u} the dtype's unit roundoff). Each of two
     * orders of a sum of {@code n} terms is within {@code n u} of the exact sum, relative to the
     * sum of the terms' magnitudes; that matters in float16, where a cumulative sum along 400
     * elements (bool operands of float ufuncs give float16, as in NumPy) differs by a few percent
     * between NumPy's order and a blockwise one.
     */
    static double rtol(DType dtype, long terms) {
        double unitRoundoff = dtype == DType.FLOAT16 ? 0x1p-11 : dtype == DType.FLOAT32 || dtype == DType.COMPLEX64 ? 0x1p-24 : 0x1p-53;
        return Math.max(rtol(dtype), 2.0 * terms * unitRoundoff);
    }

    static boolean hasNonFinite(NDArray array) {
        NDArray flat = array.copy().reshape(array.size());
        for (long element = 0; element < flat.size(); element++) {
            if (array.dtype().isComplex() ? !finite(flat.getComplex(element)) : !Double.isFinite(flat.getDouble(element))) {
                return true;
            }
        }
        return false;
    }

    private static boolean finite(Complex value) {
        return Double.isFinite(value.real()) && Double.isFinite(value.imag());
    }

    private static double finite(double value) {
        return Double.isFinite(value) ? Math.abs(value) : 0;
    }
}

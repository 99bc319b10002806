package org.tessera.array.reduction;

import java.io.Serial;
import java.io.Serializable;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.Casting;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.ndarray.ufunc.Statistics;
import org.tessera.ndarray.ufunc.Ufuncs;

/** The reductions of NumPy's statistics as {@link ReductionKind}s built on the NDArray layer. */
public final class Kinds {
    private Kinds() {
    }

    /** A reduction of the NDArray layer with its options. */
    @FunctionalInterface
    public interface ArrayReduction extends Serializable {
        NDArray apply(NDArray x, Options options);
    }

    /**
     * A reduction whose partials are of its own kind: each step applies {@code step} (sum of sums,
     * max of maxes); {@code first} is the chunk step when it differs (nansum's chunk, then sums).
     */
    public record Associative(String name, ArrayReduction first, ArrayReduction step, DType dtype) implements ReductionKind {
        @Serial
        private static final long serialVersionUID = 1L;
        /** The most partials {@link #combineInOrder} lays out itself; larger groups are joined as before. */
        private static final int MOST_PARTIALS_SUMMED_IN_ORDER = 128;

        @Override
        public NDArray[] chunk(NDArray block, int[] axes, BlockPlace place) {
            return new NDArray[] {first.apply(block, options(axes, true))};
        }

        @Override
        public NDArray[] combine(NDArray[] joined, int[] axes) {
            return new NDArray[] {step.apply(joined[0], options(axes, true))};
        }

        @Override
        public NDArray finish(NDArray[] joined, int[] axes, boolean keepdims) {
            return step.apply(joined[0], options(axes, keepdims));
        }

        /**
         * A float64 sum of a group of one-element partials (the levels of a whole sum's tree): their
         * values laid out as joining them would lay them out, one after another along the reduced
         * axis, and summed by {@link #combine}, so the bits are the join's. The join itself went
         * through the general concatenation for every task of the level: the first run of W5, whose
         * 33,000 such tasks come before the JIT has compiled it, spent a tenth of its workers' time
         * there.
         */
        @Override
        public NDArray[] combineInOrder(java.util.List<NDArray[]> partials, int[] axes) {
            if (!name.equals("sum") || dtype != null && dtype != DType.FLOAT64 || partials.size() > MOST_PARTIALS_SUMMED_IN_ORDER) {
                return null;
            }
            for (NDArray[] partial : partials) {
                if (partial.length != 1 || partial[0].dtype() != DType.FLOAT64 || partial[0].size() != 1) {
                    return null;
                }
            }
            long[] shape = partials.getFirst()[0].shape();
            shape[axes[0]] = partials.size();
            NDArray joined = NDArray.empty(DType.FLOAT64, shape);
            for (int position = 0; position < partials.size(); position++) {
                NDArray value = partials.get(position)[0];
                joined.segment().set(ValueLayout.JAVA_DOUBLE_UNALIGNED, joined.byteOffset() + (long) position * Double.BYTES,
                        value.segment().get(ValueLayout.JAVA_DOUBLE_UNALIGNED, value.byteOffset()));
            }
            return combine(new NDArray[] {joined}, axes);
        }

        private Options options(int[] axes, boolean keepdims) {
            return new Options(axes, dtype, keepdims, null, null);
        }

        @Override
        public Reduction familyReduction() {
            return switch (name) {
                case "sum" -> Reduction.SUM;
                case "prod" -> Reduction.PROD;
                case "min" -> Reduction.MIN;
                case "max" -> Reduction.MAX;
                default -> null;
            };
        }

        @Override
        public DType familyDtype() {
            return dtype;
        }

        /** The partial is the step's result: nothing else of its size. */
        @Override
        public double chunkTimesPartial() {
            return 0;
        }

        /**
         * A C-ordered copy of a block that is not (a view: a transposed or sliced block) where
         * the reduction runs along its rows, the block cast to the result's dtype where they
         * differ, the NaN mask and the NaN-free copy of the nan-variants, a boolean cast (which
         * is C-ordered already).
         */
        @Override
        public double chunkBytesPerElement(DType input, DType result) {
            return chunkBytesPerElement(input, result, false);
        }

        @Override
        public double chunkBytesPerElement(DType input, DType result, boolean ordered) {
            long layout = ordered ? 0 : input.byteSize();
            long cast = input == result ? 0 : result.byteSize();
            return switch (name) {
                case "sum", "prod" -> layout + cast;
                case "nansum", "nanprod" -> layout + 1 + Math.max(input.byteSize(), result.byteSize()) + cast;
                case "any", "all" -> input.isBool() ? layout : 1;
                case "count_nonzero" -> layout + 1 + 8;
                default -> layout;
            };
        }
    }

    public static ReductionKind sum(DType dtype) {
        return new Associative("sum", Statistics::sum, Statistics::sum, dtype);
    }

    public static ReductionKind prod(DType dtype) {
        return new Associative("prod", Statistics::prod, Statistics::prod, dtype);
    }

    public static ReductionKind max() {
        return new Associative("max", Statistics::max, Statistics::max, null);
    }

    public static ReductionKind min() {
        return new Associative("min", Statistics::min, Statistics::min, null);
    }

    public static ReductionKind any() {
        return new Associative("any", Statistics::any, Statistics::any, null);
    }

    public static ReductionKind all() {
        return new Associative("all", Statistics::all, Statistics::all, null);
    }

    public static ReductionKind nansum(DType dtype) {
        return new Associative("nansum", Statistics::nansum, Statistics::sum, dtype);
    }

    public static ReductionKind nanprod(DType dtype) {
        return new Associative("nanprod", Statistics::nanprod, Statistics::prod, dtype);
    }

    public static ReductionKind nanmax() {
        return new Associative("nanmax", Kinds::quietNanmax, Kinds::quietNanmax, null);
    }

    public static ReductionKind nanmin() {
        return new Associative("nanmin", Kinds::quietNanmin, Kinds::quietNanmin, null);
    }

    public static ReductionKind countNonzero() {
        return new Associative("count_nonzero", Statistics::countNonzero, (x, options) -> Statistics.sum(x, options.withDtype(DType.INT64)), null);
    }

    private static NDArray quietNanmax(NDArray x, Options options) {
        return Statistics.nanmax(x, options);
    }

    private static NDArray quietNanmin(NDArray x, Options options) {
        return Statistics.nanmin(x, options);
    }

    /**
     * Mean and variance from partial moments: count, total and (beyond the mean) the sum of squared
     * deviations from the block's mean, combined pairwise-stably (Chan et al.), so a variance of many
     * blocks keeps the accuracy of a two-pass variance. A mean's partials are sums alone, as Dask's
     * are: no division until the finish, where weighted means divided and multiplied every strip's
     * partial, kernels that a first computation ran cold (W1's timed run allocated 160 MB in the
     * vector fallback of those two).
     */
    public record Moments(String name, boolean skipNan, int order, long ddof, DType dtype) implements ReductionKind {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray[] chunk(NDArray block, int[] axes, BlockPlace place) {
            NDArray values = block.dtype().isComplex() || block.dtype() == DType.FLOAT64 ? block : block.astype(DType.FLOAT64);
            Options keep = new Options(axes, null, true, null, null);
            NDArray total = skipNan ? Statistics.nansum(values, keep) : Statistics.sum(values, keep);
            NDArray count = skipNan ? Statistics.sum(Ufuncs.LOGICAL_NOT.apply(Ufuncs.ISNAN.apply(values)), keep.withDtype(DType.FLOAT64))
                    : NDArrays.full(DType.FLOAT64, elementsPerResult(block, axes), total.shape());
            if (order == 1) {
                return new NDArray[] {count, total};
            }
            NDArray mean = Ufuncs.TRUE_DIVIDE.apply(total, count);
            if (!skipNan && !values.dtype().isComplex()) {
                return new NDArray[] {count, total, Statistics.squaredDeviationSums(values, mean, keep)};
            }
            NDArray deviations = Ufuncs.SUBTRACT.apply(values, mean);
            // |d|² of a real d is d·d bit for bit: squared in place, a block makes one temporary, not three,
            // and the product runs the contiguous kernel where the square went through lane buffers.
            NDArray squares = values.dtype().isComplex() ? Ufuncs.SQUARE.apply(Ufuncs.ABSOLUTE.apply(deviations))
                    : Ufuncs.MULTIPLY.apply(new Object[] {deviations, deviations}, new NDArray[] {deviations}, null, Casting.SAME_KIND)[0];
            // NumPy's nanvar leaves the NaN elements out, but not the NaN that an infinity makes
            // (inf - inf): the variance of values with an infinity is NaN.
            NDArray kept = skipNan ? NDArrays.where(Ufuncs.ISNAN.apply(values), 0.0, squares) : squares;
            NDArray m2 = Statistics.sum(kept, keep);
            return new NDArray[] {count, total, m2};
        }

        /** A count and a total (of the values' dtype: complex or float64), and M2 beyond the mean. */
        @Override
        public long partialItemBytes(DType input, DType result) {
            return 8 + (input.isComplex() ? 16 : 8) + (order == 1 ? 0 : 8);
        }

        @Override
        public int partialArrays() {
            return order == 1 ? 2 : 3;
        }

        /**
         * The block cast to float64 (other than complex and float64 blocks), or else a C-ordered
         * copy of a block that is not; the nan-variants' NaN masks, their count cast to float64
         * and the NaN-free copy of nansum; beyond the mean, the deviations (their magnitudes and
         * squares for complex values), and the nan-variants' mask and NaN-free squares.
         */
        @Override
        public double chunkBytesPerElement(DType input, DType result) {
            return chunkBytesPerElement(input, result, false);
        }

        @Override
        public double chunkBytesPerElement(DType input, DType result, boolean ordered) {
            long values = input.isComplex() ? 16 : 8;
            double bytes = input.isComplex() || input == DType.FLOAT64 ? (ordered ? 0 : input.byteSize()) : 8;
            if (skipNan) {
                bytes += 1 + 1 + 8 + 1 + values;
            }
            if (order > 1) {
                bytes += values + (input.isComplex() ? 16 : 0) + (skipNan ? 1 + 8 : 0);
            }
            return bytes;
        }

        /** Weighted means, shifts and their squares over the joined partials, a few arrays of their size. */
        @Override
        public double combineTimesJoined() {
            return 3;
        }

        /** Sums, their sum and the division of the combination, then a finish's division, clip, root and cast. */
        @Override
        public double finishTimesPartial() {
            return 3;
        }

        private static double elementsPerResult(NDArray block, int[] axes) {
            double count = 1;
            for (int axis : axes) {
                count *= block.shape(axis);
            }
            return count;
        }

        @Override
        public NDArray[] combine(NDArray[] joined, int[] axes) {
            Options keep = new Options(axes, null, true, null, null);
            NDArray count = Statistics.sum(joined[0], keep);
            // A block with no values (all NaN, for the nan-variants) has total 0 and count 0: it adds nothing.
            NDArray total = Statistics.sum(joined[1], keep);
            if (order == 1) {
                return new NDArray[] {count, total};
            }
            // Each block's mean is the one its chunk step took the deviations from (the same division);
            // an empty block's (NaN) adds nothing between the blocks.
            NDArray shift = Ufuncs.SUBTRACT.apply(Ufuncs.TRUE_DIVIDE.apply(joined[1], joined[0]), Ufuncs.TRUE_DIVIDE.apply(total, count));
            NDArray between = blockSum(joined[0], Ufuncs.MULTIPLY.apply(joined[0], Ufuncs.SQUARE.apply(Ufuncs.ABSOLUTE.apply(shift))), keep);
            NDArray m2 = Ufuncs.ADD.apply(Statistics.sum(joined[2], keep), between);
            return new NDArray[] {count, total, m2};
        }

        /**
         * NumPy adds a float16 or float32 array's values in a float of their own width (a float16
         * mean's in float32), and a variance's squared deviations too, each sum rounded at its end;
         * the moments here are added in float64, accurately. Where NumPy's sum passes its float's
         * range, its result is infinite: the mean of float32 values of 3e38 (Dask's too), the
         * variance of a thousand float16 100s (65504 is float16's largest), of float16 values 400
         * apart, or of a thousand float32 1e36s. Found by the chained properties: the standard
         * deviation of float16 [e, e^11] (59872), 42336 against NumPy's and Dask's infinity. Where
         * the total of the values, or the sum of squared deviations, rounds to infinity in that
         * float, the result is NumPy's: the mean the rounded total divided by the count (signed),
         * the variance infinite. A NaN (an infinity among the values) stays. A sum NumPy passes
         * through an overflow on its way to a total in range (3e38 + 3e38 - 3e38) is not caught;
         * nor are complex64 values, whose moments stay accurate.
         */
        private NDArray asNumPyOverflows(NDArray[] combined, NDArray result) {
            DType accumulator = order == 1 && dtype == DType.FLOAT16 ? DType.FLOAT32 : dtype;
            if ((accumulator != DType.FLOAT16 && accumulator != DType.FLOAT32) || combined[1].dtype().isComplex()) {
                return result;
            }
            NDArray total = combined[1].astype(accumulator);
            NDArray notNan = Ufuncs.LOGICAL_NOT.apply(Ufuncs.ISNAN.apply(result));
            if (order == 1) {
                NDArray overflows = Ufuncs.LOGICAL_AND.apply(Ufuncs.ISINF.apply(total), notNan);
                return NDArrays.where(overflows, Ufuncs.TRUE_DIVIDE.apply(total.astype(result.dtype()), combined[0]), result);
            }
            NDArray squares = combined[2].astype(accumulator);
            NDArray overflows = Ufuncs.LOGICAL_OR.apply(Ufuncs.ISINF.apply(total), Ufuncs.ISINF.apply(squares));
            return NDArrays.where(Ufuncs.LOGICAL_AND.apply(overflows, notNan), Double.POSITIVE_INFINITY, result);
        }

        /** The sum of the blocks' terms, leaving out the blocks with no values (a NaN that only those make). */
        private NDArray blockSum(NDArray counts, NDArray terms, Options keep) {
            return skipNan ? Statistics.sum(NDArrays.where(Ufuncs.EQUAL.apply(counts, 0.0), 0.0, terms), keep) : Statistics.sum(terms, keep);
        }

        @Override
        public NDArray finish(NDArray[] joined, int[] axes, boolean keepdims) {
            NDArray[] combined = combine(joined, axes);
            NDArray result = order == 1 ? Ufuncs.TRUE_DIVIDE.apply(combined[1], combined[0])
                    : Ufuncs.TRUE_DIVIDE.apply(combined[2], Ufuncs.MAXIMUM.apply(Ufuncs.SUBTRACT.apply(combined[0], (double) ddof), 0.0));
            if (dtype != null) {
                result = asNumPyOverflows(combined, result);
            }
            if (order == 3) {
                result = Ufuncs.SQRT.apply(result);
            }
            if (!keepdims) {
                result = result.squeeze(axes);
            }
            return dtype == null || result.dtype() == dtype ? result : result.astype(dtype);
        }
    }

    public static ReductionKind mean(boolean skipNan, DType dtype) {
        return new Moments(skipNan ? "nanmean" : "mean", skipNan, 1, 0, dtype);
    }

    public static ReductionKind var(boolean skipNan, long ddof, DType dtype) {
        return new Moments(skipNan ? "nanvar" : "var", skipNan, 2, ddof, dtype);
    }

    public static ReductionKind std(boolean skipNan, long ddof, DType dtype) {
        return new Moments(skipNan ? "nanstd" : "std", skipNan, 3, ddof, dtype);
    }
}

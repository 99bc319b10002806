package org.tessera.array.property;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.chunks.UnknownChunksException;
import org.tessera.array.creation.Creation;
import org.tessera.array.join.ChunkedJoining;
import org.tessera.array.overlap.Boundary;
import org.tessera.array.property.Step.Kind;
import org.tessera.array.reduction.CumulativeScan;
import org.tessera.array.slicing.ChunkedIndex;
import org.tessera.array.slicing.Slicing;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * The failures {@link ChunkedPropertyTest} found, shrunk, as plain tests: each runs the shrunk chain
 * and states the defect directly where it can be stated in a line or two.
 */
class ChunkedPropertyRegressionTest {
    private static final SynchronousScheduler SYNCHRONOUS = new SynchronousScheduler();

    private static ChunkedArray chunked(NDArray values, long[]... lengths) {
        return Creation.fromSource(RegionSource.of(values), ChunkSpec.explicit(lengths));
    }

    /**
     * Caught: a complex64 cumprod along an axis that held an infinity and a zero gave 2 where NumPy
     * gives NaN. A blocked scan multiplies in another order than NumPy's (a block's scan times the
     * carry), and where an infinity meets a zero the order decides between NaN and a number; the
     * chains skip float products that may overflow for that reason, but counted only infinities an
     * overflow would make, not those already in the array.
     */
    @Test
    void aProductOverAnInfinityIsSkippedAsOneThatMayOverflow() {
        NDArray values = NDArray.zeros(DType.COMPLEX64, 3);
        values.setComplex(new org.tessera.ndarray.dtype.Complex(Double.POSITIVE_INFINITY, 0), 0);
        values.setComplex(new org.tessera.ndarray.dtype.Complex(0.5, 0), 2);
        assertTrue(Steps.mayOverflow(values, 3));
        values.setComplex(new org.tessera.ndarray.dtype.Complex(2, 0), 0);
        assertFalse(Steps.mayOverflow(values, 3));
        new Chain(new long[] {3, 2}, DType.COMPLEX64, 0L, 0L, List.of(new Step(Kind.FANCY_INDEX, 0, 0, 0, 0L), new Step(Kind.CUMULATIVE, 1, 0, 2, 0L),
                new Step(Kind.UNARY, 1, 0, 0, 0L), new Step(Kind.BINARY_SCALAR, 4, 0, 0, 0L))).run(SYNCHRONOUS);
    }

    /** Caught: stacking empty arrays chunked (0,) and (0, 0) asked a block the first grid lacks (IndexOutOfBounds). */
    @Test
    void stackOfEmptyArraysWithDifferentEmptyBlocks() {
        new Chain(new long[] {0}, DType.BOOL, 0L, 0L, List.of(new Step(Kind.STACK, 0, 0, 1, -2L))).run(new ThreadedScheduler());
        ChunkedArray first = chunked(NDArray.zeros(DType.INT64, 0), new long[] {0});
        ChunkedArray second = chunked(NDArray.zeros(DType.INT64, 0), new long[] {0, 0});
        ChunkedArray stacked = ChunkedJoining.stack(List.of(first, second), 0);
        assertArrayEquals(new long[] {2, 0}, stacked.compute(SYNCHRONOUS).shape());
    }

    /** Caught: concatenating arrays whose axis of length 1 is chunked (1,) and (0, 1) lined the grids up wrongly. */
    @Test
    void concatenateAlongAnotherAxisOfLengthOneWithAnEmptyBlock() {
        NDArray values = NDArrays.arange(3).reshape(3, 1);
        ChunkedArray first = chunked(values, new long[] {3}, new long[] {1});
        ChunkedArray second = chunked(values, new long[] {1, 2}, new long[] {0, 1});
        NDArray joined = ChunkedJoining.concatenate(List.of(first, second), 0).compute(SYNCHRONOUS);
        assertEquals(NDArrays.concatenate(List.of(values, values), 0).toString(), joined.toString());
    }

    /** Caught: stack compared unknown lengths (-1) after a chunked mask as shapes and reported a shape (-1,). */
    @Test
    void stackAfterAChunkedMaskAsksForChunkSizes() {
        new Chain(new long[] {0}, DType.BOOL, 0L, 0L, List.of(new Step(Kind.BOOL_INDEX, 0, 0, 1, 0L), new Step(Kind.STACK, 0, 0, 0, 0L)))
                .run(SYNCHRONOUS);
        NDArray values = NDArrays.arange(4);
        ChunkedArray x = chunked(values, new long[] {2, 2});
        ChunkedArray masked = Slicing.get(x, List.of(ChunkedIndex.mask(x.greater(0L))));
        assertThrows(UnknownChunksException.class, () -> ChunkedJoining.stack(List.of(masked, masked), 0));
    }

    /** Caught: min of an array with an empty block along the reduced axis failed in the empty block's task. */
    @Test
    void minOverAnAxisWithAnEmptyBlock() {
        new Chain(new long[] {1}, DType.BOOL, 0L, 3L, List.of(new Step(Kind.REDUCE, 4, 0, 0, 0L))).run(SYNCHRONOUS);
        NDArray values = NDArrays.array(3L, -1L, 4L);
        ChunkedArray x = chunked(values, new long[] {1, 0, 2, 0});
        assertEquals(-1L, x.min().compute(SYNCHRONOUS).getLong());
        assertEquals(4L, x.max(0).compute(SYNCHRONOUS).getLong());
        assertEquals(1L, x.argmin().compute(SYNCHRONOUS).getLong());
        assertEquals(Chunks.of(new long[] {1, 0, 2, 0}), x.chunks());
    }

    /** Caught: x[mask] = 7 with a chunked mask chunked (1,) over an axis chunked (0, 1) gave the empty block the whole mask block. */
    @Test
    void maskedAssignmentWithAMaskChunkedOtherwise() {
        new Chain(new long[] {1}, DType.BOOL, 0L, 3L, List.of(new Step(Kind.SET_MASK, 0, 0, 1, 0L))).run(SYNCHRONOUS);
        NDArray values = NDArrays.array(1L, 2L, 3L);
        ChunkedArray x = chunked(values, new long[] {0, 1, 0, 2});
        ChunkedArray mask = chunked(NDArrays.array(true, false, true), new long[] {3});
        assertEquals("array([7, 2, 7])", Slicing.set(x, mask, 7L).compute(SYNCHRONOUS).toString());
    }

    /** Caught: a cumulative scan took the last slice of an empty block as the running total (out of bounds). */
    @Test
    void cumulativeScanOverEmptyBlocks() {
        new Chain(new long[] {1, 1, 0}, DType.BOOL, 0L, 1L, List.of(new Step(Kind.CUMULATIVE, 0, 0, 2, 0L))).run(new ThreadedScheduler());
        new Chain(new long[] {4, 3, 1, 17}, DType.INT32, 12185L, 330L,
                List.of(new Step(Kind.UNARY, 999, 1, 0, -2L), new Step(Kind.CUMULATIVE, 293, 35, 71, 281L))).run(SYNCHRONOUS);
        NDArray values = NDArrays.array(1L, 2L, 3L, 4L);
        for (org.tessera.array.reduction.CumulativeScan.Method method : org.tessera.array.reduction.CumulativeScan.Method.values()) {
            ChunkedArray x = chunked(values, new long[] {0, 2, 0, 0, 2, 0});
            assertEquals("array([ 1,  3,  6, 10])", x.cumsum(0, method).compute(SYNCHRONOUS).toString(), method.toString());
            assertEquals("array([ 1,  2,  6, 24])", x.cumprod(0, method).compute(SYNCHRONOUS).toString(), method.toString());
        }
    }

    /** Caught: cumsum of a 0-d array with no axis failed in flatten; NumPy returns the 1-D array of the element. */
    @Test
    void cumulativeScanOfAZeroDimensionalArray() {
        new Chain(new long[] {}, DType.BOOL, 0L, 0L, List.of(new Step(Kind.CUMULATIVE, 0, 0, 0, 0L))).run(SYNCHRONOUS);
        ChunkedArray x = chunked(NDArray.scalar(5L));
        assertEquals("array([5])", x.cumsum().compute(SYNCHRONOUS).toString());
        assertEquals("array([5])", x.cumprod().compute(SYNCHRONOUS).toString());
    }

    /** Caught: an operand of length 1 chunked (0, 1, 0) broadcast against length 0 made chunks (0, 1, 0) the common ones. */
    @Test
    void broadcastOfALengthOneAxisSplitByEmptyBlocks() {
        new Chain(new long[] {0}, DType.BOOL, 0L, 0L, List.of(new Step(Kind.BINARY_ARRAY, 0, 0, 1, 3L))).run(SYNCHRONOUS);
        ChunkedArray x = chunked(NDArrays.array(1L, 2L, 3L), new long[] {1, 2});
        ChunkedArray y = chunked(NDArrays.array(10L), new long[] {0, 1, 0});
        assertEquals("array([11, 12, 13])", x.add(y).compute(SYNCHRONOUS).toString());
        assertEquals("array([11, 12, 13])", y.add(x).compute(SYNCHRONOUS).toString());
    }

    /** Caught: reshape of chunks ((1,), (1, 0)) to (1,): Dask's rule found no chunks with the empty block. */
    @Test
    void reshapeWithAnEmptyBlock() {
        new Chain(new long[] {2, 4}, DType.BOOL, 0L, 0L, List.of(new Step(Kind.RESHAPE, 0, 0, 0, 2L), new Step(Kind.MATMUL, 0, 0, 1, -8L)))
                .run(new ThreadedScheduler());
        ChunkedArray x = chunked(NDArrays.arange(6).reshape(2, 3), new long[] {1, 0, 1}, new long[] {3, 0});
        assertEquals("array([0, 1, 2, 3, 4, 5])", x.reshape(6).compute(SYNCHRONOUS).toString());
        assertEquals("array([[0, 1],\n       [2, 3],\n       [4, 5]])", x.reshape(3, 2).compute(SYNCHRONOUS).toString());
    }

    /** Caught: nanvar of values with an infinity was inf (or 0) where NumPy's is NaN: the NaN of inf - inf was skipped as missing. */
    @Test
    void nanvarOfValuesWithAnInfinityIsNan() {
        new Chain(new long[] {2, 5}, DType.FLOAT32, 0L, 0L, List.of(new Step(Kind.REDUCE, 86, 0, 0, 0L))).run(SYNCHRONOUS);
        NDArray values = NDArrays.array(1.0, Double.NaN, 2.0, Double.POSITIVE_INFINITY, 3.0);
        assertEquals("array(nan)", NDArrays.nanvar(values, org.tessera.ndarray.ufunc.Reductions.Options.all(), 0).toString());
        ChunkedArray x = chunked(values, new long[] {2, 2, 1});
        assertEquals("array(nan)", x.nanvar().compute(SYNCHRONOUS).toString());
        assertEquals("array(nan)", x.nanstd().compute(SYNCHRONOUS).toString());
        ChunkedArray finite = chunked(NDArrays.array(1.0, Double.NaN, 2.0, Double.NaN, 3.0), new long[] {2, 2, 1});
        assertEquals("array(0.6666666666666666)", finite.nanvar().compute(SYNCHRONOUS).toString());
    }

    /**
     * Caught: rechunk of an array with no elements returned it with its old chunks, so operands'
     * block grids disagreed; and an array made from an NDArray of shape (0, 2) kept that array as its
     * meta, which does not broadcast with the meta (0,) of another operand.
     */
    @Test
    void rechunkOfAnEmptyArrayGivesTheChunksAsked() {
        new Chain(new long[] {0, 2}, DType.BOOL, 0L, 1L, List.of(new Step(Kind.BINARY_ARRAY, 0, 0, 0, 0L))).run(SYNCHRONOUS);
        ChunkedArray x = chunked(NDArray.zeros(DType.INT64, 0, 2), new long[] {0}, new long[] {2});
        Chunks target = Chunks.of(new long[] {0, 0}, new long[] {1, 0, 1});
        ChunkedArray rechunked = x.rechunk(target);
        assertEquals(target, rechunked.chunks());
        assertEquals(6, rechunked.computeBlocks().size());
        ChunkedArray y = chunked(NDArrays.array(1L, 2L), new long[] {0, 2});
        assertArrayEquals(new long[] {0, 2}, x.add(y).compute(SYNCHRONOUS).shape());
        ChunkedArray fromArray = org.tessera.array.api.ChunkedArrays.fromArray(NDArray.zeros(DType.INT64, 0, 2), ChunkSpec.size(1));
        assertArrayEquals(new long[] {0, 0}, fromArray.meta().shape());
        assertArrayEquals(new long[] {0, 2}, fromArray.add(y).compute(SYNCHRONOUS).shape());
    }

    /** Caught: matmul counted the blocks of a contracted axis of length 1 chunked (0, 1) otherwise than blockwise unified them. */
    @Test
    void matmulOverAContractedAxisOfLengthOneWithAnEmptyBlock() {
        new Chain(new long[] {1, 0}, DType.BOOL, 0L, 0L, List.of(new Step(Kind.MATMUL, 0, 0, 1, -2L))).run(new ThreadedScheduler());
        ChunkedArray a = chunked(NDArrays.array(2L, 3L).reshape(2, 1), new long[] {2}, new long[] {1});
        ChunkedArray b = chunked(NDArrays.array(5L, 7L).reshape(1, 2), new long[] {0, 1}, new long[] {1, 1});
        assertEquals("array([[10, 14],\n       [15, 21]])", a.matmul(b).compute(SYNCHRONOUS).toString());
    }

    /** Caught: concatenate compared an unknown length (-1) after a chunked mask with a known one and reported mismatched shapes. */
    @Test
    void concatenateAlongAKnownAxisAfterAChunkedMaskAsksForChunkSizes() {
        new Chain(new long[] {0, 0}, DType.BOOL, 0L, 0L, List.of(new Step(Kind.BOOL_INDEX, 0, 0, 1, -1L), new Step(Kind.CONCATENATE, 0, 0, 0, 0L)))
                .run(new ThreadedScheduler());
        NDArray values = NDArrays.arange(6).reshape(2, 3);
        ChunkedArray x = chunked(values, new long[] {1, 1}, new long[] {2, 1});
        ChunkedArray columns = chunked(NDArrays.array(true, false, true), new long[] {2, 1});
        ChunkedArray masked = Slicing.get(x, List.of(ChunkedIndex.of(org.tessera.ndarray.index.Index.all()), ChunkedIndex.mask(columns)));
        assertThrows(UnknownChunksException.class, () -> ChunkedJoining.concatenate(List.of(masked, masked), 0));
        ChunkedArray known = masked.computeChunkSizes(SYNCHRONOUS);
        assertEquals("array([[0, 2],\n       [3, 5],\n       [0, 2],\n       [3, 5]])",
                ChunkedJoining.concatenate(List.of(known, known), 0).compute(SYNCHRONOUS).toString());
    }

    /** Caught: unifying the chunks (0, 0) and (0, 0, 0) of an axis without elements gave an axis with no blocks. */
    @Test
    void concatenateArraysWhoseEmptyAxisIsChunkedDifferently() {
        new Chain(new long[] {1, 2, 0}, DType.BOOL, 0L, 5L,
                List.of(new Step(Kind.REDUCE, 0, 0, 2, 0L), new Step(Kind.BOOL_INDEX, 0, 0, 1, -55L), new Step(Kind.CONCATENATE, 1, 0, 0, -2L)))
                .run(SYNCHRONOUS);
        assertArrayEquals(new long[] {0}, org.tessera.array.blockwise.ChunkUnification.common(List.of(new long[] {0, 0}, new long[] {0, 0, 0})));
        ChunkedArray first = chunked(NDArray.zeros(DType.INT64, 2, 0), new long[] {1, 1}, new long[] {0, 0});
        ChunkedArray second = chunked(NDArray.zeros(DType.INT64, 3, 0), new long[] {3}, new long[] {0, 0, 0});
        assertArrayEquals(new long[] {5, 0}, ChunkedJoining.concatenate(List.of(first, second), 0).compute(SYNCHRONOUS).shape());
    }

    /**
     * Caught: x[mask] = 7 into an array of unknown lengths (after a chunked mask) with a mask chunked
     * otherwise let the mask's one block broadcast over blocks it does not match; it now asks for
     * computeChunkSizes unless the chunks are the same.
     */
    @Test
    void maskedAssignmentIntoUnknownLengths() {
        new Chain(new long[] {3}, DType.BOOL, 0L, 0L, List.of(new Step(Kind.BOOL_INDEX, 0, 0, 1, -13L), new Step(Kind.SET_MASK, 0, 0, 1, 0L)))
                .run(SYNCHRONOUS);
        NDArray values = NDArrays.array(1L, -2L, 3L, -4L);
        ChunkedArray x = chunked(values, new long[] {2, 2});
        ChunkedArray positive = Slicing.get(x, List.of(ChunkedIndex.mask(x.greater(0L))));
        ChunkedArray otherMask = chunked(NDArrays.array(true, false), new long[] {2});
        assertThrows(UnknownChunksException.class, () -> Slicing.set(positive, otherMask, 7L));
        ChunkedArray aboveTwo = Slicing.get(x.greater(2L), List.of(ChunkedIndex.mask(x.greater(0L))));
        ChunkedArray sameChunks = Slicing.set(positive, aboveTwo, 7L);
        assertEquals("array([1, 7])", sameChunks.computeChunkSizes(SYNCHRONOUS).compute(SYNCHRONOUS).toString());
    }

    /** Caught: cumsum of the flattened array with unknown lengths failed with NegativeArraySizeException. */
    @Test
    void flattenedScanOfUnknownLengthsAsksForChunkSizes() {
        new Chain(new long[] {0}, DType.BOOL, 0L, 0L, List.of(new Step(Kind.BOOL_INDEX, 0, 0, 1, 0L), new Step(Kind.CUMULATIVE, 0, 0, 0, 0L)))
                .run(SYNCHRONOUS);
        ChunkedArray x = chunked(NDArrays.array(1L, -2L, 3L), new long[] {2, 1});
        ChunkedArray positive = Slicing.get(x, List.of(ChunkedIndex.mask(x.greater(0L))));
        assertThrows(UnknownChunksException.class, positive::cumsum);
        assertEquals("array([1, 4])", positive.computeChunkSizes(SYNCHRONOUS).cumsum().compute(SYNCHRONOUS).toString());
    }

    /** Caught: flatten of an axis of length 1 chunked (0, 1): unification made it one block, flatten counted two. */
    @Test
    void flattenOfALengthOneAxisWithAnEmptyBlock() {
        new Chain(new long[] {1, 0}, DType.BOOL, 0L, 3L, List.of(new Step(Kind.CUMULATIVE, 0, 0, 0, 0L))).run(new ThreadedScheduler());
        ChunkedArray x = chunked(NDArrays.arange(3).reshape(1, 3), new long[] {0, 1}, new long[] {2, 1});
        assertEquals("array([0, 1, 3])", x.cumsum().compute(SYNCHRONOUS).toString());
    }

    /**
     * Caught: the meta of a 0-d array was a 0-d array of data, so building 2 ** x ran the power on
     * a stale value and raised NumPy's error for negative integer powers before anything computed.
     */
    @Test
    void zeroDimensionalMetaHoldsNoData() {
        new Chain(new long[] {}, DType.INT8, 1L, 5L, List.of(new Step(Kind.BINARY_ARRAY, 0, 0, 0, 2L), new Step(Kind.BINARY_SCALAR, 70, 0, 1, 0L)))
                .run(new ThreadedScheduler());
        ChunkedArray negative = org.tessera.array.api.ChunkedArrays.fromArray(NDArray.scalar(-3L), ChunkSpec.whole());
        ChunkedArray two = negative.add(5L);
        ChunkedArray power = org.tessera.array.blockwise.Elementwise.apply(org.tessera.ndarray.ufunc.Ufuncs.POWER, 2L, two);
        assertEquals("array(4)", power.compute(SYNCHRONOUS).toString());
    }

    /**
     * Caught (in the ndarray core, the reference): a float16 or float32 cumulative scan kept its running
     * total in float64 and rounded only what it stored, where NumPy rounds the total at every step:
     * NumPy's float16 cumprod of (300, 300, 0) is (300, inf, nan), and its float32 cumsum of
     * (1e8, 1, -1e8) is (1e8, 1e8, 0). The chunked scan, which combines carries in the dtype, agreed with NumPy.
     */
    @Test
    void cumulativeScansRoundTheRunningTotalToTheDtype() {
        new Chain(new long[] {8}, DType.UINT8, -13L, 0L, List.of(new Step(Kind.BINARY_SCALAR, 13, 34, 0, 0L), new Step(Kind.CUMULATIVE, 1, 0, 1, 0L)))
                .run(SYNCHRONOUS);
        NDArray halves = NDArrays.array(300.0, 300.0, 0.0).astype(DType.FLOAT16);
        assertEquals("array([300.,  inf,  nan], dtype=float16)", NDArrays.cumprod(halves, 0, null).toString());
        NDArray singles = NDArrays.array(1e8, 1.0, -1e8).astype(DType.FLOAT32);
        assertEquals("array([1.e+08, 1.e+08, 0.e+00], dtype=float32)", NDArrays.cumsum(singles, 0, null).toString());
        // In one block the chunked scan is NumPy's; in blocks (1, 2) it computes 300 * (300 * 0) = 0 for the
        // last element, an order of operations that overflow makes visible (the chains make no float16 products).
        assertEquals(NDArrays.cumprod(halves, 0, null).toString(), chunked(halves, new long[] {3}).cumprod(0).compute(SYNCHRONOUS).toString());
    }

    /**
     * Caught (in the ndarray core, the reference): the logical ufuncs cast complex inputs to bool by
     * their real part, so logical_and(0.5j, True) was False and all() over an axis of such values
     * (which reduces with logical_and) said False where NumPy says True. A chunked all() reduced its
     * blocks by another path and was right.
     */
    @Test
    void logicalUfuncsTakeAComplexNumberAsTrueWhenEitherPartIsNonzero() {
        new Chain(new long[] {1, 2, 2, 6}, DType.COMPLEX64, 0L, 0L,
                List.of(new Step(Kind.FANCY_INDEX, 0, 0, 0, 0L), new Step(Kind.REDUCE, 12, 84, 2, 0L))).run(SYNCHRONOUS);
        NDArray values = NDArray.zeros(DType.COMPLEX128, 3);
        values.setComplex(new org.tessera.ndarray.dtype.Complex(0, 0.5), 0);
        values.setComplex(new org.tessera.ndarray.dtype.Complex(0, Double.NEGATIVE_INFINITY), 1);
        values.setComplex(new org.tessera.ndarray.dtype.Complex(Double.NaN, 0), 2);
        assertEquals("array([True, True, True])", org.tessera.ndarray.ufunc.Ufuncs.LOGICAL_AND.apply(values, true).toString());
        assertEquals("array([False, False, False])", org.tessera.ndarray.ufunc.Ufuncs.LOGICAL_NOT.apply(values).toString());
        NDArray grid = NDArray.zeros(DType.COMPLEX64, 2, 2);
        grid.setComplex(new org.tessera.ndarray.dtype.Complex(0, 0.5), 0, 0);
        grid.setComplex(new org.tessera.ndarray.dtype.Complex(1, 0), 1, 0);
        grid.setComplex(new org.tessera.ndarray.dtype.Complex(0, 0), 0, 1);
        grid.setComplex(new org.tessera.ndarray.dtype.Complex(0, -1), 1, 1);
        assertEquals("array([ True, False])", NDArrays.all(grid, org.tessera.ndarray.ufunc.Reductions.Options.axes(0)).toString());
        assertEquals("array([ True, False])", chunked(grid, new long[] {1, 1}, new long[] {2}).all(0).compute(SYNCHRONOUS).toString());
    }

    /**
     * Caught: a float16 cumulative sum along 420 elements, blockwise against NumPy's order, differs
     * by 4 in 394: more than the flat 1 % the comparison allowed, within the bound of two orders
     * of a sum of 420 terms (2 x 420 x 2^-11).
     */
    @Test
    void float16CumulativeSumsInBlocksDifferWithinTheBoundOfAReorderedSum() {
        new Chain(new long[] {3, 6, 7}, DType.BOOL, 0L, 0L, List.of(new Step(Kind.BINARY_SCALAR, 13, 3, 0, 0L), new Step(Kind.CONCATENATE, 0, 0, 2, 4L),
                new Step(Kind.UNARY, 0, 0, 0, 0L), new Step(Kind.UNARY, 0, 0, 0, 0L), new Step(Kind.CUMULATIVE, 0, 188, 759, -8475751012840853414L)))
                .run(SYNCHRONOUS);
        new Chain(new long[] {1, 5, 6, 5}, DType.BOOL, 0L, 33L, List.of(new Step(Kind.BINARY_SCALAR, 89, 0, 0, 0L), new Step(Kind.UNARY, 0, 0, 0, 0L),
                new Step(Kind.BINARY_SCALAR, 14, 3, 78, 49303L), new Step(Kind.MAP_OVERLAP, 32, 992, 20, 934591L), new Step(Kind.SET_BASIC, 62, 40, 40, -8596L),
                new Step(Kind.SET_MASK, 190, 6, 22, -75118L), new Step(Kind.CUMULATIVE, 40, 188, 759, -8475751012840853414L)))
                .run(SYNCHRONOUS);
    }

    /**
     * Caught: a float16 cumulative sum of 288 elements up to 256 gave 65344 in NumPy's order and
     * infinity in blocks. Each running total in NumPy's order rounds away the small terms that a
     * block's own scan keeps, so the blockwise total passes 65504 and overflows where NumPy's does not;
     * no tolerance bounds a finite value against an infinity, so the chains skip float sums whose
     * bound (the terms times the largest magnitude) reaches the largest finite value, as they skip
     * products that may overflow.
     */
    @Test
    void aFloat16SumThatMayOverflowIsSkipped() {
        NDArray values = NDArrays.full(DType.FLOAT16, 256, 288);
        assertTrue(Steps.maySumOverflow(values, 288));
        assertFalse(Steps.maySumOverflow(values, 255));
        assertFalse(Steps.maySumOverflow(values.astype(DType.FLOAT32), 288));
        new Chain(new long[] {2, 4, 4, 18}, DType.INT8, 0L, 0L, List.of(new Step(Kind.ASTYPE, 13, 0, 0, 0L), new Step(Kind.BINARY_SCALAR, 13, 0, 0, 0L),
                new Step(Kind.CUMULATIVE, 0, 0, 0, 0L))).run(SYNCHRONOUS);
    }

    /**
     * Caught: the matmul of a uint64 cumulative product with an int64 array gave -2.5856313535934432e17
     * in NumPy's order and one bit less in blocks, compared bit for bit. Neither operand is a float,
     * but int64 with uint64 gives float64, as in NumPy, and its sums of products past 2^53 round in the
     * order of the addition; the matmul step now judges reordering by the result's dtype.
     */
    @Test
    void anIntegerMatmulWithAFloatResultIsComparedWithinTheBound() {
        assertEquals(DType.FLOAT64, org.tessera.ndarray.dtype.Promotion.resultType(DType.UINT64, DType.INT64));
        new Chain(new long[] {3, 3}, DType.UINT8, 0L, 0L, List.of(new Step(Kind.BINARY_SCALAR, 1, 0, 1, 0L), new Step(Kind.CUMULATIVE, 1, 0, 0, 0L),
                new Step(Kind.MATMUL, 0, 3, 0, 1L))).run(SYNCHRONOUS);
    }

    /**
     * Caught: a complex64 cumprod along an axis of length 1 chunked (0, 1), cast to float32, gave NaN
     * where NumPy gives -0.25. The empty block passed on the scan's identity as its running total, and
     * the block after it was multiplied by it: {@code (1+0j)(-0.25-infj)} is {@code nan-infj}, as
     * {@code 0 * -inf} is NaN, where NumPy's scan starts from the element itself ({@code -0.25-infj}).
     * A cumsum likewise turned a leading -0.0 into {@code 0 + -0.0 = 0.0}. An empty block now passes
     * on no total at all, in the sequential scan and in Blelloch's.
     */
    @Test
    void cumulativeScanAfterAnEmptyBlockCombinesNoIdentity() {
        new Chain(new long[] {5, 1}, DType.COMPLEX64, 0L, -5L, List.of(new Step(Kind.CUMULATIVE, 1, 0, 1, 0L), new Step(Kind.ASTYPE, 5, 0, 0, 0L)))
                .run(SYNCHRONOUS);
        // Two elements: with a third, a block of the last two would compute a (b c) where NumPy computes
        // (a b) c, which differs once an infinity meets a zero (the reordering the chains skip).
        NDArray values = NDArray.zeros(DType.COMPLEX128, 2);
        values.setComplex(new org.tessera.ndarray.dtype.Complex(-0.25, Double.NEGATIVE_INFINITY), 0);
        values.setComplex(new org.tessera.ndarray.dtype.Complex(2, 0), 1);
        NDArray signedZeros = NDArrays.array(-0.0, -0.0, 1.0);
        assertEquals("array([-0.25-infj,   nan-infj])", NDArrays.cumprod(values, 0, null).toString());
        assertEquals("array([-0., -0.,  1.])", NDArrays.cumsum(signedZeros, 0, null).toString());
        for (CumulativeScan.Method method : CumulativeScan.Method.values()) {
            for (long[] blocks : List.of(new long[] {0, 1, 1}, new long[] {0, 0, 1, 0, 1, 0}, new long[] {1, 0, 1})) {
                assertEquals("array([-0.25-infj,   nan-infj])", chunked(values, blocks).cumprod(0, method).compute(SYNCHRONOUS).toString());
            }
            for (long[] blocks : List.of(new long[] {0, 1, 2}, new long[] {0, 0, 1, 0, 1, 1, 0}, new long[] {1, 0, 2})) {
                assertEquals("array([-0., -0.,  1.])", chunked(signedZeros, blocks).cumsum(0, method).compute(SYNCHRONOUS).toString());
            }
        }
    }

    /**
     * Caught (in the chains, not in Tessera): the sign of a NaN made from two NaNs. The second map_overlap
     * adds, at [1, 1, 1, 6] of the (7, 2, 3, 14) stack, the neighbours -nan and nan along the last axis
     * (ghost cells of a block of 2 from the next block: the blocks and their ghost cells are right); Java
     * leaves the sign of {@code (-nan) + nan} unspecified, and HotSpot's answer depends on the JIT tier of
     * the add loop (nan interpreted and vectorised by C2, -nan compiled by C1), so the dense array, added
     * first, got nan where the blocks, added later, got -nan. copysign(3, x) turned these into 3 and -3,
     * and the last map_overlap into 6 and 0 at flat element 62. The chain passed under {@code -Xint} and
     * whenever an earlier array was computed first (the loop was then compiled further), on either
     * scheduler. The chains now skip a step that reads the sign of a NaN while the array holds one
     * ({@link Steps#readsNanSign}); the direct check is that the ghost cells themselves are right.
     */
    @Test
    void mapOverlapOfAStackOfOverlappedBlocks() {
        List<String> outcomes = new Chain(new long[] {3, 14, 7}, DType.FLOAT32, 4184L, 0L, List.of(new Step(Kind.RECHUNK, 34, 348, 13, 496637L),
                new Step(Kind.BINARY_ARRAY, 65, 6, 11, 9369209L), new Step(Kind.TRANSPOSE, 68, 9, 34, 12970L),
                new Step(Kind.MAP_OVERLAP, 156, 4, 241, -9789L), new Step(Kind.STACK, 321, 104, 34, -3436L),
                new Step(Kind.MAP_OVERLAP, 424, 5, 500, 649781738L), new Step(Kind.BINARY_SCALAR, 191, 349, 937, 126179191061842102L),
                new Step(Kind.MAP_OVERLAP, 24, 67, 200, 173446L)))
                .run(SYNCHRONOUS);
        assertEquals("BINARY_SCALAR skipped", outcomes.get(6));
        assertTrue(Steps.readsNanSign(Ufuncs.COPYSIGN, 1, NDArrays.array(1.0, Double.NaN)));
        assertFalse(Steps.readsNanSign(Ufuncs.COPYSIGN, 0, NDArrays.array(1.0, Double.NaN)));
        // Blocks of 1 along an axis of depth 2 are merged into blocks of 2, whose ghost cells come from the next block.
        NDArray values = NDArrays.array(1.0, 2.0, 3.0, 4.0, Double.NaN, 6.0, 7.0).astype(DType.FLOAT32);
        Steps.NeighbourSum function = new Steps.NeighbourSum(new long[] {2});
        ChunkedArray x = chunked(values, new long[] {1, 1, 1, 1, 1, 1, 1});
        NDArray overlapped = x.mapOverlap(function, new long[] {2}, new Boundary[] {Boundary.NONE}).compute(SYNCHRONOUS);
        assertEquals("array([ 6.,  9., nan, nan, nan, 20., 21.], dtype=float32)", overlapped.toString());
        assertEquals(function.apply(values).toString(), overlapped.toString());
    }

    /**
     * Caught: the standard deviation of float16 [e, e^11] (59872) in blocks of one was 42336 where
     * NumPy's and Dask's are infinite. NumPy keeps a float16 variance's sums in float16 (the values'
     * sum and the squared deviations' sum, each rounded at its end), and Dask its blocks' and combined
     * moments; the chunked moments add in float64. The variance is now infinite where either sum
     * rounds to infinity in float16: values of 100 a thousand times, two values 400 apart (squares of
     * 200 adding to 80000) and two values 60000 apart, in one block or many; not two values 300 apart
     * (22500), nor the mean of a thousand 100s (NumPy adds a mean's float16 values in float32). NumPy
     * 2.4 and Dask 2022.12 both give these infinities (Dask a NaN for the thousand 100s in one block,
     * where NumPy's infinity is kept here).
     */
    @Test
    void aFloat16VarianceOverflowsWhereNumPysDoes() {
        new Chain(new long[] {2}, DType.UINT8, 0L, 0L, List.of(new Step(Kind.UNARY, 4, 0, 0, 0L), new Step(Kind.REDUCE, 16, 0, 0, 0L)))
                .run(SYNCHRONOUS);
        NDArray hundreds = NDArrays.full(DType.FLOAT16, 100.0, 1000);
        NDArray apart = NDArray.zeros(DType.FLOAT16, 2);
        apart.setDouble(400, 1);
        NDArray near = NDArray.zeros(DType.FLOAT16, 2);
        near.setDouble(300, 1);
        for (long[] blocks : List.of(new long[] {1000}, new long[] {100, 100, 100, 100, 100, 100, 100, 100, 100, 100})) {
            assertEquals(Double.POSITIVE_INFINITY, chunked(hundreds, blocks).var().compute().getDouble(), "var of a thousand 100s in " + blocks.length);
            assertEquals(100.0, chunked(hundreds, blocks).mean().compute().getDouble(), "their mean in " + blocks.length);
        }
        for (long[] blocks : List.of(new long[] {2}, new long[] {1, 1})) {
            assertEquals(Double.POSITIVE_INFINITY, chunked(apart, blocks).var().compute().getDouble(), "var of 0, 400 in " + blocks.length);
            assertEquals(Double.POSITIVE_INFINITY, chunked(apart, blocks).std(1).compute().getDouble(), "std of 0, 400 in " + blocks.length);
            // 22500 in float16: 22496.
            assertEquals(22496.0, chunked(near, blocks).var().compute().getDouble(), "var of 0, 300 in " + blocks.length);
            assertEquals(DType.FLOAT16, chunked(near, blocks).var().compute().dtype());
        }
    }

    /**
     * NumPy adds float32 values in float32: where the total passes 3.4e38, the mean is infinite
     * (signed) and the variance too. The chunked moments add in float64 and gave 3e38 for the mean
     * of float32 3e38s and 0 for the variance of a thousand 1e36s. Values as NumPy 2.4 gives them
     * (Dask 2022.12 agrees on the means).
     */
    @Test
    void aFloat32MeanAndVarianceOverflowWhereNumPysDo() {
        NDArray big = NDArrays.full(DType.FLOAT32, 3e38, 2);
        NDArray negative = NDArrays.full(DType.FLOAT32, -3e38, 2);
        NDArray apart = NDArray.zeros(DType.FLOAT32, 2);
        apart.setDouble(4e19, 1);
        NDArray inRange = NDArray.zeros(DType.FLOAT32, 2);
        inRange.setDouble(2e19, 1);
        NDArray withNan = NDArrays.full(DType.FLOAT32, 3e38, 3);
        withNan.setDouble(Double.NaN, 2);
        for (long[] blocks : List.of(new long[] {2}, new long[] {1, 1})) {
            assertEquals(Double.POSITIVE_INFINITY, chunked(big, blocks).mean().compute().getDouble(), "mean of 3e38s in " + blocks.length);
            assertEquals(Double.NEGATIVE_INFINITY, chunked(negative, blocks).mean().compute().getDouble(), "mean of -3e38s in " + blocks.length);
            assertEquals(Double.POSITIVE_INFINITY, chunked(apart, blocks).var().compute().getDouble(), "var of 0, 4e19 in " + blocks.length);
            assertEquals(Double.POSITIVE_INFINITY, chunked(apart, blocks).std(1).compute().getDouble(), "std of 0, 4e19 in " + blocks.length);
            assertEquals(1e38, chunked(inRange, blocks).var().compute().getDouble(), 1e32, "var of 0, 2e19 in " + blocks.length);
            assertEquals(DType.FLOAT32, chunked(inRange, blocks).var().compute().dtype());
        }
        for (long[] blocks : List.of(new long[] {3}, new long[] {1, 1, 1})) {
            assertTrue(Double.isNaN(chunked(withNan, blocks).mean().compute().getDouble()), "a NaN among 3e38s stays in " + blocks.length);
            assertEquals(Double.POSITIVE_INFINITY, chunked(withNan, blocks).nanmean().compute().getDouble(), "nanmean of 3e38s in " + blocks.length);
        }
        NDArray thousand = NDArrays.full(DType.FLOAT32, 1e36, 1000);
        long[] hundreds = {100, 100, 100, 100, 100, 100, 100, 100, 100, 100};
        assertEquals(Double.POSITIVE_INFINITY, chunked(thousand, hundreds).var().compute().getDouble(), "var of a thousand 1e36s");
        assertEquals(Double.POSITIVE_INFINITY, chunked(thousand, hundreds).mean().compute().getDouble(), "their mean");
        // Row by row: the first row's total overflows, the columns' do not.
        NDArray rows = NDArrays.full(DType.FLOAT32, 3e38, 2, 3);
        rows.slice(0, 1, 1, 1).fill(1.0);
        NDArray byRow = chunked(rows, new long[] {1, 1}, new long[] {1, 2}).mean(1).compute();
        assertEquals(Double.POSITIVE_INFINITY, byRow.getDouble(0));
        assertEquals(1.0, byRow.getDouble(1));
        NDArray byColumn = chunked(rows, new long[] {1, 1}, new long[] {1, 2}).mean(0).compute();
        for (long column = 0; column < 3; column++) {
            assertEquals(1.5e38, byColumn.getDouble(column), 1e32, "column " + column);
        }
    }

    /**
     * Caught: a 0-d complex128 stacked with its negation computed the first value twice. Arrays are
     * named by a hash of their bytes, and that hash let a word's top bit reach only the next step's
     * top bit, where the next word's top bit cancelled it: [a, b] and [-a, -b] had one name, and
     * the stack's graph held one array where it read two.
     */
    @Test
    void anArrayAndItsNegationAreTwoArrays() {
        new Chain(new long[] {}, DType.COMPLEX128, -11L, 0L, List.of(new Step(Kind.STACK, 0, 1, 0, -516L))).run(SYNCHRONOUS);
        NDArray pair = NDArrays.array(new double[] {1.5, -2.25});
        NDArray negated = NDArrays.array(new double[] {-1.5, 2.25});
        ChunkedArray first = chunked(pair, new long[] {2});
        ChunkedArray second = chunked(negated, new long[] {2});
        assertFalse(first.name().equals(second.name()), "both are named " + first.name());
        NDArray stacked = ChunkedJoining.stack(List.of(first, second), 0).compute();
        assertArrayEquals(new double[] {1.5, -2.25, -1.5, 2.25}, new double[] {stacked.getDouble(0, 0), stacked.getDouble(0, 1),
                stacked.getDouble(1, 0), stacked.getDouble(1, 1)});
    }
}

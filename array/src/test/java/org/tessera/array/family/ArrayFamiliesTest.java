package org.tessera.array.family;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Metas;
import org.tessera.array.api.ChunkedArrays;
import org.tessera.array.api.ChunkedNamespace;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.Like;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.ufunc.Reductions.Options;
import org.tessera.sparse.SparseArray;
import org.tessera.sparse.SparseCOO;
import org.tessera.sparse.SparseCSR;
import org.tessera.sparse.SparseNamespace;

/**
 * Array families (NEP 35): the generic {@code pad} written once against the namespace interface and
 * run on dense, sparse, chunked dense and chunked sparse arrays and on a family added by a test
 * through ServiceLoader; the mixing rule; sparse chunks through the chunked operations.
 */
class ArrayFamiliesTest {
    private static final SynchronousScheduler SCHEDULER = new SynchronousScheduler();

    /** NEP 35's example: {@code np.concatenate((np.array(padding, like=arr), arr, np.array(padding, like=arr)))}. */
    static <A extends AnyArray<A>> A pad(AnyArray<A> array, double[] padding) {
        ArrayNamespace<A> xp = array.namespace();
        A edge = Like.asarray(padding, array);
        return xp.concatenate(List.of(edge, xp.cast(array), edge), 0);
    }

    private static final double[] PADDING = {7, 8};

    /** 0 0 3 0 0 5: mostly zeros, so that sparse arrays are sparse. */
    private static NDArray values() {
        return NDArrays.array(0.0, 0.0, 3.0, 0.0, 0.0, 5.0);
    }

    private static NDArray padded() {
        return NDArrays.array(7.0, 8.0, 0.0, 0.0, 3.0, 0.0, 0.0, 5.0, 7.0, 8.0);
    }

    private static void assertValues(NDArray expected, NDArray actual) {
        assertArrayEquals(expected.shape(), actual.shape(), "shape");
        assertEquals(expected.dtype(), actual.dtype(), "dtype");
        for (long index = 0; index < expected.size(); index++) {
            assertEquals(expected.reshape(expected.size()).getDouble(index), actual.reshape(actual.size()).getDouble(index), "element " + index);
        }
    }

    private static NDArray matrix() {
        NDArray dense = NDArray.zeros(DType.FLOAT64, 4, 6);
        dense.setDouble(1.5, 0, 1);
        dense.setDouble(-2, 1, 4);
        dense.setDouble(4, 2, 2);
        dense.setDouble(-1, 3, 0);
        dense.setDouble(3, 3, 5);
        return dense;
    }

    @Nested
    class NepExample {
        @Test
        void padOfADenseArrayIsDense() {
            NDArray result = pad(values(), PADDING);
            assertValues(padded(), result);
        }

        @Test
        void padOfASparseArrayIsSparse() {
            SparseArray result = pad(SparseCOO.fromDense(values()), PADDING);
            assertInstanceOf(SparseCOO.class, result);
            assertEquals(SparseNamespace.FAMILY, result.namespace().family());
            assertValues(padded(), result.toDense());
        }

        @Test
        void padOfAChunkedDenseArrayIsChunkedWithDenseChunks() {
            ChunkedArray x = Creation.asarray(values(), ChunkSpec.size(2));
            ChunkedArray result = pad(x, PADDING);
            assertInstanceOf(NDArray.class, result.meta(), "the chunk type is known before compute");
            assertEquals("chunked[dense]", result.namespace().family());
            assertValues(padded(), result.compute(SCHEDULER));
        }

        @Test
        void padOfAChunkedSparseArrayIsChunkedWithSparseChunks() {
            ChunkedArray x = ChunkedArrays.fromArray(SparseCOO.fromDense(values()), ChunkSpec.size(2));
            assertInstanceOf(SparseCOO.class, x.meta());
            ChunkedArray result = pad(x, PADDING);
            assertInstanceOf(SparseArray.class, result.meta(), "the chunk type is known before compute");
            assertEquals("chunked[sparse]", result.namespace().family());
            assertTrue(result.toString().contains("chunktype=SparseCOO"), result.toString());
            AnyArray<?> computed = result.computeAsChunkType(SCHEDULER);
            assertInstanceOf(SparseArray.class, computed, "a chunked array of sparse chunks computes a sparse result");
            assertValues(padded(), ((SparseArray) computed).toDense());
            assertValues(padded(), result.compute(SCHEDULER));
        }

        @Test
        void padOfAFamilyAddedThroughServiceLoaderStaysInThatFamily() {
            assertTrue(ArrayFamilies.all().stream().anyMatch(ListNamespace.class::isInstance), "the test family is registered");
            assertEquals("list", ArrayFamilies.byName("list").family());
            ListArray result = pad(new ListArray(new double[] {0, 0, 3, 0, 0, 5}), PADDING);
            assertArrayEquals(new double[] {7, 8, 0, 0, 3, 0, 0, 5, 7, 8}, result.values());
            assertEquals(38.0, result.namespace().sum(result).values()[0], "sum through the namespace");
        }

        @Test
        void chunkedArraysOfTheTestFamilyRunThePadToo() {
            ChunkedArray x = ChunkedArrays.fromArray(new ListArray(new double[] {0, 0, 3, 0, 0, 5}), ChunkSpec.size(4));
            ChunkedArray result = pad(x, PADDING);
            assertInstanceOf(ListArray.class, result.meta());
            assertEquals(new ListArray(new double[] {7, 8, 0, 0, 3, 0, 0, 5, 7, 8}), result.computeAsChunkType(SCHEDULER));
        }
    }

    @Nested
    class Mixing {
        @Test
        void sparsePlusDenseIsDenseAsInScipy() {
            SparseArray sparse = SparseCOO.fromDense(values());
            AnyArray<?> sum = ArrayFamilies.apply("add", sparse, values());
            assertInstanceOf(NDArray.class, sum);
            assertValues(NDArrays.multiply(values(), 2.0), (NDArray) sum);
            assertEquals(ArrayFamilies.dense(), ArrayFamilies.common(sparse, values()));
            assertEquals(ArrayFamilies.dense(), ArrayFamilies.common(values(), sparse));
        }

        @Test
        void theSparseNamespaceRefusesADenseOperandNamingBothFamilies() {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> SparseNamespace.INSTANCE.apply("add", SparseCOO.fromDense(values()), values()));
            assertTrue(error.getMessage().contains("sparse") && error.getMessage().contains("dense"), error.getMessage());
        }

        @Test
        void familiesWithNoRuleBetweenThemAreRefusedNamingBoth() {
            ListArray list = new ListArray(new double[] {1, 2, 3, 4, 5, 6});
            for (Object other : List.<Object>of(values(), SparseCOO.fromDense(values()))) {
                IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> ArrayFamilies.apply("add", list, other));
                String family = ((AnyArray<?>) other).namespace().family();
                assertTrue(error.getMessage().contains("list") && error.getMessage().contains(family), error.getMessage());
            }
        }

        @Test
        void chunkedPlusInMemoryIsChunked() {
            ChunkedArray chunked = Creation.asarray(values(), ChunkSpec.size(4));
            AnyArray<?> sum = ArrayFamilies.apply("add", chunked, SparseCOO.fromDense(values()));
            ChunkedArray result = assertInstanceOf(ChunkedArray.class, sum);
            assertInstanceOf(NDArray.class, result.meta(), "dense chunks meet a sparse block: dense");
            assertValues(NDArrays.multiply(values(), 2.0), result.compute(SCHEDULER));
        }

        @Test
        void chunkedSparsePlusDenseGivesDenseChunksAndSparsePlusSparseStaysSparse() {
            ChunkedArray sparse = ChunkedArrays.fromArray(SparseCOO.fromDense(values()), ChunkSpec.size(4));
            ChunkedArray mixed = sparse.add(values());
            assertInstanceOf(NDArray.class, mixed.meta());
            assertValues(NDArrays.multiply(values(), 2.0), mixed.compute(SCHEDULER));
            ChunkedArray throughTheRule = assertInstanceOf(ChunkedArray.class, ArrayFamilies.apply("add", sparse, values()));
            assertInstanceOf(NDArray.class, throughTheRule.meta(), "the namespace path agrees with the fluent one");
            assertValues(NDArrays.multiply(values(), 2.0), throughTheRule.compute(SCHEDULER));
            ChunkedArray both = sparse.add(sparse);
            assertInstanceOf(SparseArray.class, both.meta());
            assertInstanceOf(SparseArray.class, both.computeAsChunkType(SCHEDULER));
        }

        @Test
        void concatenatingSparseAndDenseChunksGivesDenseChunks() {
            ChunkedArray sparse = ChunkedArrays.fromArray(SparseCOO.fromDense(values()), ChunkSpec.size(4));
            ChunkedArray dense = Creation.asarray(values(), ChunkSpec.size(4));
            ChunkedArray joined = new ChunkedNamespace().concatenate(List.of(sparse, dense), 0);
            assertInstanceOf(NDArray.class, joined.meta());
            assertInstanceOf(NDArray.class, joined.computeAsChunkType(SCHEDULER));
            assertValues(NDArrays.concatenate(List.of(values(), values()), 0), joined.compute(SCHEDULER));
        }
    }

    @Nested
    class SparseChunks {
        private final ChunkedArray x = ChunkedArrays.fromArray(SparseCSR.fromDense(matrix()), ChunkSpec.size(2));

        private void assertSparseResult(NDArray expected, ChunkedArray result) {
            assertInstanceOf(SparseArray.class, result.meta(), "meta of " + result);
            assertEquals(expected.dtype(), result.dtype(), "dtype before compute");
            AnyArray<?> computed = result.computeAsChunkType(SCHEDULER);
            assertInstanceOf(SparseArray.class, computed);
            assertValues(expected, ((SparseArray) computed).toDense());
        }

        @Test
        void elementwiseKeepsSparseChunks() {
            assertSparseResult(NDArrays.multiply(matrix(), 2.0), x.multiply(2.0));
            assertSparseResult(NDArrays.add(matrix(), matrix()), x.add(x));
            assertSparseResult(NDArrays.sqrt(NDArrays.multiply(matrix(), matrix())), x.multiply(x).apply(NDArrays.ufunc("sqrt")));
            assertSparseResult(matrix().astype(DType.FLOAT32), x.astype(DType.FLOAT32));
        }

        @Test
        void sumAndMaxReduceSparseChunks() {
            assertSparseResult(NDArrays.sum(matrix(), Options.axes(0)), x.sum(0));
            assertSparseResult(NDArrays.max(matrix(), Options.axes(1)), x.max(1));
            assertSparseResult(NDArrays.sum(matrix()), x.sum());
            assertSparseResult(NDArrays.min(matrix(), Options.all()), x.min());
        }

        @Test
        void slicingRechunkAndTransposeKeepSparseChunks() {
            assertSparseResult(NDArrays.get(matrix(), Index.range(1L, 4L, null), Index.range(null, null, 2L)),
                    x.get(Index.range(1L, 4L, null), Index.range(null, null, 2L)));
            assertSparseResult(NDArrays.get(matrix(), Index.at(3)), x.get(Index.at(3)));
            assertSparseResult(matrix(), x.rechunk(ChunkSpec.size(3)));
            assertSparseResult(matrix().transpose(), x.transpose());
            assertSparseResult(matrix().reshape(6, 4), x.reshape(6, 4));
        }

        @Test
        void matmulOfSparseChunksIsSparse() {
            NDArray right = matrix().transpose().copy();
            ChunkedArray y = ChunkedArrays.fromArray(SparseCOO.fromDense(right), ChunkSpec.size(2));
            assertSparseResult(NDArrays.matmul(matrix(), right), x.matmul(y));
        }

        @Test
        void creationLikeASparseChunkedArrayMakesSparseChunks() {
            ChunkedArray zeros = Creation.zeros(new long[] {4, 6}, DType.INT32, ChunkSpec.size(2), x);
            assertSparseResult(NDArray.zeros(DType.INT32, 4, 6), zeros);
            ChunkedArray eye = Creation.eye(4, 6, 1, DType.FLOAT64, ChunkSpec.size(2), x);
            assertSparseResult(NDArrays.eye(4, 6, 1, DType.FLOAT64), eye);
            ChunkedArray fromLike = Like.asarray(matrix(), x);
            assertSparseResult(matrix(), fromLike);
            ChunkedArray arange = Like.arange(0, 6, 1, DType.INT64, x);
            assertSparseResult(NDArrays.arange(6), arange);
        }

        @Test
        void anOperationThatNeedsDenseBlocksFailsNamingTheChunkFamily() {
            RuntimeException error = assertThrows(RuntimeException.class, () -> x.cumsum(0).compute(SCHEDULER));
            Throwable cause = error;
            while (cause.getCause() != null && !(cause instanceof UnsupportedOperationException)) {
                cause = cause.getCause();
            }
            assertInstanceOf(UnsupportedOperationException.class, cause, "no ClassCastException: " + error);
            assertTrue(cause.getMessage().contains("sparse"), cause.getMessage());
            RuntimeException mean = assertThrows(RuntimeException.class, () -> x.mean().compute(SCHEDULER));
            assertTrue(String.valueOf(rootMessage(mean)).contains("sparse"), rootMessage(mean));
        }

        private static String rootMessage(Throwable error) {
            Throwable cause = error;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            return cause.getMessage();
        }
    }

    @Nested
    class MetaFromArray {
        @Test
        void givesAnEmptyArrayOfTheFamilyWithTheAxesAndDtypeAsked() {
            AnyArray<?> sparse = Metas.metaFromArray(SparseCOO.fromDense(values()), 3, DType.INT8);
            assertInstanceOf(SparseArray.class, sparse);
            assertArrayEquals(new long[] {0, 0, 0}, sparse.shape());
            assertEquals(DType.INT8, sparse.dtype());
            AnyArray<?> dense = Metas.metaFromArray(values(), -1, null);
            assertInstanceOf(NDArray.class, dense);
            assertEquals(1, dense.ndim());
            assertEquals(DType.FLOAT64, dense.dtype());
            ChunkedArray chunked = ChunkedArrays.fromArray(SparseCOO.fromDense(values()), ChunkSpec.size(2));
            assertInstanceOf(SparseArray.class, Metas.metaFromArray(chunked, 2, DType.BOOL), "a chunked array counts as its chunk family");
        }

        @Test
        void chunkedToStringShowsTheChunkType() {
            assertTrue(Creation.asarray(values(), ChunkSpec.size(2)).toString().contains("chunktype=NDArray"));
            ChunkedArray sparse = ChunkedArrays.fromArray(SparseCOO.fromDense(values()), ChunkSpec.size(2));
            assertTrue(sparse.toString().contains("chunktype=SparseCOO"), sparse.toString());
        }

        @Test
        void csrChunksKeepTheirFormatInTheMetaAndTheBlocks() {
            ChunkedArray csr = ChunkedArrays.fromArray(SparseCSR.fromDense(matrix()), ChunkSpec.size(2));
            assertTrue(csr.toString().contains("chunktype=SparseCSR"), csr.toString());
            ChunkedArray doubled = csr.multiply(2);
            assertInstanceOf(SparseCSR.class, doubled.meta());
            assertInstanceOf(SparseCSR.class, doubled.block(1, 2).computeAsChunkType(SCHEDULER));
            assertInstanceOf(SparseCOO.class, csr.sum(0).meta(), "a 1-D result is COO, as its blocks");
            assertInstanceOf(SparseCOO.class, csr.sum(0).block(0).computeAsChunkType(SCHEDULER));
        }
    }
}

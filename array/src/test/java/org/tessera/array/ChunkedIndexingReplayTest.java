package org.tessera.array;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.slicing.ChunkedIndex;
import org.tessera.array.slicing.Slicing;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.conformance.Corpus;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.Decoding;
import org.tessera.ndarray.index.Index;

/**
 * Every case of the NumPy getitem and setitem suites replayed through chunked arrays in four
 * chunkings (blocks of 1, regular blocks of 2, irregular blocks 1, 2, 1, 2, ..., one block): values, dtype
 * and shape must be NumPy's, and the errors NumPy's categories. Getitem cases whose only advanced
 * item is a boolean mask or a 1-D integer array run a second time with that array chunked; setitem
 * cases run with the value as an NDArray and as a chunked array.
 */
class ChunkedIndexingReplayTest {
    private static final SynchronousScheduler SCHEDULER = new SynchronousScheduler();

    private static final Map<String, Function<long[], ChunkSpec>> CHUNKINGS = new LinkedHashMap<>();

    static {
        CHUNKINGS.put("blocks of 1", shape -> ChunkSpec.size(1));
        CHUNKINGS.put("regular blocks of 2", shape -> ChunkSpec.size(2));
        CHUNKINGS.put("irregular blocks", ChunkedReplayTest::irregular);
        CHUNKINGS.put("one block", shape -> ChunkSpec.whole());
    }

    @TestFactory
    Stream<DynamicTest> getitemAndSetitemSuitesThroughChunkedArrays() {
        Map<String, List<CorpusCase>> suites = Corpus.load(Corpus.directory());
        // The corner suites of conformance/generate/corners.py run with the suites of their op.
        List<CorpusCase> getitem = concat(suites, "getitem", "getitem_bool_scalar");
        List<CorpusCase> setitem = concat(suites, "setitem", "setitem_bool_scalar", "setitem_broadcast");
        List<CorpusCase> singleMask = getitem.stream().filter(testCase -> singleArrayPosition(Decoding.index(testCase.args().get("index")), true) >= 0).toList();
        List<CorpusCase> singlePositions = getitem.stream().filter(testCase -> singleArrayPosition(Decoding.index(testCase.args().get("index")), false) >= 0)
                .toList();
        return CHUNKINGS.entrySet().stream().flatMap(chunking -> Stream.of(
                DynamicTest.dynamicTest("getitem, " + chunking.getKey(),
                        () -> replay(getitem, testCase -> getitem(testCase, chunking.getValue()), "getitem " + chunking.getKey())),
                DynamicTest.dynamicTest("getitem with a chunked mask, " + chunking.getKey(), () -> {
                    assertTrue(singleMask.size() > 20, "the getitem suite should hold cases with one boolean mask");
                    replay(singleMask, testCase -> getitemWithChunkedArray(testCase, chunking.getValue(), true), "getitem with a chunked mask " + chunking.getKey());
                }),
                DynamicTest.dynamicTest("getitem with chunked positions, " + chunking.getKey(), () -> {
                    assertTrue(singlePositions.size() > 20, "the getitem suite should hold cases with one 1-D integer array");
                    replay(singlePositions, testCase -> getitemWithChunkedArray(testCase, chunking.getValue(), false),
                            "getitem with chunked positions " + chunking.getKey());
                }),
                DynamicTest.dynamicTest("setitem with an NDArray value, " + chunking.getKey(),
                        () -> replay(setitem, testCase -> setitem(testCase, chunking.getValue(), false), "setitem NDArray value " + chunking.getKey())),
                DynamicTest.dynamicTest("setitem with a chunked value, " + chunking.getKey(),
                        () -> replay(setitem, testCase -> setitem(testCase, chunking.getValue(), true), "setitem chunked value " + chunking.getKey()))));
    }

    private static List<CorpusCase> concat(Map<String, List<CorpusCase>> suites, String... names) {
        List<CorpusCase> cases = new ArrayList<>();
        for (String name : names) {
            List<CorpusCase> suite = suites.get(name);
            assertTrue(suite != null && !suite.isEmpty(), "the corpus lacks suite " + name);
            cases.addAll(suite);
        }
        return cases;
    }

    private static void replay(List<CorpusCase> cases, Function<CorpusCase, String> runner, String label) {
        ChunkedReplay.replay(cases, runner, label);
    }

    private static ChunkedArray chunked(NDArray array, Function<long[], ChunkSpec> chunking) {
        return Creation.fromSource(RegionSource.of(array), chunking.apply(array.shape()));
    }

    private static String getitem(CorpusCase testCase, Function<long[], ChunkSpec> chunking) {
        ChunkedArray x = chunked(Decoding.array(testCase.args().get("x")), chunking);
        NDArray actual = Slicing.get(x, Decoding.index(testCase.args().get("index"))).compute(SCHEDULER);
        return Comparison.mismatch(testCase.expect().get("array"), actual, 0);
    }

    /**
     * The position of the index's only advanced item when it is a boolean mask of at least one axis
     * ({@code masks}) or a 1-D integer array (not {@code masks}); -1 otherwise.
     */
    private static int singleArrayPosition(Index[] index, boolean masks) {
        int position = -1;
        for (int item = 0; item < index.length; item++) {
            boolean wanted = masks ? index[item] instanceof Index.BoolMask mask && mask.mask().ndim() > 0
                    : index[item] instanceof Index.IntArray array && array.indices().ndim() == 1;
            boolean advanced = index[item] instanceof Index.BoolMask || index[item] instanceof Index.IntArray || index[item] instanceof Index.BoolScalar;
            if (advanced && (!wanted || position >= 0)) {
                return -1;
            }
            if (wanted) {
                position = item;
            }
        }
        return position;
    }

    /** The case with its only index array (a mask, or 1-D positions) given as a chunked array. */
    private static String getitemWithChunkedArray(CorpusCase testCase, Function<long[], ChunkSpec> chunking, boolean masks) {
        ChunkedArray x = chunked(Decoding.array(testCase.args().get("x")), chunking);
        Index[] index = Decoding.index(testCase.args().get("index"));
        int arrayPosition = singleArrayPosition(index, masks);
        List<ChunkedIndex> items = new ArrayList<>();
        for (int item = 0; item < index.length; item++) {
            if (item != arrayPosition) {
                items.add(ChunkedIndex.of(index[item]));
            } else if (index[item] instanceof Index.BoolMask mask) {
                items.add(ChunkedIndex.mask(chunked(mask.mask(), chunking)));
            } else {
                items.add(ChunkedIndex.positions(chunked(((Index.IntArray) index[item]).indices(), chunking)));
            }
        }
        ChunkedArray result = Slicing.get(x, items);
        if (masks && result.chunks().isKnown() && result.size() > 0) {
            return "a chunked mask gave known chunks " + result.chunks();
        }
        // compute() assembles blocks at their offsets, so unknown lengths must be found first.
        return Comparison.mismatch(testCase.expect().get("array"), result.computeChunkSizes(SCHEDULER).compute(SCHEDULER), 0);
    }

    private static String setitem(CorpusCase testCase, Function<long[], ChunkSpec> chunking, boolean chunkedValue) {
        NDArray original = Decoding.array(testCase.args().get("x"));
        NDArray before = original.copy();
        ChunkedArray x = chunked(original, chunking);
        NDArray valueArray = Decoding.array(testCase.args().get("value"));
        Object value = chunkedValue ? chunked(valueArray, chunking) : valueArray;
        ChunkedArray result = Slicing.set(x, Decoding.index(testCase.args().get("index")), value);
        NDArray actual = result.compute(SCHEDULER);
        String mismatch = Comparison.mismatch(testCase.expect().get("array"), actual, 0);
        if (mismatch != null) {
            return mismatch;
        }
        // The input's blocks are views of the original array: assignment must have copied them.
        return sameBytes(before, original) ? null : "the assignment changed the input array's memory";
    }

    private static boolean sameBytes(NDArray first, NDArray second) {
        java.lang.foreign.MemorySegment left = first.segment().asSlice(first.byteOffset(), first.byteSize());
        java.lang.foreign.MemorySegment right = second.segment().asSlice(second.byteOffset(), second.byteSize());
        return left.mismatch(right) == -1;
    }
}

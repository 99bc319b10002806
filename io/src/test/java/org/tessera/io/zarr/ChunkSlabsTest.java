package org.tessera.io.zarr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.UncheckedIOException;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.io.StoreOptions;
import org.tessera.io.codec.Blosc;
import org.tessera.io.store.DirectoryStore;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * Stored chunks read in slabs of rows ({@link ChunkSlabs}): each slab holds exactly the rows a
 * whole read of the region holds, for Blosc chunks of several internal blocks, raw and big-endian
 * chunks, edge chunks and missing ones; a damaged chunk names its store, key and codec; and a
 * sum of a stored array, which pulls each block through in strips, never decodes a block whole.
 */
class ChunkSlabsTest {
    private static final long[] SHAPE = {1300, 700};
    /** 1.2 MB chunks: c-blosc cuts them into several internal blocks, so slabs cross block edges. */
    private static final long[] CHUNKS = {600, 250};

    @TempDir
    Path directory;

    private ZarrArray write(String name, ArrayMetadataV2 metadata) throws Exception {
        long[] blocks = metadata.shape().length == CHUNKS.length ? CHUNKS : metadata.chunkShape();
        ChunkedArray values = Creation.random(11, Creation.Distribution.UNIFORM, metadata.shape(), ChunkSpec.of(blocks));
        DirectoryStore store = DirectoryStore.open(directory.resolve(name));
        Zarr.toZarr(values, store, "", metadata, StoreOptions.defaults());
        return ZarrArray.open(store, "");
    }

    private static ArrayMetadataV2 defaults() {
        return ArrayMetadataV2.of(SHAPE, CHUNKS, DType.FLOAT64);
    }

    /** Every region inside a chunk, read in slabs of {@code rows}, row for row equals its whole read. */
    private static void assertSlabsMatch(ZarrArray array, long[] start, long[] shape, long rows) {
        RegionSource.SlabReader slabs = array.slabs(start, shape).orElseThrow();
        NDArray whole = array.read(start, shape);
        for (long row = 0; row < shape[0]; row += rows) {
            long count = Math.min(rows, shape[0] - row);
            NDArray slab = slabs.slab(row, count);
            assertEquals(Arrays.toString(new long[] {count, shape[1]}), Arrays.toString(slab.shape()));
            assertArrayEquals(values(whole.slice(0, row, 1, count)), values(slab), "rows " + row + "+" + count + " of region " + Arrays.toString(start));
        }
        slabs.close();
    }

    private static double[] values(NDArray array) {
        NDArray contiguous = array.ascontiguousarray();
        return contiguous.segment().asSlice(contiguous.byteOffset(), contiguous.size() * Double.BYTES).toArray(ValueLayout.JAVA_DOUBLE);
    }

    private static void assertEveryRegionMatches(ZarrArray array) {
        assertSlabsMatch(array, new long[] {0, 0}, new long[] {600, 250}, 37);
        // An edge chunk on both axes (stored whole, padded), and a region that starts inside its chunk.
        assertSlabsMatch(array, new long[] {1200, 500}, new long[] {100, 200}, 9);
        assertSlabsMatch(array, new long[] {613, 260}, new long[] {500, 120}, 64);
        // Slabs asked out of order, and one slab of every row.
        RegionSource.SlabReader slabs = array.slabs(new long[] {600, 250}, new long[] {600, 250}).orElseThrow();
        NDArray whole = array.read(new long[] {600, 250}, new long[] {600, 250});
        for (long row : new long[] {590, 3, 300, 0, 599}) {
            assertArrayEquals(values(whole.slice(0, row, 1, 1)), values(slabs.slab(row, 1)), "row " + row);
        }
        assertArrayEquals(values(whole), values(slabs.slab(0, 600)));
    }

    @Test
    void bloscSlabsHoldTheRowsOfTheRegion() throws Exception {
        assumeTrue(Blosc.defaults().decodesRanges(), "no system c-blosc here (apt-get install libblosc1)");
        assertEveryRegionMatches(write("blosc", defaults()));
    }

    @Test
    void rawAndBigEndianSlabsHoldTheRowsOfTheRegion() throws Exception {
        assertEveryRegionMatches(write("raw", defaults().withCompressor(null)));
        assertEveryRegionMatches(write("big", defaults().withCompressor(null).withEndian(Endian.BIG)));
    }

    /**
     * The box at {@code boxStart} of {@code boxShape} of a region, decoded into a target of its
     * own, into a window of a wider array (rows apart, as a rechunk's new block is) and into a
     * transposed view (columns apart: through a slab), equals that box of the region's whole read;
     * the wider array keeps its zeros around the window.
     */
    private static void assertSlabIntoMatches(ZarrArray array, long[] start, long[] shape, long[] boxStart, long[] boxShape) {
        NDArray box = array.read(start, shape);
        for (int axis = 0; axis < boxShape.length; axis++) {
            box = box.slice(axis, boxStart[axis], 1, boxShape[axis]);
        }
        String where = "box " + Arrays.toString(boxStart) + " of " + Arrays.toString(boxShape) + " in region " + Arrays.toString(start);
        NDArray own = NDArray.zeros(DType.FLOAT64, boxShape);
        array.slabs(start, shape).orElseThrow().slabInto(boxStart, own);
        assertArrayEquals(values(box), values(own), where + ", a target of its own");
        long[] widerShape = boxShape.clone();
        widerShape[boxShape.length - 1] += 30;
        NDArray wider = NDArray.zeros(DType.FLOAT64, widerShape);
        NDArray window = wider.slice(boxShape.length - 1, 10, 1, boxShape[boxShape.length - 1]);
        array.slabs(start, shape).orElseThrow().slabInto(boxStart, window);
        assertArrayEquals(values(box), values(window), where + ", a window");
        window.assign(NDArray.zeros(DType.FLOAT64, boxShape));
        assertArrayEquals(new double[(int) wider.size()], values(wider), where + ": the window's neighbours were written");
        if (boxShape.length == 2) {
            NDArray transposed = NDArray.zeros(DType.FLOAT64, boxShape[1], boxShape[0]).transpose();
            array.slabs(start, shape).orElseThrow().slabInto(boxStart, transposed);
            assertArrayEquals(values(box), values(transposed), where + ", a transposed target");
        }
    }

    private static void assertEveryBoxMatches(ZarrArray array) {
        assertSlabIntoMatches(array, new long[] {0, 0}, new long[] {600, 250}, new long[] {37, 0}, new long[] {120, 250});
        assertSlabIntoMatches(array, new long[] {0, 0}, new long[] {600, 250}, new long[] {0, 0}, new long[] {600, 250});
        // Part of the region's columns, in an edge chunk, and in a region that starts inside its chunk.
        assertSlabIntoMatches(array, new long[] {600, 250}, new long[] {600, 250}, new long[] {300, 17}, new long[] {1, 200});
        assertSlabIntoMatches(array, new long[] {1200, 500}, new long[] {100, 200}, new long[] {5, 100}, new long[] {90, 100});
        assertSlabIntoMatches(array, new long[] {613, 260}, new long[] {500, 120}, new long[] {64, 3}, new long[] {400, 117});
    }

    @Test
    void slabsDecodedIntoATargetHoldTheBoxOfTheRegion() throws Exception {
        assertEveryBoxMatches(write("into-raw", defaults().withCompressor(null)));
        assertEveryBoxMatches(write("into-big", defaults().withCompressor(null).withEndian(Endian.BIG)));
        if (Blosc.defaults().decodesRanges()) {
            assertEveryBoxMatches(write("into-blosc", defaults()));
        }
        // One axis (each row an element), and three: a box whole on the last axis decodes straight in, any other through a slab.
        ZarrArray line = write("into-line", ArrayMetadataV2.of(new long[] {5000}, new long[] {1200}, DType.FLOAT64));
        assertSlabIntoMatches(line, new long[] {2400}, new long[] {1200}, new long[] {100}, new long[] {900});
        ZarrArray cube = write("into-cube", ArrayMetadataV2.of(new long[] {40, 30, 20}, new long[] {16, 10, 20}, DType.FLOAT64));
        assertSlabIntoMatches(cube, new long[] {16, 10, 0}, new long[] {16, 10, 20}, new long[] {3, 2, 0}, new long[] {10, 7, 20});
        assertSlabIntoMatches(cube, new long[] {16, 10, 0}, new long[] {16, 10, 20}, new long[] {3, 2, 5}, new long[] {10, 7, 12});
    }

    @Test
    void aBoxIntoATargetFromAMissingChunkIsTheFillValueAndOneOutsideIsRefused() throws Exception {
        ZarrArray array = write("into-missing", defaults().withFillValue(FillValue.of(DType.FLOAT64, 2.5)));
        Files.delete(directory.resolve("into-missing").resolve("1.1"));
        NDArray target = NDArray.zeros(DType.FLOAT64, 5, 100);
        array.slabs(new long[] {600, 250}, new long[] {600, 250}).orElseThrow().slabInto(new long[] {10, 20}, target);
        double[] expected = new double[5 * 100];
        Arrays.fill(expected, 2.5);
        assertArrayEquals(expected, values(target));
        RegionSource.SlabReader slabs = array.slabs(new long[] {0, 0}, new long[] {600, 250}).orElseThrow();
        IndexOutOfBoundsException outside = assertThrows(IndexOutOfBoundsException.class, () -> slabs.slabInto(new long[] {0, 200}, target));
        assertTrue(outside.getMessage().contains("[5, 100]") && outside.getMessage().contains("[0, 200]") && outside.getMessage().contains("into-missing"),
                outside.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> slabs.slabInto(new long[] {598, 0}, target));
    }

    @Test
    void regionsAcrossChunksAndWholeFrameCodecsHaveNoSlabs() throws Exception {
        ZarrArray raw = write("across", defaults().withCompressor(null));
        assertTrue(raw.slabs(new long[] {500, 0}, new long[] {200, 100}).isEmpty(), "the region spans two chunks");
        ZarrArray zstd = write("zstd", defaults().withCompressor(new org.tessera.io.codec.Zstd(3, false)));
        assertTrue(zstd.slabs(new long[] {0, 0}, new long[] {600, 250}).isEmpty(), "zstd decodes whole frames only");
    }

    /** Whether this process maps {@code file} now (Linux's /proc/self/maps). */
    private static boolean mapped(Path file) throws Exception {
        return Files.readAllLines(Path.of("/proc/self/maps")).stream().anyMatch(line -> line.endsWith(file.toString()));
    }

    @Test
    void aChunkStaysMappedOnlyThroughARunOfConsecutiveSlabs() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "no /proc/self/maps here");
        ZarrArray array = write("mapped", defaults().withCompressor(null));
        Path chunk = directory.resolve("mapped").resolve("1.1");
        RegionSource.SlabReader slabs = array.slabs(new long[] {600, 250}, new long[] {600, 250}).orElseThrow();
        slabs.slab(0, 100);
        assertFalse(mapped(chunk), "a first slab maps the chunk for itself alone");
        slabs.slab(100, 100);
        assertTrue(mapped(chunk), "a run of consecutive slabs keeps the chunk mapped");
        slabs.slab(450, 10);
        assertFalse(mapped(chunk), "a slab elsewhere ends the run");
        slabs.slab(460, 40);
        slabs.slab(500, 100);
        assertFalse(mapped(chunk), "the region's last row ends the run");
    }

    /** Scattered rows of a region, asked at once, equal those rows of its whole read. */
    private static void assertRowsMatch(ZarrArray array, long[] start, long[] shape, long[] rows) {
        NDArray whole = array.read(start, shape);
        NDArray stacked = array.slabs(start, shape).orElseThrow().rows(rows);
        assertEquals(Arrays.toString(new long[] {rows.length, shape[1]}), Arrays.toString(stacked.shape()));
        assertArrayEquals(values(org.tessera.ndarray.index.Indexing.get(whole, org.tessera.ndarray.index.Index.of(org.tessera.ndarray.api.NDArrays.array(rows)))),
                values(stacked), "rows " + Arrays.toString(rows) + " of region " + Arrays.toString(start));
    }

    @Test
    void scatteredRowsInOnePassHoldTheRowsAndLeaveNothingMapped() throws Exception {
        java.util.List<ZarrArray> arrays = new java.util.ArrayList<>(java.util.List.of(write("rows-raw", defaults().withCompressor(null)),
                write("rows-big", defaults().withCompressor(null).withEndian(Endian.BIG))));
        if (Blosc.defaults().decodesRanges()) {
            arrays.add(write("rows-blosc", defaults()));
        }
        for (ZarrArray array : arrays) {
            assertRowsMatch(array, new long[] {0, 0}, new long[] {600, 250}, new long[] {0, 1, 2, 97, 98, 340, 599});
            assertRowsMatch(array, new long[] {1200, 500}, new long[] {100, 200}, new long[] {3, 50, 99});
            assertRowsMatch(array, new long[] {613, 260}, new long[] {500, 120}, new long[] {7});
        }
        if (Files.isReadable(Path.of("/proc/self/maps"))) {
            arrays.getFirst().slabs(new long[] {600, 250}, new long[] {600, 250}).orElseThrow().rows(new long[] {4, 400, 401});
            assertFalse(mapped(directory.resolve("rows-raw").resolve("1.1")), "the rows' pass lets the chunk go");
        }
        RegionSource.SlabReader slabs = arrays.getFirst().slabs(new long[] {0, 0}, new long[] {600, 250}).orElseThrow();
        IndexOutOfBoundsException backwards = assertThrows(IndexOutOfBoundsException.class, () -> slabs.rows(new long[] {5, 3}));
        assertTrue(backwards.getMessage().contains("[5, 3]") && backwards.getMessage().contains("rows-raw"), backwards.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> slabs.rows(new long[] {599, 600}));
    }

    @Test
    void aMissingChunkReadsAsTheFillValue() throws Exception {
        ZarrArray array = write("missing", defaults().withFillValue(FillValue.of(DType.FLOAT64, 2.5)));
        Files.delete(directory.resolve("missing").resolve("1.1"));
        NDArray slab = array.slabs(new long[] {600, 250}, new long[] {600, 250}).orElseThrow().slab(10, 5);
        double[] expected = new double[5 * 250];
        Arrays.fill(expected, 2.5);
        assertArrayEquals(expected, values(slab));
        assertArrayEquals(Arrays.copyOf(expected, 2 * 250), values(array.slabs(new long[] {600, 250}, new long[] {600, 250}).orElseThrow().rows(new long[] {1, 8})));
    }

    @Test
    void aTruncatedChunkNamesTheStoreTheChunkAndTheCodec() throws Exception {
        assumeTrue(Blosc.defaults().decodesRanges(), "no system c-blosc here (apt-get install libblosc1)");
        ZarrArray array = write("truncated", defaults());
        Path chunk = directory.resolve("truncated").resolve("0.1");
        byte[] bytes = Files.readAllBytes(chunk);
        Files.write(chunk, Arrays.copyOf(bytes, bytes.length / 2));
        RegionSource.SlabReader slabs = array.slabs(new long[] {0, 250}, new long[] {600, 250}).orElseThrow();
        UncheckedIOException failure = assertThrows(UncheckedIOException.class, () -> slabs.slab(0, 10));
        String message = failure.getMessage();
        assertTrue(message.contains(directory.resolve("truncated").toString()) && message.contains("chunk 0.1") && message.contains("blosc"), message);
    }

    /** The bytes this thread allocates computing {@code sum} a second time (the first loads and warms the code), which must be {@code expected}. */
    private static long allocatedBySecondSum(ChunkedArray sum, double expected) {
        sum.compute(new SynchronousScheduler());
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        double actual = sum.compute(new SynchronousScheduler()).getDouble();
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(expected, actual, Math.abs(expected) * 1e-12);
        return allocated;
    }

    @Test
    void aSumPullsStoredBlocksThroughInStrips() throws Exception {
        assumeTrue(Blosc.defaults().decodesRanges(), "no system c-blosc here (apt-get install libblosc1)");
        // Blocks tall enough that the reduction reads each in strips (edge blocks too short for that are read whole).
        long[] shape = {2400, 500};
        ZarrArray array = write("sum", ArrayMetadataV2.of(shape, CHUNKS, DType.FLOAT64));
        double expected = org.tessera.ndarray.api.NDArrays.sum(array.readAll()).getDouble();
        long allocated = allocatedBySecondSum(Zarr.fromZarr(array).sum(), expected);
        // The array is 9.6 MB in blocks of 1.2 MB: decoded whole, the blocks alone would allocate it all.
        long arrayBytes = shape[0] * shape[1] * Double.BYTES;
        assertTrue(allocated < arrayBytes / 4, "the sum allocated " + allocated + " bytes; the array holds " + arrayBytes);
    }

    @Test
    void aShuffledGatherOfAStoredArrayReadsEachBlocksPointsOnce() throws Exception {
        assumeTrue(Blosc.defaults().decodesRanges(), "no system c-blosc here (apt-get install libblosc1)");
        long[] shape = {4800, 500};
        ZarrArray array = write("gather", ArrayMetadataV2.of(shape, CHUNKS, DType.FLOAT64));
        long[] shuffled = new java.util.Random(5).longs(150, 0, 1600).toArray();
        org.tessera.ndarray.index.Index[] stepped = {org.tessera.ndarray.index.Index.range(null, null, 3L), org.tessera.ndarray.index.Index.all()};
        NDArray positions = org.tessera.ndarray.api.NDArrays.array(shuffled);
        double expected = org.tessera.ndarray.api.NDArrays.sum(org.tessera.ndarray.index.Indexing.get(
                org.tessera.ndarray.index.Indexing.get(array.readAll(), stepped), org.tessera.ndarray.index.Index.of(positions))).getDouble();
        long allocated = allocatedBySecondSum(Zarr.fromZarr(array).get(stepped).get(org.tessera.ndarray.index.Index.of(positions)).sum(), expected);
        // y[::3] holds 6.4 MB; each of its blocks, read by every output block of a run of its points, was made whole
        // and held for them (10.5 MB allocated in all). Read once for its points, a block leaves only their rows (150 of 500
        // float64: 600 KB), and the rest is the graph's and the plan's (4.7 MB in all).
        long selectedBytes = shape[0] / 3 * shape[1] * Double.BYTES;
        assertTrue(allocated < selectedBytes, "the gather allocated " + allocated + " bytes; y[::3] holds " + selectedBytes);
    }

    @Test
    void meanAndStdTogetherPullEachStoredBlockThroughOnce() throws Exception {
        assumeTrue(Blosc.defaults().decodesRanges(), "no system c-blosc here (apt-get install libblosc1)");
        long[] shape = {2400, 500};
        ZarrArray array = write("moments", ArrayMetadataV2.of(shape, CHUNKS, DType.FLOAT64));
        ChunkedArray y = Zarr.fromZarr(array);
        java.util.List<ChunkedArray> statistics = java.util.List.of(y.mean(0), y.std(0, 0));
        ChunkedArray.computeAll(new SynchronousScheduler(), statistics);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        ChunkedArray.computeAll(new SynchronousScheduler(), statistics);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // Read by two reductions, each block would be decoded whole and held for both (the whole array), and the
        // std's deviations made whole as well; in strips, what is allocated is the reductions' small parts per row.
        long arrayBytes = shape[0] * shape[1] * Double.BYTES;
        assertTrue(allocated < arrayBytes, "mean and std allocated " + allocated + " bytes; the array holds " + arrayBytes);
    }

    @Test
    void aRechunkToRowBandsReadsTheBandsOfEachStoredChunkInTheNewBlocksTasks() throws Exception {
        assumeTrue(Blosc.defaults().decodesRanges(), "no system c-blosc here (apt-get install libblosc1)");
        long[] shape = {1200, 1000};
        ZarrArray array = write("bands", ArrayMetadataV2.of(shape, CHUNKS, DType.FLOAT64));
        // Bands of 100 whole rows: each takes rows of 4 chunks, and each chunk goes to 6 bands. A one-step task would hold
        // its 4 chunks (4.8 MB) beyond this limit, so Dask's plan splits the chunks into pieces first.
        ChunkedArray bands = Zarr.fromZarr(array).rechunk(org.tessera.array.chunks.Chunks.regular(shape, new long[] {100, 1000}), 3_000_000);
        assertTrue(bands.graph().layers().keySet().stream().noneMatch(name -> name.startsWith("rechunk-split")),
                "no split step: " + bands.graph().layers().keySet());
        NDArray whole = array.readAll();
        assertArrayEquals(values(whole), values(bands.compute(new SynchronousScheduler())), "the bands");
        double expected = org.tessera.ndarray.api.NDArrays.sum(whole).getDouble();
        long allocated = allocatedBySecondSum(bands.sum(), expected);
        // Split first, every chunk was decoded whole and copied into its pieces: twice the array (9.6 MB) and more.
        long arrayBytes = shape[0] * shape[1] * Double.BYTES;
        assertTrue(allocated < arrayBytes / 4, "the sum of the bands allocated " + allocated + " bytes; the array holds " + arrayBytes);
    }
}

package org.tessera.array.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.api.ChunkedArrays;
import org.tessera.array.blockwise.MapBlocks;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.creation.Diagonals;
import org.tessera.array.creation.Grids;
import org.tessera.array.join.ChunkedJoining;
import org.tessera.array.overlap.Boundary;
import org.tessera.array.overlap.Overlap;
import org.tessera.array.shape.Dimensions;
import org.tessera.array.shape.PadMode;
import org.tessera.array.slicing.ChunkedIndex;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.memory.Footprint;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * The operations of the elementwise, creation, slicing, overlap, joining, reshaping and shape
 * packages declare the memory of every layer they add, and declare enough: on arrays of 600 x 600
 * float64 in blocks of 200 x 200, what a computation allocates, as the threaded scheduler measures
 * it on one worker, stays within its plan's projected peak. The ratios of the two, on one worker
 * and on the plan's workers, are printed for each case.
 *
 * <p>Layers of operations that other packages own (rechunks, which Blockwise uses to align inputs)
 * are not checked here: a case that contains one checks only its own layers.
 */
class DeclaredFootprintsOfElementwiseTest {
    private static final long SIDE = 600;
    private static final long BLOCK = 200;
    private static final ChunkSpec BLOCKS = ChunkSpec.of(BLOCK, BLOCK);
    /** Layers of other packages' operations that these cases may meet. */
    private static final List<String> FOREIGN = List.of("rechunk");

    private final ChunkedArray x = Creation.random(1, Creation.Distribution.UNIFORM, new long[] {SIDE, SIDE}, BLOCKS);
    private final ChunkedArray y = Creation.random(2, Creation.Distribution.UNIFORM, new long[] {SIDE, SIDE}, BLOCKS);
    private final List<String> failures = new ArrayList<>();

    @Test
    void elementwise() {
        ChunkedArray row = Creation.random(3, Creation.Distribution.UNIFORM, new long[] {SIDE}, ChunkSpec.of(BLOCK));
        ChunkedArray integers = Creation.randomIntegers(4, 0, 100, new long[] {SIDE, SIDE}, BLOCKS);
        check("x + 1", x.add(1));
        check("x * y", x.multiply(y));
        check("x + row (broadcast)", x.add(row));
        check("x + column (broadcast)", x.add(row.reshape(SIDE, 1)));
        check("x + int64", x.add(integers));
        check("int64 / 2 (true divide casts)", integers.divide(2));
        check("float32 + float64", x.astype(DType.FLOAT32).add(y));
        check("int32 * 1.5", integers.astype(DType.INT32).multiply(1.5));
        check("x + NDArray", x.add(NDArrays.arange(0.0, (double) SIDE, 1.0)));
        check("sin(x)", x.apply(Ufuncs.SIN));
        check("x > 0.5", x.greater(0.5));
        check("where(x > 0.5, x, 0)", ChunkedArray.where(x.greater(0.5), x, 0.0));
        check("where(int, x, y)", ChunkedArray.where(integers, x, y));
        check("clip(x, 0.2, 0.8)", org.tessera.array.blockwise.Selection.clip(x, 0.2, 0.8));
        check("clip(x, null, 0.8)", org.tessera.array.blockwise.Selection.clip(x, null, 0.8));
        check("astype int32", x.astype(DType.INT32));
        check("astype complex128", x.astype(DType.COMPLEX128));
        check("((x + 1) * y - x) / 3 (fused chain)", x.add(1).multiply(y).apply(Ufuncs.SUBTRACT, x).divide(3));
        finish();
    }

    @Test
    void creation() {
        check("ones", Creation.ones(new long[] {SIDE, SIDE}, DType.FLOAT64, BLOCKS));
        check("zeros int32", Creation.zeros(new long[] {SIDE, SIDE}, DType.INT32, BLOCKS));
        check("full", Creation.full(new long[] {SIDE, SIDE}, 2.5, DType.FLOAT32, BLOCKS));
        check("random uniform", x);
        check("random normal", Creation.random(5, Creation.Distribution.NORMAL, new long[] {SIDE, SIDE}, BLOCKS));
        check("random integers", Creation.randomIntegers(6, -5, 5, new long[] {SIDE, SIDE}, BLOCKS));
        check("arange float64", Creation.arange(0, SIDE * SIDE, 1, DType.FLOAT64, ChunkSpec.of(BLOCK * BLOCK)));
        check("arange int8", Creation.arange(0, SIDE * SIDE, 1, DType.INT8, ChunkSpec.of(BLOCK * BLOCK)));
        check("linspace", Creation.linspace(0, 1, SIDE * SIDE, ChunkSpec.of(BLOCK * BLOCK)));
        check("eye", Creation.eye(SIDE, SIDE, 1, DType.FLOAT64, BLOCKS));
        check("tri", Diagonals.tri(SIDE, SIDE, 0, DType.FLOAT64, BLOCKS));
        check("indices", Grids.indices(new long[] {SIDE, SIDE}, DType.INT64, BLOCKS));
        ChunkedArray vector = Creation.random(7, Creation.Distribution.UNIFORM, new long[] {SIDE}, ChunkSpec.of(BLOCK));
        check("meshgrid", Grids.meshgrid("xy", vector, vector).getFirst());
        check("diag(vector)", Diagonals.diag(vector, 0));
        check("diag(vector, k=1)", Diagonals.diag(vector, 1));
        check("diagonal(matrix)", Diagonals.diag(x, 0));
        NDArray values = NDArrays.arange(0.0, (double) (SIDE * SIDE), 1.0).reshape(SIDE, SIDE);
        check("asarray (views of an NDArray)", Creation.asarray(values, BLOCKS));
        check("fromBlock", ChunkedArrays.fromBlock(values));
        check("fromArray (one block, cut)", ChunkedArrays.fromArray(values, BLOCKS));
        check("fromSource (copying source)", Creation.fromSource(new CopyingSource(values), BLOCKS));
        check("fromFunction (declared)", Creation.fromFunction((index, shape, start) -> NDArray.zeros(DType.FLOAT64, shape),
                new long[] {SIDE, SIDE}, DType.FLOAT64, BLOCKS, "made", Working.none()));
        check("persist", x.add(1).persist());
        check("block(1, 1)", x.block(1, 1));
        assertTrue(undeclared(Creation.fromFunction((index, shape, start) -> NDArray.zeros(DType.FLOAT64, shape), new long[] {SIDE, SIDE},
                DType.FLOAT64, BLOCKS, "undeclared-maker").graph()).size() == 1, "a maker without a declaration is named as undeclared");
        finish();
    }

    @Test
    void slicing() {
        check("x[100:500, ::2]", x.get(Index.range(100L, 500L, null), Index.range(null, null, 2L)));
        check("x[5, :] and x[:, None]", x.get(Index.at(5), Index.all()).get(Index.all(), Index.newAxis()));
        check("x[::-3, 7:590:5]", x.get(Index.range(null, null, -3L), Index.range(7L, 590L, 5L)));
        NDArray rows = NDArrays.array(new long[] {599, 3, 3, 250, 17, 400, 401, 0});
        check("x[[rows], :] (gather)", x.get(Index.of(rows), Index.all()));
        check("x[:, [rows]] (gather)", x.get(Index.all(), Index.of(rows)));
        long[] reversed = new long[(int) SIDE];
        for (int position = 0; position < reversed.length; position++) {
            reversed[position] = SIDE - 1 - position;
        }
        NDArray many = NDArrays.array(reversed);
        check("x[reversed rows] (gather all)", x.get(Index.of(many)));
        check("vindex", x.vindex(rows, NDArrays.array(new long[] {1, 2, 3, 4, 5, 6, 7, 8})));
        ChunkedArray rowMask = x.get(Index.all(), Index.at(0)).greater(0.5);
        check("x[row mask]", x.get(rowMask));
        check("x[x > 0.5] (2-d mask)", x.get(x.greater(0.5)));
        ChunkedArray positions = Creation.randomIntegers(8, 0, SIDE, new long[] {SIDE}, ChunkSpec.of(BLOCK));
        check("x[chunked positions]", x.get(List.of(ChunkedIndex.positions(positions))));
        check("x[100:300, 50:250] = 7", x.set(new Index[] {Index.range(100L, 300L, null), Index.range(50L, 250L, null)}, 7.0));
        check("x[100:300, 50:250] = y[...] (chunked value)", x.set(new Index[] {Index.range(100L, 300L, null), Index.range(50L, 250L, null)},
                y.get(Index.range(0L, 200L, null), Index.range(300L, 500L, null))));
        check("x[:, :] = int32 y (cast)", x.set(new Index[] {Index.all(), Index.all()}, y.astype(DType.INT32)));
        check("x[rows] = NDArray", x.set(new Index[] {Index.of(rows)}, NDArrays.arange(0.0, (double) SIDE, 1.0)));
        check("x[rows] = chunked row", x.set(new Index[] {Index.of(rows)}, y.get(Index.at(3), Index.all())));
        check("x[x > 0.5] = 0", x.set(x.greater(0.5), 0.0));
        check("x[row mask] = 1", x.set(rowMask, 1.0));
        finish();
    }

    @Test
    void overlapAndMapBlocks() {
        check("overlap reflect", Overlap.overlap(x, 2, Boundary.REFLECT));
        check("overlap nearest", Overlap.overlap(x, 3, Boundary.NEAREST));
        check("overlap constant", Overlap.overlap(x, 1, Boundary.constant(0)));
        check("mapOverlap periodic (declared)", Overlap.mapOverlap(x, block -> Ufuncs.MULTIPLY.apply(block, 2.0), new long[] {1}, new Boundary[] {Boundary.PERIODIC},
                null, Working.none()));
        check("mapOverlap reflect to float32 (declared)", Overlap.mapOverlap(x, block -> block.astype(DType.FLOAT32), new long[] {2},
                new Boundary[] {Boundary.REFLECT}, DType.FLOAT32, Working.none()));
        check("mapOverlap over x + 1 (declared)", Overlap.mapOverlap(x.add(1), block -> Ufuncs.SQRT.apply(block), new long[] {1},
                new Boundary[] {Boundary.NEAREST}, null, Working.none()));
        assertEquals(1, undeclared(x.mapOverlap(block -> Ufuncs.MULTIPLY.apply(block, 2.0), 1, Boundary.REFLECT).graph()).size(),
                "a mapOverlap function without a declaration is named as undeclared");
        check("mapBlocks (declared)", MapBlocks.of(blocks -> Ufuncs.ADD.apply(blocks[0], blocks[1]), x, y).working(Working.none()).build());
        check("mapBlocks with block info (declared)", MapBlocks.withBlockInfo((info, blocks) -> Ufuncs.ADD.apply(blocks[0], (double) info.start()[0]), x)
                .working(Working.none()).build());
        check("mapBlocks dropping an axis (joined)", MapBlocks.of(blocks -> NDArrays.sum(blocks[0], org.tessera.ndarray.ufunc.Reductions.Options.axes(0)), x)
                .dropAxis(0).working(Working.ofResult(1)).build());
        finish();
    }

    @Test
    void joiningReshapingAndShapes() {
        check("concatenate", ChunkedJoining.concatenate(List.of(x, y), 0));
        check("concatenate with cast", ChunkedJoining.concatenate(List.of(x, y.astype(DType.FLOAT32)), 1));
        check("stack", ChunkedJoining.stack(List.of(x, y), 0));
        check("block", ChunkedJoining.block(List.of(List.of(x, y), List.of(y, x))));
        check("reshape (3, 200, 600)", x.reshape(3, BLOCK, SIDE));
        check("reshape (360000) (rechunks)", x.reshape(SIDE * SIDE));
        check("reshape F", x.reshape(org.tessera.ndarray.layout.Order.F, SIDE, SIDE));
        check("ravel", x.ravel());
        check("transpose", x.T());
        check("x.T + x", x.T().add(x));
        check("moveaxis, swapaxes", x.reshape(3, BLOCK, SIDE).moveaxis(0, 2).swapaxes(0, 1));
        check("expandDims then squeeze", x.expandDims(0, 3).squeeze());
        check("broadcast_to", Dimensions.broadcastTo(x.get(Index.at(0), Index.all()), 3 * BLOCK, SIDE));
        check("flatten", org.tessera.array.reshape.Flatten.flatten(x));
        check("flip", x.flip());
        check("roll", x.roll(new long[] {50, -70}, new int[] {0, 1}));
        check("roll flat", x.roll(1234));
        check("repeat", x.repeat(3, 0));
        check("tile", x.tile(2, 1));
        check("diff", x.diff(2, 1));
        check("diff of booleans", x.greater(0.5).diff());
        check("pad constant", x.pad(30, PadMode.constant(1)));
        check("pad reflect", x.pad(new long[][] {{10, 300}}, new PadMode.Reflect()));
        check("pad edge", x.pad(50, new PadMode.Edge()));
        check("pad wrap", x.pad(50, new PadMode.Wrap()));
        finish();
    }

    /**
     * Checks one array: its layers are declared, and what computing it allocates stays within its
     * plan. On one worker the scheduler runs the tasks in the plan's order, so the comparison tests
     * the declarations alone, and must hold. On the plan's workers a real run may interleave tasks
     * of unequal lengths otherwise than the plan's equal steps (a fast task run ahead while a slow
     * one works), so there the ratio is printed, and a run above the projection is reported, not failed.
     */
    private void check(String label, ChunkedArray array) {
        try {
            Set<String> ownUndeclared = undeclared(array.graph());
            boolean foreign = array.graph().layers().keySet().stream().anyMatch(DeclaredFootprintsOfElementwiseTest::isForeign);
            Plan plan = array.plan();
            Set<String> planUndeclared = new LinkedHashSet<>(plan.undeclaredLayers());
            planUndeclared.removeIf(DeclaredFootprintsOfElementwiseTest::isForeign);
            Plan serial = plan.withWorkers(1);
            long serialMeasured = measuredPeak(array, 1);
            long measured = measuredPeak(array, plan.workers());
            System.out.printf(Locale.ROOT, "%-46s 1 worker: measured %9d projected %9d ratio %4.2f | %d workers: measured %9d projected %9d ratio %4.2f%s%n",
                    label, serialMeasured, serial.projectedPeakBytes(), ratio(serialMeasured, serial.projectedPeakBytes()), plan.workers(), measured,
                    plan.projectedPeakBytes(), ratio(measured, plan.projectedPeakBytes()), foreign ? "  (with rechunks)" : "");
            if (!ownUndeclared.isEmpty()) {
                failures.add(label + ": layers without a declaration: " + ownUndeclared);
            }
            if (!foreign && !planUndeclared.isEmpty()) {
                failures.add(label + ": the plan names undeclared layers " + planUndeclared + "\n" + plan);
            }
            if (serialMeasured > serial.projectedPeakBytes()) {
                failures.add(String.format(Locale.ROOT, "%s: on one worker measured %d > projected %d%n%s", label, serialMeasured,
                        serial.projectedPeakBytes(), serial));
            }
            if (measured > plan.projectedPeakBytes()) {
                System.out.printf(Locale.ROOT, "  note: %s on %d workers measured %d above the projected %d (an interleaving the plan's equal steps do not "
                        + "follow)%n", label, plan.workers(), measured, plan.projectedPeakBytes());
            }
        } catch (RuntimeException failure) {
            throw new AssertionError(label + ": " + failure, failure);
        }
    }

    /** The most that computing {@code array} held at once in two runs on {@code workers} workers, as the scheduler measures it. */
    private static long measuredPeak(ChunkedArray array, int workers) {
        long measured = 0;
        for (int run = 0; run < 2; run++) {
            ThreadedScheduler scheduler = ThreadedScheduler.builder().workers(workers).build();
            measured = Math.max(measured, scheduler.run(array.optimizedGraph(), array.flatKeys()).statistics().measuredPeakBytes());
        }
        return measured;
    }

    private static double ratio(long measured, long projected) {
        return projected == 0 ? Double.NaN : (double) measured / projected;
    }

    private void finish() {
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /** The layers of {@code graph}, other packages' aside, whose operation declared no working memory. */
    private static Set<String> undeclared(HighLevelGraph graph) {
        Set<String> names = new LinkedHashSet<>();
        for (String name : graph.layers().keySet()) {
            Footprint footprint = graph.footprint(name);
            if (!isForeign(name) && (footprint == null || !footprint.declared())) {
                names.add(name);
            }
        }
        return names;
    }

    private static boolean isForeign(String layer) {
        return FOREIGN.stream().anyMatch(layer::startsWith);
    }

    /** A source the library does not know: each read copies its region. */
    private record CopyingSource(NDArray values) implements RegionSource {
        @Override
        public long[] shape() {
            return values.shape();
        }

        @Override
        public DType dtype() {
            return values.dtype();
        }

        @Override
        public NDArray read(long[] start, long[] shape) {
            NDArray region = values;
            for (int axis = 0; axis < start.length; axis++) {
                region = region.slice(axis, start[axis], 1, shape[axis]);
            }
            return region.copy();
        }

        @Override
        public Object identity() {
            return "copying:" + System.identityHashCode(values);
        }
    }
}

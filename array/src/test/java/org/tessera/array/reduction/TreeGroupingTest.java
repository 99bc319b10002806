package org.tessera.array.reduction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.RegionSource;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.overlap.Boundary;
import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.order.Ordering;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * A reduction over several axes groups its partials along the last axis first, so its static
 * order reduces a row of blocks before the next: a stencil over stored blocks then holds about
 * one row of them, where 2 x 2 groups held two and more.
 */
class TreeGroupingTest {
    private static final int SIDE = 8;

    private static ChunkedArray source() {
        return Creation.fromSource(RegionSource.of(NDArray.zeros(DType.FLOAT64, 4L * SIDE, 4L * SIDE)), ChunkSpec.of(4, 4));
    }

    @Test
    void theFirstLevelCombinesBlocksOfOneRow() {
        ChunkedArray sum = source().sum();
        TaskGraph graph = sum.optimizedGraph();
        int groups = 0;
        for (Map.Entry<Key, Set<Key>> entry : graph.dependencyMap().entrySet()) {
            if (!entry.getKey().name().startsWith("sum-partial-1-")) {
                continue;
            }
            groups++;
            Set<Integer> rows = new HashSet<>();
            entry.getValue().forEach(partial -> rows.add(partial.index()[0]));
            assertEquals(1, rows.size(), entry.getKey() + " combines partials of rows " + rows);
            assertEquals(4, entry.getValue().size(), entry.getKey() + " combines " + entry.getValue().size() + " partials");
        }
        assertEquals(SIDE * SIDE / 4, groups);
        assertEquals(0.0, sum.compute().getDouble());
        // Groups of one are groups of two, as Dask's split_every of 1 is.
        ChunkedArray ones = Creation.fromSource(RegionSource.of(org.tessera.ndarray.api.NDArrays.ones(DType.FLOAT64, 12, 12)), ChunkSpec.of(4, 4));
        assertEquals(144.0, TreeReduction.reduce(ones, Kinds.sum(DType.FLOAT64), null, false, 1, NDArray.zeros(DType.FLOAT64, 0)).compute().getDouble());
    }

    @Test
    void aStencilsStaticOrderHoldsAboutOneRowOfStoredBlocks() {
        ChunkedArray x = source();
        ChunkedArray sum = x.mapOverlap(block -> block, 1, Boundary.REFLECT).sum();
        TaskGraph graph = sum.optimizedGraph();
        List<Key> order = Ordering.order(graph, List.of(sum.key(new int[0])));
        Map<Key, Integer> readers = new HashMap<>();
        for (Key key : order) {
            graph.dependencies(key).forEach(input -> readers.merge(input, 1, Integer::sum));
        }
        // Run in the static order one task at a time: a block is held from its read until its last reader has run.
        Set<Key> held = new HashSet<>();
        int most = 0;
        for (Key key : order) {
            if (key.name().equals(x.name())) {
                held.add(key);
            }
            for (Key input : graph.dependencies(key)) {
                if (readers.merge(input, -1, Integer::sum) == 0) {
                    held.remove(input);
                }
            }
            most = Math.max(most, held.size());
        }
        assertTrue(most <= SIDE + 3, "the order held " + most + " of the " + SIDE * SIDE + " blocks at once; a row is " + SIDE);
    }
}

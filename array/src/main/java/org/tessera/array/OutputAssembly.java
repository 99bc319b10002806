package org.tessera.array;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.Key;
import org.tessera.graph.memory.StreamedOutputs;
import org.tessera.graph.schedule.OutputSink;
import org.tessera.ndarray.NDArray;

/**
 * The arrays of one {@code compute} put together as their blocks finish: each dense array of known
 * chunks and several blocks has its result allocated first, and a block is copied into its place
 * when its task is done, after which the scheduler may drop it. Arrays of one block (returned as
 * they are), of unknown chunks or of other families are assembled from what the scheduler returns,
 * as before. Blocks of one array go to disjoint regions of its result, so workers copy at once.
 */
final class OutputAssembly implements OutputSink {
    /** A block's place: the array it belongs to, the result it is copied into, its index in the grid. */
    private record Place(ChunkedArray array, NDArray result, int[] index) {
    }

    private final List<ChunkedArray> arrays;
    private final Map<ChunkedArray, NDArray> streamed = new HashMap<>();
    private final Map<Key, List<Place>> places = new HashMap<>();

    OutputAssembly(Iterable<ChunkedArray> arrays) {
        this.arrays = new ArrayList<>();
        for (ChunkedArray array : arrays) {
            this.arrays.add(array);
            if (!streams(array) || streamed.containsKey(array)) {
                continue;
            }
            NDArray result = NDArray.empty(array.dtype(), array.shape());
            streamed.put(array, result);
            BlockGrid.forEach(array.numBlocks(), index -> {
                int[] at = index.clone();
                places.computeIfAbsent(Key.of(array.name(), at), key -> new ArrayList<>()).add(new Place(array, result, at));
            });
        }
    }

    /**
     * What computing {@code arrays} together streams: the keys of the arrays whose blocks are
     * copied into a result allocated first, and those results' bytes, each array counted once.
     */
    static StreamedOutputs streamed(Collection<ChunkedArray> arrays) {
        Set<Key> keys = new HashSet<>();
        Set<ChunkedArray> counted = new HashSet<>();
        long bytes = 0;
        for (ChunkedArray array : arrays) {
            if (streams(array) && counted.add(array)) {
                keys.addAll(array.flatKeys());
                bytes += resultBytes(array);
            }
        }
        return new StreamedOutputs(keys, bytes);
    }

    /** Whether the blocks of {@code array} are copied into its result as they finish: dense, of known chunks, several blocks. */
    private static boolean streams(ChunkedArray array) {
        return array.meta() instanceof NDArray && array.chunks().isKnown() && array.chunks().totalBlocks() >= 2;
    }

    private static long resultBytes(ChunkedArray array) {
        return Math.multiplyExact(array.size(), (long) array.dtype().byteSize());
    }

    /** The results allocated for the streamed arrays, held from before the computation starts. */
    @Override
    public long heldBytes() {
        return streamed.keySet().stream().mapToLong(OutputAssembly::resultBytes).sum();
    }

    /** Copies a block of a streamed array into its place; any other output is left with the scheduler. */
    @Override
    public boolean take(Key output, Object value) {
        List<Place> found = places.get(output);
        if (found == null) {
            return true;
        }
        for (Place place : found) {
            place.array().placeBlock(place.result(), place.index(), value);
        }
        return false;
    }

    /** The computed arrays, in the order given: streamed ones as copied, the others from the blocks the scheduler {@code kept}. */
    List<NDArray> results(Map<Key, Object> kept) {
        List<NDArray> results = new ArrayList<>();
        for (ChunkedArray array : arrays) {
            NDArray result = streamed.get(array);
            results.add(result != null ? result : array.assemble(kept));
        }
        return results;
    }
}

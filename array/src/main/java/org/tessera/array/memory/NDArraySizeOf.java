package org.tessera.array.memory;

import java.util.OptionalLong;

import org.tessera.array.ChunkedArray;
import org.tessera.graph.memory.SizeOf;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.NDArray;

/**
 * Tells the graph's memory budget how many bytes a block holds. A view counts its own elements,
 * not the whole buffer it looks into: what a budget can free is what the view keeps. Blocks of
 * other families (sparse, ...) count what they say they store ({@link AnyArray#byteSize()});
 * a chunked array is a graph, not a block, and is left to the default rule.
 */
public final class NDArraySizeOf implements SizeOf {
    @Override
    public OptionalLong sizeOf(Object value) {
        return switch (value) {
            case NDArray array -> OptionalLong.of(array.byteSize() + 128);
            case ChunkedArray ignored -> OptionalLong.empty();
            case AnyArray<?> array -> OptionalLong.of(array.byteSize() + 128);
            case NDArray[] arrays -> {
                long total = 16;
                for (NDArray array : arrays) {
                    total += array.byteSize() + 128;
                }
                yield OptionalLong.of(total);
            }
            default -> OptionalLong.empty();
        };
    }
}

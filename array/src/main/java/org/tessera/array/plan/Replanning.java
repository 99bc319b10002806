package org.tessera.array.plan;

import java.io.Serial;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.ChunkedArray;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.BlockwiseArgument;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.memory.Footprint;

/**
 * Builds a graph again so that its tasks fit a budget, where an operation knows how
 * ({@link Replannable}): each such layer is replaced by the same array built with tasks of at most
 * a share of the budget, under its old name (a block-for-block alias of the new last layer, which
 * the optimisation inlines), so the layers that read it read the same keys.
 */
public final class Replanning {
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyz";

    private Replanning() {
    }

    /** {@code graph} with every replannable layer built again with tasks of at most {@code taskBytes}; the same graph where none is. */
    public static HighLevelGraph within(HighLevelGraph graph, long taskBytes) {
        HighLevelGraph current = graph;
        for (Map.Entry<String, Footprint> entry : List.copyOf(graph.footprints().entrySet())) {
            if (!(entry.getValue() instanceof Replannable replannable) || replannable.rebuild() == null || !graph.layers().containsKey(entry.getKey())) {
                continue;
            }
            ChunkedArray rebuilt = replannable.rebuild().within(taskBytes);
            if (rebuilt.name().equals(entry.getKey())) {
                continue;
            }
            current = alias(HighLevelGraph.merge(current, rebuilt.graph()), entry.getKey(), rebuilt);
        }
        return current;
    }

    /** {@code graph} with layer {@code name} replaced by block-for-block copies of {@code array}'s blocks. */
    private static HighLevelGraph alias(HighLevelGraph graph, String name, ChunkedArray array) {
        String letters = LETTERS.substring(0, array.ndim());
        int[] counts = array.chunks().blockCounts();
        Map<Character, Integer> blockCounts = new HashMap<>();
        for (int axis = 0; axis < counts.length; axis++) {
            blockCounts.put(letters.charAt(axis), counts[axis]);
        }
        List<BlockwiseArgument> arguments = new ArrayList<>();
        arguments.add(BlockwiseArgument.blocks(array.name(), letters, counts));
        BlockwiseLayer alias = new BlockwiseLayer(name, letters, new Same(), arguments, blockCounts, null);
        // The alias hands on a block it is given: its result counts as before, it allocates nothing.
        Footprint footprint = graph.footprint(name) instanceof Replannable replannable ? replannable.footprint() : graph.footprint(name);
        Footprint aliasFootprint = footprint instanceof LayerFootprint layer
                ? new LayerFootprint(layer.chunks(), layer.bounds(), layer.itemSize(), Working.none(), LayerFootprint.Traffic.NONE)
                : Footprints.blocks(HighLevelGraph.empty(), name, array.chunks(), array.dtype(), Working.none()).footprint(name);
        return graph.replacing(alias, Set.of(array.name())).withFootprint(name, aliasFootprint);
    }

    /** The block it is given: the alias's function, cheap, so the optimisation copies it into its readers. */
    private record Same() implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return arguments.getFirst();
        }

        @Override
        public boolean isCheap() {
            return true;
        }

        @Override
        public String displayName() {
            return "replanned";
        }
    }
}

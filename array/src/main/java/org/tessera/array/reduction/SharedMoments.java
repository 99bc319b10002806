package org.tessera.array.reduction;

import java.io.Serial;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.plan.LayerFootprint;
import org.tessera.array.plan.Working;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.BlockwiseArgument;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.memory.Footprint;

/**
 * The mean and the variance (or standard deviation) of the same blocks over the same axes,
 * computed together, read the blocks once. Their chunk steps compute the same count and sum of
 * each block, the variance's adding the sum of squared deviations: the mean's chunk layer becomes
 * the first two parts of the variance's, so the blocks have one reader, which a fused chain then
 * pulls through in strips (a stored chunk in slabs), and the mean's partials are bit for bit what
 * its own chunk step gives. Dask reads the blocks once too, but holds each until both have read it.
 */
public final class SharedMoments {
    private SharedMoments() {
    }

    /** {@code graph} with every mean chunk layer that has a variance twin read from the twin. */
    public static HighLevelGraph apply(HighLevelGraph graph) {
        List<BlockwiseLayer> chunkLayers = graph.layers().values().stream()
                .filter(layer -> layer instanceof BlockwiseLayer blockwise && blockwise.function() instanceof TreeReduction.ChunkStep step
                        && step.kind() instanceof Kinds.Moments)
                .map(BlockwiseLayer.class::cast).toList();
        if (chunkLayers.size() < 2) {
            return graph;
        }
        HighLevelGraph shared = graph;
        for (BlockwiseLayer mean : chunkLayers) {
            if (moments(mean).order() != 1) {
                continue;
            }
            for (BlockwiseLayer twin : chunkLayers) {
                if (moments(twin).order() > 1 && sameBlocks(mean, twin)) {
                    BlockwiseLayer projected = new BlockwiseLayer(mean.name(), mean.outputIndices(), new FirstParts(2),
                            List.of(BlockwiseArgument.blocks(twin.name(), twin.outputIndices(), counts(twin))), mean.blockCounts(), mean.restriction());
                    shared = shared.replacing(projected, Set.of(twin.name())).withFootprint(mean.name(),
                            pickedParts(shared.footprint(mean.name()), shared.footprint(twin.name())));
                    break;
                }
            }
        }
        return shared;
    }

    /**
     * The footprint of the mean's chunk layer once it picks the twin's parts: the same partials
     * (a count and a sum, which the twin's task made) and nothing allocated, as its task copies
     * two references. Where the mean's layer declared nothing, the twin's partials less their M2.
     */
    private static Footprint pickedParts(Footprint mean, Footprint twin) {
        if (mean instanceof LayerMemory.Parts parts) {
            return parts.withWorking(Working.none());
        }
        if (twin instanceof LayerMemory.Parts parts) {
            LayerFootprint blocks = parts.blocks();
            return new LayerMemory.Parts(new LayerFootprint(blocks.chunks(), blocks.bounds(), blocks.itemSize() - Long.BYTES, Working.none(),
                    blocks.traffic()), LayerMemory.ARRAY_OF_ARRAYS_BYTES + LayerFootprint.HEADER_BYTES);
        }
        return mean;
    }

    private static Kinds.Moments moments(BlockwiseLayer layer) {
        return (Kinds.Moments) ((TreeReduction.ChunkStep) layer.function()).kind();
    }

    /** Whether both chunk layers reduce the same blocks over the same axes, the NaNs treated alike. */
    private static boolean sameBlocks(BlockwiseLayer mean, BlockwiseLayer twin) {
        TreeReduction.ChunkStep first = (TreeReduction.ChunkStep) mean.function();
        TreeReduction.ChunkStep second = (TreeReduction.ChunkStep) twin.function();
        return moments(mean).skipNan() == moments(twin).skipNan() && Arrays.equals(first.axes(), second.axes())
                && first.chunks().equals(second.chunks()) && mean.outputIndices().equals(twin.outputIndices())
                && mean.blockCounts().equals(twin.blockCounts()) && java.util.Objects.equals(mean.restriction(), twin.restriction())
                && sameArguments(mean.arguments(), twin.arguments());
    }

    private static boolean sameArguments(List<BlockwiseArgument> first, List<BlockwiseArgument> second) {
        if (first.size() != second.size()) {
            return false;
        }
        for (int i = 0; i < first.size(); i++) {
            boolean same = switch (first.get(i)) {
                case BlockwiseArgument.Blocks blocks -> second.get(i) instanceof BlockwiseArgument.Blocks other && blocks.name().equals(other.name())
                        && blocks.indices().equals(other.indices()) && Arrays.equals(blocks.blockCounts(), other.blockCounts());
                default -> first.get(i).equals(second.get(i));
            };
            if (!same) {
                return false;
            }
        }
        return true;
    }

    private static int[] counts(BlockwiseLayer layer) {
        Map<Character, Integer> counts = layer.blockCounts();
        return layer.outputIndices().chars().map(letter -> counts.get((char) letter)).toArray();
    }

    /** The first {@code count} parts of a chunk step's partial. */
    record FirstParts(int count) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            Object[] parts = (Object[]) arguments.getFirst();
            return Arrays.copyOf(parts, count, parts.getClass().asSubclass(Object[].class));
        }

        @Override
        public String displayName() {
            return "moments-parts";
        }
    }
}

package org.tessera.array.blockwise;

import org.tessera.array.ChunkedArray;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;

/**
 * A block function whose blocks, taken deferred, combine their values into memory holding another
 * operand as they make them ({@link DeferredBlock#combinesInPlace}): what a plan needs to know to
 * count a binary ufunc of them at one array a part, as it runs.
 */
public interface CombinesParts {

    /** Whether the blocks of {@code layer}, a layer of {@code graph} with this function, combine in place. */
    boolean combinesParts(HighLevelGraph graph, BlockwiseLayer layer);

    /** Whether the blocks also write their parts straight into memory given ({@link DeferredBlock#fillsInPlace}); a transpose's do not. */
    default boolean fillsParts() {
        return false;
    }

    /** Whether their transposes by {@code axes} do ({@link DeferredBlock#combinesTransposedInPlace}), for blocks of {@code ndim} axes. */
    default boolean combinesTransposedParts(int ndim, int[] axes) {
        return false;
    }

    /** Whether {@code array}'s blocks combine in place. */
    static boolean of(ChunkedArray array) {
        return array.graph().layer(array.name()) instanceof BlockwiseLayer layer && partsOf(layer) instanceof CombinesParts parts
                && parts.combinesParts(array.graph(), layer);
    }

    /** Whether {@code array}'s blocks combine in place and fill in place. */
    static boolean fills(ChunkedArray array) {
        return of(array) && partsOf((BlockwiseLayer) array.graph().layer(array.name())).fillsParts();
    }

    /** The layer's function where it tells how its parts combine (a block function inside a blockwise task), or null. */
    static CombinesParts partsOf(BlockwiseLayer layer) {
        return switch (layer.function()) {
            case CombinesParts parts -> parts;
            case Blockwise.BlockTask task when task.joinAxes() == null && task.function() instanceof CombinesParts parts -> parts;
            default -> null;
        };
    }
}

package org.tessera.array.plan;

import java.io.Serial;

import org.tessera.array.chunks.Chunks;
import org.tessera.graph.Key;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.memory.Footprint;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.dtype.DType;

/**
 * How operations declare the memory of the layers they add. An operation that makes an array
 * declares only its working memory ({@link #declare}); the array's constructor completes the
 * declaration with the blocks' shapes and dtype ({@link #complete}). A layer that is no array's
 * (a level of a reduction tree, the pieces of a rechunk) is declared whole ({@link #blocks}).
 */
public final class Footprints {
    private Footprints() {
    }

    /** {@code graph} with {@code working} declared for layer {@code name}, whose array will give the blocks' shapes. */
    public static HighLevelGraph declare(HighLevelGraph graph, String name, Working working) {
        return graph.withFootprint(name, new Declared(working, null, LayerFootprint.Traffic.NONE));
    }

    /** As {@link #declare}, for a layer whose tasks read their blocks from a store. */
    public static HighLevelGraph declareReading(HighLevelGraph graph, String name, Working working) {
        return graph.withFootprint(name, new Declared(working, null, LayerFootprint.Traffic.READS));
    }

    /**
     * As {@link #declare}, for an array whose block lengths are not known before it runs (a boolean
     * mask's result): {@code bounds} are chunks no block exceeds.
     */
    public static HighLevelGraph declareBounded(HighLevelGraph graph, String name, Working working, Chunks bounds) {
        return graph.withFootprint(name, new Declared(working, bounds, LayerFootprint.Traffic.NONE));
    }

    /** {@code graph} with layer {@code name} declared whole: blocks of {@code chunks} and {@code dtype}, and its working memory. */
    public static HighLevelGraph blocks(HighLevelGraph graph, String name, Chunks chunks, DType dtype, Working working) {
        return graph.withFootprint(name, new LayerFootprint(chunks, chunks, dtype.byteSize(), working, LayerFootprint.Traffic.NONE));
    }

    /** A layer whose tasks each write the block of {@code chunks} at their key to a store, and return nothing to hold. */
    public static HighLevelGraph writing(HighLevelGraph graph, String name, Chunks chunks, DType dtype, Working working) {
        return graph.withFootprint(name, new LayerFootprint(chunks, chunks, dtype.byteSize(), working, LayerFootprint.Traffic.WRITES));
    }

    /**
     * The graph of an array named {@code name} with the blocks of {@code chunks} and {@code meta}: its
     * layer's declaration completed with the blocks' shapes, a footprint of other chunks brought to
     * these (known lengths after computing them), and a layer that declared nothing given its
     * results alone and marked undeclared, so that a plan names it.
     */
    public static HighLevelGraph complete(HighLevelGraph graph, String name, Chunks chunks, AnyArray<?> meta) {
        Footprint present = graph.footprint(name);
        long itemSize = meta.dtype().byteSize();
        return switch (present) {
            case Declared declared -> graph.withFootprint(name, new LayerFootprint(chunks, declared.bounds() != null && !chunks.isKnown()
                    ? declared.bounds() : chunks, itemSize, declared.working(), declared.traffic()));
            case LayerFootprint layer when !layer.chunks().equals(chunks) && chunks.isKnown() && layer.chunks().ndim() == chunks.ndim() ->
                    graph.withFootprint(name, layer.withChunks(chunks));
            case null -> graph.withFootprint(name, new LayerFootprint(chunks, chunks, itemSize, null, LayerFootprint.Traffic.NONE));
            default -> graph;
        };
    }

    /** A declaration waiting for its array's chunks. */
    record Declared(Working working, Chunks bounds, LayerFootprint.Traffic traffic) implements Footprint {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long resultBytes(Key key) {
            return 0;
        }

        @Override
        public long workingBytes(Key key) {
            return 0;
        }

        @Override
        public boolean declared() {
            return false;
        }
    }
}

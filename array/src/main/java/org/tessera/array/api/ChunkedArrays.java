package org.tessera.array.api;

import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.tessera.array.ChunkedArray;
import org.tessera.array.Metas;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.ChunkNormalization;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayNamespace;

/**
 * The chunked family's entry point for arrays of any chunk family: an in-memory array of any
 * family (dense, sparse, ...) cut into blocks of that family, and the chunked namespace over a
 * chunk family. The dense creation functions with their {@code like} overloads are in
 * {@link org.tessera.array.creation.Creation}.
 *
 * <p>NEP 35's example, once for every family (dense, sparse, chunked dense, chunked sparse):
 * <pre>{@code
 * static <A extends AnyArray<A>> A pad(AnyArray<A> array, double[] padding) {
 *     ArrayNamespace<A> xp = array.namespace();
 *     A edge = Like.asarray(padding, array);
 *     return xp.concatenate(List.of(edge, xp.cast(array), edge), 0);
 * }
 * ChunkedArray x = ChunkedArrays.fromArray(SparseCOO.fromDense(values), ChunkSpec.size(2));
 * ChunkedArray padded = pad(x, new double[] {1, 2});   // chunktype=SparseCOO, still lazy
 * }</pre>
 */
public final class ChunkedArrays {
    private ChunkedArrays() {
    }

    /** {@code array} as a chunked array of one block; its meta is of the array's family. */
    public static ChunkedArray fromBlock(AnyArray<?> array) {
        if (array instanceof ChunkedArray chunked) {
            return chunked;
        }
        String name = Tokens.name("from-" + array.namespace().family(), UUID.randomUUID());
        long[] shape = array.shape();
        long[][] lengths = new long[shape.length][];
        for (int axis = 0; axis < shape.length; axis++) {
            lengths[axis] = new long[] {shape[axis]};
        }
        Key key = Key.of(name, new int[shape.length]);
        // The block is given, not made: its task allocates nothing.
        HighLevelGraph graph = Footprints.declare(HighLevelGraph.empty().with(new MaterializedLayer(name, Map.of(key, Task.literal(array))), Set.of()), name,
                Working.none());
        return new ChunkedArray(graph, name, Chunks.of(lengths), Metas.metaFromArray(array, shape.length, array.dtype()));
    }

    /** {@code array} (an in-memory array of any family) cut into blocks of its family by {@code spec}. */
    public static ChunkedArray fromArray(AnyArray<?> array, ChunkSpec spec) {
        ChunkedArray whole = fromBlock(array);
        Chunks target = ChunkNormalization.normalize(spec, array.shape(), array.dtype());
        return Rechunk.rechunk(whole, target);
    }

    /** The chunked namespace whose blocks are of {@code chunkFamily}. */
    public static ChunkedNamespace namespace(ArrayNamespace<?> chunkFamily) {
        return new ChunkedNamespace(chunkFamily);
    }
}

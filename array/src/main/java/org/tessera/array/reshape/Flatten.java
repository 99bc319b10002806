package org.tessera.array.reshape;

import java.io.Serial;
import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Metas;
import org.tessera.array.blockwise.BlockFunction;
import org.tessera.array.blockwise.Blockwise;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.CreationLayer;
import org.tessera.array.plan.Working;
import org.tessera.array.rechunk.Rechunk;

/**
 * The array as 1-D in C order. Blocks are first made whole along every axis but the first, so each
 * block is a run of consecutive elements of the result and flattens on its own (Dask's rule for a
 * reshape that merges axes).
 */
public final class Flatten {
    private Flatten() {
    }

    public static ChunkedArray flatten(ChunkedArray array) {
        if (array.ndim() == 1) {
            return array;
        }
        long[] shape = array.chunks().requireKnownShape("flatten");
        if (array.ndim() == 0) {
            throw new IllegalArgumentException("flatten of a 0-d array: use reshape(1)");
        }
        long[][] rowBlocks = new long[shape.length][];
        rowBlocks[0] = array.chunks().axis(0);
        long rowLength = 1;
        for (int axis = 1; axis < shape.length; axis++) {
            rowBlocks[axis] = new long[] {shape[axis]};
            rowLength *= shape[axis];
        }
        ChunkedArray rows = Rechunk.rechunk(array, Chunks.of(rowBlocks));
        long[] flatLengths = rows.chunks().axis(0).clone();
        for (int block = 0; block < flatLengths.length; block++) {
            flatLengths[block] *= rowLength;
        }
        String letters = CreationLayer.AXIS_LETTERS.substring(0, array.ndim());
        return Blockwise.of("flatten", new Ravel(), "a").input(rows, letters).concatenate(true)
                .adjustChunks('a', flatLengths).meta(Metas.metaFromArray(array, 1, array.dtype())).working(Working.none()).build();
    }

    /** A block as 1-D. */
    record Ravel() implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return Blocks.reshape(arguments.getFirst(), -1);
        }
    }
}

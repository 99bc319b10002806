package org.tessera.array.blockwise;

import org.tessera.graph.Deferring;

/**
 * A task function whose first argument is a list of blocks, any of which it takes deferred and
 * asks only for the boxes it needs (a gather of points, the ghost cells of an enlarged block, a
 * join of pieces); no other argument is taken deferred.
 */
public interface ReadsDeferredBlocks extends Deferring {

    @Override
    default boolean acceptsDeferred(int position) {
        return false;
    }

    @Override
    default boolean acceptsDeferredItems(int position) {
        return position == 0;
    }
}

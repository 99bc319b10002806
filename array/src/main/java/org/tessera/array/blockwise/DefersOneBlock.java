package org.tessera.array.blockwise;

import java.util.List;

import org.tessera.graph.Deferring;
import org.tessera.graph.TaskFunction;

/**
 * A task function of one block, its first argument, that given the block deferred returns a
 * deferred block of its own (a box of it, the picks of some of its rows), which computes nothing
 * until a part is asked: the call defers cheaply, and the optimiser may copy it into readers that
 * take it deferred. Given a computed block, it applies itself as it is.
 */
public interface DefersOneBlock extends TaskFunction, Deferring {

    /** The deferred result over {@code block}. */
    DeferredBlock deferred(DeferredBlock block);

    @Override
    default boolean acceptsDeferred(int position) {
        return position == 0;
    }

    @Override
    default Object applyDeferring(List<Object> arguments) throws Exception {
        return arguments.getFirst() instanceof DeferredBlock block ? deferred(block) : apply(arguments);
    }

    @Override
    default boolean defersCheaply() {
        return true;
    }
}

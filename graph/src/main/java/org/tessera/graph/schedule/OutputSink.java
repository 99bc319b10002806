package org.tessera.graph.schedule;

import org.tessera.graph.Key;

/**
 * Takes a computation's outputs as their tasks finish, so that a scheduler need not hold every
 * output until the last one is done: {@code compute()} copies each block of an array into the
 * array it assembles, and the block can go as soon as no other task reads it. A scheduler may call
 * it from several worker threads at once, in any order of the outputs.
 */
@FunctionalInterface
public interface OutputSink {
    /**
     * Takes the value of {@code output}. Returns whether the scheduler must still return it:
     * false when the sink kept what it needs (a copy), so the scheduler may drop it; true when the
     * sink did not take it, or keeps the value itself, which the scheduler must then leave alone
     * (not hand its memory to the next task). An exception fails the output's task.
     */
    boolean take(Key output, Object value);

    /**
     * The bytes the sink holds for the outputs it takes (results it allocated before the
     * computation started), which a scheduler counts as held by the computation throughout.
     */
    default long heldBytes() {
        return 0;
    }
}

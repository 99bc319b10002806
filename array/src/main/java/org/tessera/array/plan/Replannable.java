package org.tessera.array.plan;

import java.io.Serial;
import java.io.Serializable;

import org.tessera.array.ChunkedArray;
import org.tessera.graph.memory.Footprint;

/**
 * The footprint of an array's layer that its operation can build again with smaller tasks: a
 * rechunk, whose planner takes a task memory limit. A plan that does not fit its budget asks
 * {@link #rebuild} for the same values within a limit that does ({@link Replanning}).
 *
 * <p>The rebuild holds the arrays it starts from, which are not serializable; a footprint that
 * travels (with a graph, to another process) arrives without it, as a plain footprint.
 */
public final class Replannable implements Footprint.Delegating {
    @Serial
    private static final long serialVersionUID = 1L;

    private final Footprint footprint;
    private final transient Rebuild rebuild;

    /**
     * @param footprint the layer's own footprint
     * @param rebuild   the same array, its tasks holding at most the given bytes
     */
    public Replannable(Footprint footprint, Rebuild rebuild) {
        this.footprint = footprint;
        this.rebuild = rebuild;
    }

    public Footprint footprint() {
        return footprint;
    }

    /** The rebuild, or null in a copy that travelled. */
    public Rebuild rebuild() {
        return rebuild;
    }

    /** Builds the array again with tasks of at most {@code taskBytes}. */
    @FunctionalInterface
    public interface Rebuild extends Serializable {
        ChunkedArray within(long taskBytes);
    }

    @Override
    public Footprint delegate() {
        return footprint;
    }

    @Override
    public String toString() {
        return "Replannable[" + footprint + "]";
    }
}

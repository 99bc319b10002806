package org.tessera.array.chunks;

/**
 * An operation needs block lengths that are not known yet (after a boolean mask, for instance).
 * The message says which axis, and that {@code computeChunkSizes()} makes them known.
 */
public class UnknownChunksException extends IllegalStateException {
    public UnknownChunksException(String message) {
        super(message + "; the chunk sizes are unknown until computed: call computeChunkSizes() first");
    }
}

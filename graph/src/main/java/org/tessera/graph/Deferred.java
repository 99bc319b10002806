package org.tessera.graph;

/**
 * A value described but not yet computed: what a {@link Deferring} function returns to a reader that
 * can take it, such as a block whose producer computes any part of it on request. A deferred value
 * lives only inside one task's function: fusion forces it before it reaches a function that does not
 * take it, and before a task returns.
 */
public interface Deferred {

    /** The value itself, computed whole. */
    Object force() throws Exception;

    /** The value, computed when it is deferred. */
    static Object force(Object value) throws Exception {
        return value instanceof Deferred deferred ? deferred.force() : value;
    }
}

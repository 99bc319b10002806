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

    /**
     * Makes the value whole now, in the running task's memory, because several readers in this task
     * will ask parts of it (a stored block that both {@code y} and {@code y.T} read): each part then
     * comes from the whole, which is made once. Values whose parts cost no more than their share of
     * the whole (a generated block) leave this as it is: nothing.
     */
    default void keepWhole() throws Exception {
    }

    /** The value, computed when it is deferred. */
    static Object force(Object value) throws Exception {
        return value instanceof Deferred deferred ? deferred.force() : value;
    }
}

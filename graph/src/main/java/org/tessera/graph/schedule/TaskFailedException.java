package org.tessera.graph.schedule;

import org.tessera.graph.Key;

/** A task threw: names its key and function, and keeps what the task threw as the cause. */
public class TaskFailedException extends RuntimeException {
    private final transient Key key;

    public TaskFailedException(Key key, String label, Throwable cause) {
        super("task " + key + " (" + label + ") failed: " + cause, cause);
        this.key = key;
    }

    /** The key whose task failed. */
    public Key key() {
        return key;
    }
}

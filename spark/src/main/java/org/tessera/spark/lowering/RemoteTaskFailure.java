package org.tessera.spark.lowering;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serial;

import org.tessera.graph.Key;

/**
 * A task failed on an executor. It carries the Tessera key through Spark's failure report to the
 * driver, which turns it back into a {@link org.tessera.graph.schedule.TaskFailedException}; a cause
 * that cannot be serialized travels as its class name, message and stack trace.
 */
public final class RemoteTaskFailure extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final Key key;
    private final String label;

    RemoteTaskFailure(Key key, String label, Throwable cause) {
        super("task " + key + " (" + label + ") failed: " + cause, serializable(cause));
        this.key = key;
        this.label = label;
    }

    public Key key() {
        return key;
    }

    public String label() {
        return label;
    }

    private static Throwable serializable(Throwable cause) {
        try (ObjectOutputStream probe = new ObjectOutputStream(new ByteArrayOutputStream())) {
            probe.writeObject(cause);
            return cause;
        } catch (IOException notSerializable) {
            RuntimeException copy = new RuntimeException(cause.getClass().getName() + ": " + cause.getMessage());
            copy.setStackTrace(cause.getStackTrace());
            return copy;
        }
    }
}

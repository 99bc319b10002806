package org.tessera.spark.events;

import java.io.Serial;

/**
 * Why the Spark task that computed a key failed or was cancelled, reported to
 * {@link org.tessera.graph.schedule.Callback#afterTask}: the key's own task may not have thrown (it
 * shared its Spark task with one that did, or the job was cancelled), so this carries Spark's report
 * and, when Spark has it, the exception thrown on the executor as the cause.
 */
public final class SparkTaskFailure extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    SparkTaskFailure(String message, Throwable cause) {
        super(message, cause);
    }
}

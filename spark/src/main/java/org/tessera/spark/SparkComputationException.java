package org.tessera.spark;

/**
 * A Spark job of a computation failed for a reason other than a task's own exception (executors
 * lost more often than Spark retries, a cancelled job): names the computation and keeps Spark's
 * exception as the cause. A task's own failure is a {@link org.tessera.graph.schedule.TaskFailedException}.
 */
public class SparkComputationException extends RuntimeException {

    public SparkComputationException(String message, Throwable cause) {
        super(message, cause);
    }
}

package org.tessera.spark.events;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.status.api.v1.ExecutorSummary;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.memory.MemoryBudget;
import org.tessera.graph.schedule.Callback;
import org.tessera.spark.lowering.StageLowering;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The {@link Callback} events of one computation on Spark, from {@link #open} (before its Spark
 * job) to {@link #finish} (after it). The workers are the core slots of the executors, named
 * "executor ID slot N"; the list given to {@link Callback#configured} holds the executors known
 * then and grows as executors join (a callback that copies it may meet unnamed workers). Task
 * events arrive on Spark's listener bus thread, a little after the fact;
 * {@link Callback#resultsHeld} and {@link Callback#spilled} are not reported, Spark's block manager
 * holding the results.
 */
public final class TaskEvents {
    /** The local property that marks the Spark jobs of one computation, so that its listener ignores those of others. */
    static final String RUN_PROPERTY = "tessera.events.run";

    /** How long {@link #finish} waits for Spark to deliver the job's events; what did not arrive counts as unfinished. */
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);

    /**
     * How long {@link #finish} waits for tasks still running after a failed job: Spark kills them
     * but does not interrupt them, so each ends when its current Tessera task does.
     */
    private static final Duration KILLED_TASKS_TIMEOUT = Duration.ofSeconds(10);

    private static final AtomicLong RUNS = new AtomicLong();

    private final JavaSparkContext context;
    private final TaskEventListener listener;
    private final String previousRun;

    private TaskEvents(JavaSparkContext context, TaskEventListener listener, String previousRun) {
        this.context = context;
        this.listener = listener;
        this.previousRun = previousRun;
    }

    /**
     * Reports {@link Callback#configured} and {@link Callback#start} (with the plan's tasks), then
     * listens to the Spark jobs that the calling thread starts until {@link #finish}. With no
     * callbacks it does nothing.
     *
     * @param job the RDD whose action runs the computation
     */
    public static TaskEvents open(JavaSparkContext context, List<Callback> callbacks, StageLowering lowering, RDD<?> job) {
        if (callbacks.isEmpty()) {
            return new TaskEvents(context, null, null);
        }
        WorkerSlots slots = knownSlots(context);
        TaskGraph scheduled = TaskGraph.of(lowering.plan().tasks());
        callbacks.forEach(callback -> callback.configured(slots.names(), MemoryBudget.unlimited()));
        callbacks.forEach(callback -> callback.start(scheduled));
        String run = context.sc().applicationId() + "/" + RUNS.incrementAndGet();
        TaskEventListener listener = new TaskEventListener(run, TaskKeys.of(job, lowering.computedStages()), slots, List.copyOf(callbacks));
        context.sc().addSparkListener(listener);
        String previousRun = context.getLocalProperty(RUN_PROPERTY);
        context.setLocalProperty(RUN_PROPERTY, run);
        return new TaskEvents(context, listener, previousRun);
    }

    /**
     * After the job returned or failed, on the thread that opened this: waits for the events of its
     * tasks, reports those not seen ending as failed, then {@link Callback#finish}.
     */
    public void finish(boolean succeeded) {
        if (listener == null) {
            return;
        }
        try {
            // The action returns once Spark posted its last task's end, not once listeners saw it.
            // No public call waits for delivery; the listener bus is Spark-internal, though visible to Java.
            context.sc().listenerBus().waitUntilEmpty(DELIVERY_TIMEOUT.toMillis());
            listener.awaitRunningTasks(KILLED_TASKS_TIMEOUT);
        } catch (TimeoutException undelivered) {
            // What has not arrived is reported as unfinished.
        } catch (InterruptedException interrupt) {
            Thread.currentThread().interrupt();
        } finally {
            context.setLocalProperty(RUN_PROPERTY, previousRun);
            context.sc().removeSparkListener(listener);
            listener.close(succeeded);
        }
    }

    /**
     * The core slots of the executors that run tasks now, the driver first in local mode. Spark's
     * public status tracker does not tell an executor's cores; the status store behind its UI does.
     */
    private static WorkerSlots knownSlots(JavaSparkContext context) {
        WorkerSlots slots = new WorkerSlots(context.sc().conf().getInt("spark.task.cpus", 1));
        CollectionConverters.asJava(context.sc().statusStore().executorList(true)).stream()
                // The driver of a cluster has no cores for tasks; in local mode it is the executor.
                .filter(executor -> executor.totalCores() > 0)
                .sorted(Comparator.comparing(ExecutorSummary::id, Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder())))
                .forEach(executor -> slots.addExecutor(executor.id(), executor.totalCores()));
        if (slots.names().isEmpty() && context.sc().isLocal()) {
            // A context just made may not have posted its driver's executor to the status store yet;
            // in local mode that executor is the driver, with the master's threads as its cores.
            slots.addExecutor("driver", context.sc().defaultParallelism());
        }
        return slots;
    }
}

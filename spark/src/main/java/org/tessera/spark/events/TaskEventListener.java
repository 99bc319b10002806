package org.tessera.spark.events;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.spark.ExceptionFailure;
import org.apache.spark.TaskEndReason;
import org.apache.spark.TaskFailedReason;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.scheduler.TaskInfo;
import org.apache.spark.storage.RDDInfo;
import org.tessera.graph.Key;
import org.tessera.graph.schedule.Callback;
import org.tessera.spark.lowering.RemoteTaskFailure;

import scala.jdk.javaapi.CollectionConverters;

/**
 * Turns the Spark task events of one computation's jobs into Tessera task events. Spark calls it
 * on its listener bus thread, the computation's thread closes it: both under this object's lock,
 * which also keeps the callbacks from running concurrently.
 *
 * <p>Spark may report a task's start before the end of the task whose core it took (the ends pass
 * through a pool of result threads). A task that finds every slot of its executor taken therefore
 * waits for the next end on that executor, its events shifted by as little, so that a worker never
 * runs two tasks at once.
 */
final class TaskEventListener extends SparkListener {
    private final String run;
    private final TaskKeys taskKeys;
    private final WorkerSlots slots;
    private final List<Callback> callbacks;

    /** The RDD whose partitions the tasks of each Spark stage of the computation compute, by stage id. */
    private final Map<Integer, Integer> stageRoots = new HashMap<>();
    /** Attempts seen starting and not yet ending, by Spark task id. */
    private final Map<Long, Attempt> running = new HashMap<>();
    private final Map<String, Deque<Attempt>> waiting = new HashMap<>();
    private final Set<Key> begun = new HashSet<>();
    private final Set<Long> succeededTasks = new HashSet<>();
    private boolean closed;

    /** A Spark task attempt, with the keys it reports: those no attempt began before it. */
    private static final class Attempt {
        final long sparkTask;
        final String executor;
        final List<Key> keys;
        WorkerSlots.Slot slot;
        /** Set when it ended while still waiting for a slot. */
        boolean ended;
        Failure failure;

        Attempt(long sparkTask, String executor, List<Key> keys) {
            this.sparkTask = sparkTask;
            this.executor = executor;
            this.keys = keys;
        }
    }

    /** @param run the value of {@link TaskEvents#RUN_PROPERTY} that marks the computation's jobs */
    TaskEventListener(String run, TaskKeys taskKeys, WorkerSlots slots, List<Callback> callbacks) {
        this.run = run;
        this.taskKeys = taskKeys;
        this.slots = slots;
        this.callbacks = callbacks;
    }

    @Override
    public synchronized void onExecutorAdded(SparkListenerExecutorAdded added) {
        if (!closed) {
            slots.addExecutor(added.executorId(), added.executorInfo().totalCores());
        }
    }

    @Override
    public synchronized void onJobStart(SparkListenerJobStart job) {
        Properties properties = job.properties();
        if (closed || properties == null || !run.equals(properties.getProperty(TaskEvents.RUN_PROPERTY))) {
            return;
        }
        for (StageInfo stage : CollectionConverters.asJava(job.stageInfos())) {
            stageRoots.put(stage.stageId(), root(stage));
        }
    }

    @Override
    public synchronized void onTaskStart(SparkListenerTaskStart start) {
        Integer root = stageRoots.get(start.stageId());
        if (closed || root == null) {
            return;
        }
        TaskInfo info = start.taskInfo();
        List<Key> keys = new ArrayList<>();
        for (Key key : taskKeys.computedBy(root, info.partitionId())) {
            if (begun.add(key)) {
                keys.add(key);
            }
        }
        Attempt attempt = new Attempt(sparkTask(start.stageId(), info.partitionId()), info.executorId(), keys);
        running.put(info.taskId(), attempt);
        WorkerSlots.Slot slot = slots.take(attempt.executor);
        if (slot == null) {
            waiting.computeIfAbsent(attempt.executor, unused -> new ArrayDeque<>()).add(attempt);
        } else {
            begin(attempt, slot);
        }
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
        // Unknown ids include Spark's second report of a task whose output a lost executor held.
        Attempt attempt = running.remove(end.taskInfo().taskId());
        if (closed || attempt == null) {
            return;
        }
        if (end.taskInfo().successful()) {
            succeededTasks.add(attempt.sparkTask);
        }
        // A speculative copy that finished first computed the same keys: the loser's kill is no failure.
        Failure failure = succeededTasks.contains(attempt.sparkTask) ? null : Failure.of(end);
        if (attempt.slot == null) {
            attempt.ended = true;
            attempt.failure = failure;
        } else {
            end(attempt, failure);
            serveWaiting(attempt.executor);
        }
        notifyAll();
    }

    /** Waits until every Spark task attempt seen starting has been seen ending, or {@code timeout} passed. */
    synchronized void awaitRunningTasks(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (long left = timeout.toNanos(); !running.isEmpty() && left > 0; left = deadline - System.nanoTime()) {
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    /**
     * Ends the computation's events: attempts whose end was not seen end as failed, then
     * {@link Callback#finish}. Events after this are ignored.
     */
    synchronized void close(boolean succeeded) {
        if (closed) {
            return;
        }
        closed = true;
        Failure unfinished = new Failure(null, new SparkTaskFailure("the Spark task computing it had not reported its end when the job ended", null));
        for (Attempt attempt : running.values()) {
            if (attempt.slot == null) {
                attempt.ended = true;
                attempt.failure = unfinished;
            } else {
                end(attempt, unfinished);
            }
        }
        running.clear();
        waiting.keySet().forEach(this::serveWaiting);
        callbacks.forEach(callback -> callback.finish(succeeded));
    }

    private void begin(Attempt attempt, WorkerSlots.Slot slot) {
        attempt.slot = slot;
        for (Key key : attempt.keys) {
            callbacks.forEach(callback -> callback.beforeTask(key, slot.worker()));
        }
    }

    private void end(Attempt attempt, Failure failure) {
        for (Key key : attempt.keys) {
            Throwable thrown = failure == null ? null : failure.forKey(key);
            callbacks.forEach(callback -> callback.afterTask(key, attempt.slot.worker(), thrown));
        }
        slots.free(attempt.slot);
    }

    /** Gives free slots to the attempts waiting on {@code executor}, replaying the ends of those that ended meanwhile. */
    private void serveWaiting(String executor) {
        Deque<Attempt> queue = waiting.getOrDefault(executor, new ArrayDeque<>());
        WorkerSlots.Slot slot;
        while (!queue.isEmpty() && (slot = slots.take(executor)) != null) {
            Attempt attempt = queue.poll();
            begin(attempt, slot);
            if (attempt.ended) {
                end(attempt, attempt.failure);
            }
        }
    }

    /** The RDD a Spark stage runs its tasks on: among the stage's RDDs, the one no other depends on. */
    private static int root(StageInfo stage) {
        List<RDDInfo> rdds = CollectionConverters.asJava(stage.rddInfos());
        Set<Object> parents = new HashSet<>();
        rdds.forEach(rdd -> parents.addAll(CollectionConverters.asJava(rdd.parentIds())));
        return rdds.stream().map(RDDInfo::id).filter(id -> !parents.contains(id)).findFirst()
                .orElseThrow(() -> new IllegalStateException("Spark stage " + stage.stageId() + " has no last RDD"));
    }

    private static long sparkTask(int stageId, int partition) {
        return (long) stageId << 32 | partition;
    }

    /** A failed Spark task attempt: its own exception goes to the key that threw it, Spark's report to the others. */
    private record Failure(RemoteTaskFailure remote, SparkTaskFailure report) {

        static Failure of(SparkListenerTaskEnd end) {
            TaskEndReason reason = end.reason();
            Throwable thrown = reason instanceof ExceptionFailure exception && exception.exception().isDefined() ? exception.exception().get() : null;
            String why = switch (reason) {
                case ExceptionFailure exception -> exception.className() + ": " + exception.description();
                case TaskFailedReason failed -> failed.toErrorString();
                default -> String.valueOf(reason);
            };
            TaskInfo info = end.taskInfo();
            SparkTaskFailure report = new SparkTaskFailure("Spark task for partition " + info.partitionId() + " of stage " + end.stageId()
                    + " (attempt " + info.attemptNumber() + ", executor " + info.executorId() + ") failed: " + why, thrown);
            return new Failure(remoteFailure(thrown), report);
        }

        Throwable forKey(Key key) {
            return remote != null && remote.key().equals(key) ? remote.getCause() : report;
        }

        private static RemoteTaskFailure remoteFailure(Throwable thrown) {
            for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
                if (cause instanceof RemoteTaskFailure remote) {
                    return remote;
                }
            }
            return null;
        }
    }
}

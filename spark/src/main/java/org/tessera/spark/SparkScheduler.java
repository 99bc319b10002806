package org.tessera.spark;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.tessera.graph.GraphException;
import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.schedule.Callback;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.graph.schedule.TaskFailedException;
import org.tessera.spark.events.TaskEvents;
import org.tessera.spark.lowering.RemoteTaskFailure;
import org.tessera.spark.lowering.StageLowering;
import org.tessera.spark.lowering.StoredDataset;
import org.tessera.spark.plan.StagePlan;
import org.tessera.spark.plan.StagePlanner;
import org.tessera.spark.plan.StoredBlock;
import org.tessera.spark.plan.StoredBlocks;
import org.tessera.spark.plan.StoredPlacement;
import org.tessera.spark.serialization.EncodedBlock;

/**
 * Runs task graphs on Apache Spark: {@code x.compute(SparkScheduler.of(spark))}. Spark provides
 * the machines, the placement of work, retries and recovery from lost executors; this class only
 * translates the graph (see the package documentation for how).
 *
 * <p>Only the requested keys come back to the driver. {@link #persist} keeps results in Spark
 * storage instead and returns {@link StoredBlock} handles, which later graphs may hold as literals:
 * their blocks are then read on the executors where they lie.
 *
 * <p>{@link #withCallback Callbacks} get the Tessera task events, as on the threaded scheduler:
 * each task starts and ends with the Spark task that computes it, on a worker that is a core slot
 * of an executor (see {@link TaskEvents}).
 */
public final class SparkScheduler implements Scheduler {
    /**
     * Partitions of a stage per core of the application, unless set: a few Spark tasks per core
     * balance the load, while one Spark task per block would pay Spark's per-task cost (tens of
     * milliseconds) a hundred thousand times for a graph of many small blocks.
     */
    public static final int PARTITIONS_PER_CORE = 2;

    /** Data sets kept by {@link #persist}, by application and RDD id; shared by the schedulers of one JVM. */
    private static final Map<String, StoredDataset> STORED = new ConcurrentHashMap<>();

    private final JavaSparkContext context;
    private final int maxPartitions;
    private final List<Callback> callbacks;

    private SparkScheduler(JavaSparkContext context, int maxPartitions, List<Callback> callbacks) {
        this.context = Objects.requireNonNull(context, "a Spark scheduler needs a Spark context");
        if (maxPartitions < 1) {
            throw new IllegalArgumentException("maxPartitions must be at least 1, got " + maxPartitions);
        }
        this.maxPartitions = maxPartitions;
        this.callbacks = List.copyOf(callbacks);
    }

    /** A scheduler on the Spark application of {@code session}. */
    public static SparkScheduler of(SparkSession session) {
        return of(JavaSparkContext.fromSparkContext(session.sparkContext()));
    }

    /** A scheduler with {@link #PARTITIONS_PER_CORE} partitions per core of the application's default parallelism. */
    public static SparkScheduler of(JavaSparkContext context) {
        return new SparkScheduler(context, Math.max(1, PARTITIONS_PER_CORE * context.defaultParallelism()), List.of());
    }

    /**
     * The same scheduler with at most {@code partitions} partitions (Spark tasks) per stage. More
     * partitions spread the work finer and hold fewer blocks per Spark task; fewer pay Spark's
     * per-task cost less often.
     */
    public SparkScheduler withMaxPartitions(int partitions) {
        return new SparkScheduler(context, partitions, callbacks);
    }

    /**
     * The same scheduler, also reporting to {@code callback} the computations of {@link #compute}
     * and {@link #persist}. Events come on the driver, from Spark's listener bus thread: a task's
     * {@code beforeTask} when the first Spark task attempt computing it starts, its
     * {@code afterTask} when that attempt ends (failed if the attempt did, though a retry may then
     * succeed), {@code finish} once the job ended and its tasks' events arrived. The worker list
     * of {@code configured} may grow during the computation, as executors join.
     */
    public SparkScheduler withCallback(Callback callback) {
        List<Callback> more = new ArrayList<>(callbacks);
        more.add(Objects.requireNonNull(callback, "callback"));
        return new SparkScheduler(context, maxPartitions, more);
    }

    public JavaSparkContext context() {
        return context;
    }

    public int maxPartitions() {
        return maxPartitions;
    }

    /**
     * Computes {@code outputs} on the cluster and brings their values, and only theirs, to the
     * driver.
     *
     * @throws TaskFailedException naming the key of a task that failed on every attempt Spark made
     *         ({@code spark.task.maxFailures}), with the task's exception as the cause
     */
    @Override
    public Map<Key, Object> compute(TaskGraph graph, Collection<Key> outputs) {
        Set<Key> wanted = new LinkedHashSet<>(outputs);
        if (wanted.isEmpty()) {
            return Map.of();
        }
        StageLowering lowering = lower(graph, wanted);
        try {
            JavaRDD<EncodedBlock> requested = lowering.outputs();
            List<EncodedBlock> blocks = run("compute " + describe(wanted), lowering, requested, requested::collect);
            Map<Key, Object> decoded = new HashMap<>();
            blocks.forEach(block -> decoded.put(block.key(), block.decode()));
            Map<Key, Object> results = new LinkedHashMap<>();
            for (Key key : wanted) {
                if (!decoded.containsKey(key)) {
                    throw new IllegalStateException("Spark returned no block for requested key " + key);
                }
                results.put(key, decoded.get(key));
            }
            return results;
        } finally {
            lowering.release();
        }
    }

    /**
     * Computes {@code outputs} and keeps their blocks in Spark storage (memory, spilling to the
     * executors' disks), as Dask's {@code persist} on a cluster: nothing but handles comes back.
     * The blocks stay until {@link PersistedBlocks#unpersist()} (or {@link #unpersistAll()});
     * should an executor holding some be lost, Spark computes them again from the graph.
     */
    public PersistedBlocks persist(TaskGraph graph, Collection<Key> outputs) {
        Set<Key> wanted = new LinkedHashSet<>(outputs);
        if (wanted.isEmpty()) {
            throw new IllegalArgumentException("persist needs at least one key");
        }
        StageLowering lowering = lower(graph, wanted);
        try {
            JavaRDD<EncodedBlock> kept = lowering.outputs();
            kept.setName("tessera persisted " + describe(wanted));
            kept.persist(StorageLevel.MEMORY_AND_DISK());
            try {
                run("persist " + describe(wanted), lowering, kept, kept::count);
            } catch (RuntimeException failure) {
                kept.unpersist(false);
                throw failure;
            }
            StoredDataset dataset = new StoredDataset(kept, lowering.outputPartitions(), lowering.outputPartitionCount());
            STORED.put(storageName(dataset.id()), dataset);
            Map<Key, StoredBlock> handles = new LinkedHashMap<>();
            for (Key key : wanted) {
                handles.put(key, new StoredBlock(applicationId(), dataset.id(), key));
            }
            return new PersistedBlocks(this, dataset.id(), handles);
        } finally {
            lowering.release();
        }
    }

    /**
     * This scheduler as one whose {@code compute} persists: it returns a {@link StoredBlock} per
     * key instead of its value. So {@code x.persist(spark.persisting())} gives an array whose blocks
     * stay in Spark storage, and whose later computations on this scheduler read them there.
     */
    public Scheduler persisting() {
        return (graph, outputs) -> new LinkedHashMap<>(persist(graph, outputs).blocks());
    }

    /** Removes a persisted data set from Spark storage; graphs that still read it then fail, naming the block. */
    public void unpersist(int datasetId) {
        StoredDataset dataset = STORED.remove(storageName(datasetId));
        if (dataset != null) {
            dataset.data().unpersist(false);
        }
    }

    /** Removes every data set this application persisted through Tessera. */
    public void unpersistAll() {
        String prefix = applicationId() + "/";
        for (String name : List.copyOf(STORED.keySet())) {
            if (name.startsWith(prefix)) {
                StoredDataset dataset = STORED.remove(name);
                if (dataset != null) {
                    dataset.data().unpersist(false);
                }
            }
        }
    }

    private StageLowering lower(TaskGraph graph, Set<Key> outputs) {
        StoredBlocks extracted = StoredBlocks.extract(graph);
        Map<Key, StoredPlacement> placements = new HashMap<>();
        extracted.stored().forEach((key, block) -> placements.put(key, placement(block)));
        StagePlan plan = StagePlanner.plan(extracted.graph(), outputs, placements, maxPartitions);
        return StageLowering.lower(context, plan, datasetId -> STORED.get(storageName(datasetId)));
    }

    private StoredPlacement placement(StoredBlock block) {
        StoredDataset dataset = block.applicationId().equals(applicationId()) ? STORED.get(storageName(block.datasetId())) : null;
        Integer partition = dataset == null ? null : dataset.partitions().get(block.key());
        if (partition == null) {
            throw new GraphException("block " + block.key() + " was persisted in Spark dataset " + block.datasetId() + " of application "
                    + block.applicationId() + ", which this scheduler (application " + applicationId()
                    + ") does not hold: it was unpersisted, or belongs to another Spark application", List.of(block.key()));
        }
        return new StoredPlacement(block.datasetId(), dataset.partitionCount(), partition);
    }

    /**
     * Runs the Spark job of {@code action} on {@code job}, turning the failure of a Tessera task into
     * the exception that names its key.
     */
    private <T> T run(String description, StageLowering lowering, JavaRDD<?> job, Supplier<T> action) {
        TaskEvents events = TaskEvents.open(context, callbacks, lowering, job.rdd());
        context.setJobDescription("tessera: " + description);
        boolean succeeded = false;
        try {
            T result = action.get();
            succeeded = true;
            return result;
        } catch (Exception failure) {
            // Spark's SparkException is checked in Java's eyes, though no signature declares it.
            for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
                if (cause instanceof RemoteTaskFailure remote) {
                    TaskFailedException named = new TaskFailedException(remote.key(), remote.label(), remote.getCause());
                    named.addSuppressed(failure);
                    throw named;
                }
            }
            if (failure instanceof GraphException graphFailure) {
                throw graphFailure;
            }
            throw new SparkComputationException("Spark job 'tessera: " + description + "' failed: " + failure.getMessage(), failure);
        } finally {
            events.finish(succeeded);
            context.setJobDescription(null);
        }
    }

    private String applicationId() {
        return context.sc().applicationId();
    }

    private String storageName(int datasetId) {
        return applicationId() + "/" + datasetId;
    }

    private static String describe(Set<Key> keys) {
        return keys.size() == 1 ? keys.iterator().next().toString() : keys.size() + " keys (" + keys.iterator().next() + ", ...)";
    }
}

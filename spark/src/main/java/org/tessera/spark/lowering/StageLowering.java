package org.tessera.spark.lowering;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.tessera.graph.Key;
import org.tessera.spark.plan.Route;
import org.tessera.spark.plan.Stage;
import org.tessera.spark.plan.StagePlan;
import org.tessera.spark.serialization.ArraySerialization;
import org.tessera.spark.serialization.EncodedBlock;

/**
 * Turns a {@link StagePlan} into RDDs of {@link EncodedBlock}s, one per stage, with partition i of
 * every stage holding the blocks the plan placed in partition i. Nothing runs until an action
 * (collect, count) is called on {@link #outputs()}; Spark then pipelines the narrow steps (an
 * elementwise chain runs as one Spark stage) and shuffles only the blocks the routes move.
 *
 * <p>A stage's RDD is built as: its tasks, one serialized list per partition (a parallelized
 * collection of exactly one element per partition), zipped with its inputs, where each route into
 * the stage gives a filter of the producer (blocks read in place) and a shuffle of the producer's
 * moved blocks to their target partitions. A stage read more than once is persisted (memory, then
 * disk) until {@link #release()}.
 */
public final class StageLowering {
    private final JavaSparkContext context;
    private final StagePlan plan;
    private final Map<Integer, JavaRDD<EncodedBlock>> data = new HashMap<>();
    private final List<JavaRDD<EncodedBlock>> persisted = new ArrayList<>();

    private StageLowering(JavaSparkContext context, StagePlan plan) {
        this.context = context;
        this.plan = plan;
    }

    /**
     * The RDDs of every stage of {@code plan}.
     *
     * @param storedDatasets the cached data set of each stored stage's dataset id
     */
    public static StageLowering lower(JavaSparkContext context, StagePlan plan, IntFunction<StoredDataset> storedDatasets) {
        StageLowering lowering = new StageLowering(context, plan);
        for (Stage stage : plan.stages()) {
            JavaRDD<EncodedBlock> stageData = stage.isStored() ? storedDatasets.apply(stage.storedDataset()).data() : lowering.computed(stage);
            lowering.data.put(stage.id(), stageData);
        }
        return lowering;
    }

    private JavaRDD<EncodedBlock> computed(Stage stage) {
        int partitionCount = stage.partitionCount();
        List<List<PlannedTask>> work = new ArrayList<>(partitionCount);
        for (int partition = 0; partition < partitionCount; partition++) {
            work.add(new ArrayList<>());
        }
        stage.partitions().forEach((key, partition) -> work.get(partition).add(new PlannedTask(key, plan.tasks().get(key))));
        List<byte[]> slices = new ArrayList<>(partitionCount);
        work.forEach(tasks -> slices.add(ArraySerialization.serialize(tasks)));
        // As many elements as slices: each partition gets exactly its own list.
        JavaRDD<byte[]> taskLists = context.parallelize(slices, partitionCount);

        JavaRDD<EncodedBlock> inputs = null;
        for (Route route : plan.routesInto(stage.id())) {
            JavaRDD<EncodedBlock> producer = data.get(route.producer());
            if (route.hasLocalKeys()) {
                inputs = concatenate(inputs, producer.filter(new KeyFilter(route.localKeys())));
            }
            if (route.hasMoves()) {
                JavaRDD<EncodedBlock> moved = producer.flatMapToPair(BlockMoves.of(route.moves()))
                        .partitionBy(new TargetPartitioner(partitionCount)).values();
                inputs = concatenate(inputs, moved);
            }
        }
        EvaluatePartition evaluate = new EvaluatePartition(stage.layer());
        JavaRDD<EncodedBlock> results = inputs == null ? taskLists.mapPartitions(evaluate) : taskLists.zipPartitions(inputs, evaluate);
        results.setName("tessera " + stage.layer() + " (" + stage.partitions().size() + " blocks)");
        if (plan.readCount(stage) > 1) {
            results.persist(StorageLevel.MEMORY_AND_DISK());
            persisted.add(results);
        }
        return results;
    }

    private static JavaRDD<EncodedBlock> concatenate(JavaRDD<EncodedBlock> first, JavaRDD<EncodedBlock> second) {
        return first == null ? second : first.zipPartitions(second, new ConcatenatePartitions());
    }

    public StagePlan plan() {
        return plan;
    }

    /** The RDDs of the stages that compute blocks, by RDD id; stored stages only read earlier results. */
    public Map<Integer, Stage> computedStages() {
        Map<Integer, Stage> computed = new HashMap<>();
        for (Stage stage : plan.stages()) {
            if (!stage.isStored()) {
                computed.put(data.get(stage.id()).id(), stage);
            }
        }
        return computed;
    }

    /** The blocks of the requested keys, in one RDD. */
    public JavaRDD<EncodedBlock> outputs() {
        List<JavaRDD<EncodedBlock>> parts = new ArrayList<>();
        for (Stage stage : plan.stages()) {
            Set<Key> held = plan.outputsOf(stage);
            if (!held.isEmpty()) {
                parts.add(data.get(stage.id()).filter(new KeyFilter(held)));
            }
        }
        if (parts.size() == 1) {
            return parts.getFirst();
        }
        @SuppressWarnings("unchecked")
        JavaRDD<EncodedBlock>[] array = parts.toArray(JavaRDD[]::new);
        return context.union(array);
    }

    /**
     * Where each output sits in {@link #outputs()}: a union lays the stages' partitions end to end.
     */
    public Map<Key, Integer> outputPartitions() {
        Map<Key, Integer> partitions = new LinkedHashMap<>();
        int offset = 0;
        for (Stage stage : plan.stages()) {
            Set<Key> held = plan.outputsOf(stage);
            if (!held.isEmpty()) {
                for (Key key : held) {
                    partitions.put(key, offset + stage.partition(key));
                }
                offset += stage.partitionCount();
            }
        }
        return partitions;
    }

    /** Partitions of {@link #outputs()}. */
    public int outputPartitionCount() {
        int count = 0;
        for (Stage stage : plan.stages()) {
            if (!plan.outputsOf(stage).isEmpty()) {
                count += stage.partitionCount();
            }
        }
        return count;
    }

    /** Removes the intermediate stages from Spark storage. */
    public void release() {
        persisted.forEach(rdd -> rdd.unpersist(false));
        persisted.clear();
    }
}

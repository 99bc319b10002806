package org.tessera.bench.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.layer.BlockwiseArgument;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.graph.optimize.Optimization;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * W5: {@code (x + 1).sum()} for x = ones(1,000,000) in chunks of 10, so 100,000 blocks: a test of
 * per-task overhead. Until the chunked array lands, the graph is built by hand as the array would
 * build it: a blockwise ones layer, a blockwise add, a blockwise per-block sum, and a tree sum of
 * fan-in 32; then the default optimisation and the threaded scheduler.
 */
final class BlockSumWorkload implements Workload {
    static final long LENGTH = 1_000_000;
    static final int CHUNK = 10;
    static final int SPLIT_EVERY = 32;

    static final TaskFunction ONES = TaskFunction.unary("ones", (int[] index) -> NDArrays.ones(DType.FLOAT64, CHUNK));
    static final TaskFunction ADD_ONE = TaskFunction.unary("add", (NDArray block) -> Ufuncs.ADD.apply(block, 1.0));
    static final TaskFunction BLOCK_SUM = TaskFunction.unary("sum-chunk", (NDArray block) -> NDArrays.sum(block).getDouble());
    static final TaskFunction COMBINE = TaskFunction.unary("sum-combine", (List<Double> partials) -> {
        double total = 0;
        for (double partial : partials) {
            total += partial;
        }
        return total;
    });

    private static final ThreadedScheduler SCHEDULER = new ThreadedScheduler();

    @Override
    public String name() {
        return "W5";
    }

    @Override
    public void warmUp() throws Exception {
        compute(LENGTH / 5);
    }

    @Override
    public Check run() throws Exception {
        double value = compute(LENGTH);
        return new Check(value, value == 2 * LENGTH);
    }

    @Override
    public Map<String, Object> params() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("length", LENGTH);
        params.put("chunk", CHUNK);
        params.put("blocks", LENGTH / CHUNK);
        params.put("split_every", SPLIT_EVERY);
        params.put("threads", SCHEDULER.workers());
        params.put("graph", "hand-made: blockwise ones, add, sum-chunk, tree sum (the chunked array is not built yet)");
        return params;
    }

    static double compute(long length) {
        int blocks = (int) (length / CHUNK);
        Map<Character, Integer> counts = Map.of('i', blocks);
        HighLevelGraph graph = HighLevelGraph.empty()
                .with(BlockwiseLayer.of("ones", "i", ONES, counts, BlockwiseArgument.blockIndex("i")), Set.of())
                .with(BlockwiseLayer.of("add", "i", ADD_ONE, counts, BlockwiseArgument.blocks("ones", "i", blocks)), Set.of("ones"))
                .with(BlockwiseLayer.of("sum-chunk", "i", BLOCK_SUM, counts, BlockwiseArgument.blocks("add", "i", blocks)), Set.of("add"));
        String level = "sum-chunk";
        int width = blocks;
        int depth = 0;
        while (width > 1) {
            String next = width <= SPLIT_EVERY ? "sum" : "sum-partial-" + ++depth;
            int nextWidth = (width + SPLIT_EVERY - 1) / SPLIT_EVERY;
            Map<Key, Task> tasks = new LinkedHashMap<>();
            for (int group = 0; group < nextWidth; group++) {
                List<Key> inputs = new ArrayList<>();
                for (int block = group * SPLIT_EVERY; block < Math.min(width, (group + 1) * SPLIT_EVERY); block++) {
                    inputs.add(Key.of(level, block));
                }
                tasks.put(next.equals("sum") ? Key.of("sum") : Key.of(next, group), Task.call(COMBINE, inputs));
            }
            graph = graph.with(new MaterializedLayer(next, tasks), Set.of(level));
            level = next;
            width = nextWidth;
        }
        Key output = Key.of("sum");
        TaskGraph tasks = Optimization.optimize(graph, List.of(output));
        return (Double) SCHEDULER.get(tasks, output);
    }
}

package org.tessera.graph.order;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import org.tessera.graph.GraphException;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;

/**
 * The tasks that some outputs need, numbered in execution order, with their inputs as task numbers:
 * what a scheduler works from. Building it walks the graph with one hash lookup per edge; everything
 * after that (weights, ordering, renumbering) runs on int arrays, because a graph of 100,000 blocks
 * must be ready to run in milliseconds.
 *
 * <p>The order is a depth-first post-order from the outputs (see {@link Ordering}): among the inputs
 * of a task, the one with the larger subgraph goes first.
 */
public final class OrderedGraph {
    private static final byte ON_PATH = 1;
    private static final byte LISTED = 2;

    private final Key[] keys;
    private final Task[] tasks;
    private final int[][] inputs;
    private final int[] outputs;

    private OrderedGraph(Key[] keys, Task[] tasks, int[][] inputs, int[] outputs) {
        this.keys = keys;
        this.tasks = tasks;
        this.inputs = inputs;
        this.outputs = outputs;
    }

    /** Keys in execution order. */
    public Key[] keys() {
        return keys;
    }

    public Task[] tasks() {
        return tasks;
    }

    /** For each task, the numbers of the tasks it reads (each once). */
    public int[][] inputs() {
        return inputs;
    }

    /** For each task, the numbers of the tasks that read it (each once), in execution order: the inverse of {@link #inputs}. */
    public int[][] readers() {
        int count = keys.length;
        int[] readerCounts = new int[count];
        for (int[] reads : inputs) {
            for (int input : reads) {
                readerCounts[input]++;
            }
        }
        int[][] readers = new int[count][];
        for (int number = 0; number < count; number++) {
            readers[number] = new int[readerCounts[number]];
        }
        int[] filled = new int[count];
        for (int number = 0; number < count; number++) {
            for (int input : inputs[number]) {
                readers[input][filled[input]++] = number;
            }
        }
        return readers;
    }

    /** The numbers of the requested outputs, in the order requested (without repeats). */
    public int[] outputs() {
        return outputs;
    }

    public int size() {
        return keys.length;
    }

    /**
     * Orders what {@code requested} needs.
     *
     * @throws GraphException naming a requested key the graph lacks, a missing key with its reader, or the keys of a cycle
     */
    public static OrderedGraph of(TaskGraph graph, Collection<Key> requested) {
        List<Key> outputKeys = List.copyOf(new LinkedHashSet<>(requested));
        List<Key> absent = outputKeys.stream().filter(output -> !graph.contains(output)).toList();
        if (!absent.isEmpty()) {
            throw new GraphException("requested keys are not in the graph: " + absent, absent);
        }
        Discovery discovery = new Discovery(graph);
        for (Key output : outputKeys) {
            discovery.walkFrom(output);
        }
        int count = discovery.count;
        int[][] discoveredInputs = Arrays.copyOf(discovery.inputs, count);
        int[] weights = new int[count];
        for (int position = 0; position < count; position++) {
            int task = discovery.postOrder[position];
            long weight = 1;
            for (int input : discoveredInputs[task]) {
                weight += weights[input];
            }
            weights[task] = (int) Math.min(weight, Integer.MAX_VALUE / 2);
        }
        int[] rank = new int[count];
        Arrays.fill(rank, -1);
        int[] order = new int[count];
        int ranked = 0;
        int[][] readers = readersOf(discoveredInputs, count);
        int[] inputsUnranked = new int[count];
        for (int task = 0; task < count; task++) {
            inputsUnranked[task] = discoveredInputs[task].length;
        }
        int[] pulled = new int[count];
        int[] outputIds = outputKeys.stream().mapToInt(discovery.ids::get).toArray();
        int[] taskStack = new int[count];
        int[][] inputStack = new int[count][];
        int[] positionStack = new int[count];
        for (int output : outputIds) {
            if (rank[output] >= 0) {
                continue;
            }
            int depth = 0;
            taskStack[0] = output;
            inputStack[0] = heaviestFirst(discoveredInputs[output], weights);
            positionStack[0] = 0;
            rank[output] = -2;
            while (depth >= 0) {
                int[] pending = inputStack[depth];
                if (positionStack[depth] < pending.length) {
                    int next = pending[positionStack[depth]++];
                    if (rank[next] == -1) {
                        rank[next] = -2;
                        depth++;
                        taskStack[depth] = next;
                        inputStack[depth] = heaviestFirst(discoveredInputs[next], weights);
                        positionStack[depth] = 0;
                    }
                } else {
                    int finished = taskStack[depth--];
                    rank[finished] = ranked;
                    order[ranked++] = finished;
                    ranked = pullReadyReaders(finished, readers, inputsUnranked, rank, order, ranked, pulled);
                }
            }
        }
        Key[] keys = new Key[count];
        Task[] tasks = new Task[count];
        int[][] inputs = new int[count][];
        for (int position = 0; position < count; position++) {
            int task = order[position];
            keys[position] = discovery.keys[task];
            tasks[position] = discovery.tasks[task];
            int[] read = discoveredInputs[task];
            int[] renumbered = new int[read.length];
            for (int input = 0; input < read.length; input++) {
                renumbered[input] = rank[read[input]];
            }
            inputs[position] = renumbered;
        }
        int[] outputs = new int[outputIds.length];
        for (int output = 0; output < outputIds.length; output++) {
            outputs[output] = rank[outputIds[output]];
        }
        return new OrderedGraph(keys, tasks, inputs, outputs);
    }

    /**
     * Ranks, right after {@code finished}, every reader whose inputs are now all ranked and that the
     * walk has not reached yet, and so on from those: a block read by two reductions (mean and std of
     * one array) is then consumed by both at once instead of waiting, held in memory, until the walk
     * reaches the second reduction's subtree. Readers on the walk's current path are left to it.
     */
    private static int pullReadyReaders(int finished, int[][] readers, int[] inputsUnranked, int[] rank, int[] order, int ranked, int[] pending) {
        int pendingCount = 0;
        pending[pendingCount++] = finished;
        while (pendingCount > 0) {
            int task = pending[--pendingCount];
            for (int reader : readers[task]) {
                if (--inputsUnranked[reader] == 0 && rank[reader] == -1) {
                    rank[reader] = ranked;
                    order[ranked++] = reader;
                    pending[pendingCount++] = reader;
                }
            }
        }
        return ranked;
    }

    /** For each task, the tasks that read it. */
    private static int[][] readersOf(int[][] inputs, int count) {
        int[] readerCounts = new int[count];
        for (int task = 0; task < count; task++) {
            for (int input : inputs[task]) {
                readerCounts[input]++;
            }
        }
        int[][] readers = new int[count][];
        for (int task = 0; task < count; task++) {
            readers[task] = new int[readerCounts[task]];
        }
        int[] filled = new int[count];
        for (int task = 0; task < count; task++) {
            for (int input : inputs[task]) {
                readers[input][filled[input]++] = task;
            }
        }
        return readers;
    }

    /** The inputs with the larger subgraphs first; equal weights keep their first-use order. */
    private static int[] heaviestFirst(int[] inputs, int[] weights) {
        boolean sorted = true;
        for (int position = 1; position < inputs.length && sorted; position++) {
            sorted = weights[inputs[position - 1]] >= weights[inputs[position]];
        }
        if (sorted) {
            return inputs;
        }
        return Arrays.stream(inputs).boxed().sorted((left, right) -> Integer.compare(weights[right], weights[left]))
                .mapToInt(Integer::intValue).toArray();
    }

    /** The first walk: numbers tasks as they are found, lists them in post-order, finds cycles and missing keys. */
    private static final class Discovery {
        private final TaskGraph graph;
        final Map<Key, Integer> ids;
        // Sized for the whole graph: culled graphs need most of it, and growing by doubling would
        // copy five arrays of a 100,000-block graph a dozen times.
        Key[] keys;
        Task[] tasks;
        int[][] inputs;
        byte[] states;
        int[] postOrder;
        int count;
        private int listed;
        private final List<Key> scratch = new ArrayList<>();

        Discovery(TaskGraph graph) {
            this.graph = graph;
            this.ids = HashMap.newHashMap(graph.size());
            int capacity = Math.max(16, graph.size());
            keys = new Key[capacity];
            tasks = new Task[capacity];
            inputs = new int[capacity][];
            states = new byte[capacity];
            postOrder = new int[capacity];
        }

        private int discover(Key key, Key reader) {
            Integer known = ids.get(key);
            if (known != null) {
                return known;
            }
            Task task = graph.tasks().get(key);
            if (task == null) {
                throw new GraphException("the graph lacks keys its tasks read: " + key + " (read by " + reader + ")", List.of(key));
            }
            if (count == keys.length) {
                int capacity = count * 2;
                keys = Arrays.copyOf(keys, capacity);
                tasks = Arrays.copyOf(tasks, capacity);
                inputs = Arrays.copyOf(inputs, capacity);
                states = Arrays.copyOf(states, capacity);
                postOrder = Arrays.copyOf(postOrder, capacity);
            }
            int id = count++;
            ids.put(key, id);
            keys[id] = key;
            tasks[id] = task;
            return id;
        }

        /** The distinct keys a task reads, in first-use order, as numbers. */
        private int[] inputsOf(int id) {
            scratch.clear();
            tasks[id].collectDependencies(scratch);
            int[] found = new int[scratch.size()];
            int distinct = 0;
            for (Key read : scratch) {
                int input = discover(read, keys[id]);
                boolean repeated = false;
                for (int earlier = 0; earlier < distinct && !repeated; earlier++) {
                    repeated = found[earlier] == input;
                }
                if (!repeated) {
                    found[distinct++] = input;
                }
            }
            return distinct == found.length ? found : Arrays.copyOf(found, distinct);
        }

        void walkFrom(Key root) {
            int start = discover(root, null);
            if (states[start] != 0) {
                return;
            }
            int[] stack = new int[16];
            int[] positions = new int[16];
            int depth = 0;
            stack[0] = start;
            states[start] = ON_PATH;
            // Not inputs[start] = inputsOf(start): that would store into the array inputsOf may replace.
            int[] startInputs = inputsOf(start);
            inputs[start] = startInputs;
            while (depth >= 0) {
                int task = stack[depth];
                int[] read = inputs[task];
                if (positions[depth] < read.length) {
                    int next = read[positions[depth]++];
                    if (states[next] == 0) {
                        if (++depth == stack.length) {
                            stack = Arrays.copyOf(stack, depth * 2);
                            positions = Arrays.copyOf(positions, depth * 2);
                        }
                        stack[depth] = next;
                        positions[depth] = 0;
                        states[next] = ON_PATH;
                        int[] nextInputs = inputsOf(next);
                        inputs[next] = nextInputs;
                    } else if (states[next] == ON_PATH) {
                        throw cycle(stack, depth, next);
                    }
                } else {
                    states[task] = LISTED;
                    postOrder[listed++] = task;
                    depth--;
                }
            }
        }

        private GraphException cycle(int[] stack, int depth, int start) {
            List<Key> cycle = new ArrayList<>();
            int from = depth;
            while (stack[from] != start) {
                from--;
            }
            StringBuilder path = new StringBuilder();
            for (int position = from; position <= depth; position++) {
                cycle.add(keys[stack[position]]);
                path.append(keys[stack[position]]).append(" -> ");
            }
            path.append(keys[start]);
            return new GraphException("the graph has a cycle: " + path, cycle);
        }
    }
}

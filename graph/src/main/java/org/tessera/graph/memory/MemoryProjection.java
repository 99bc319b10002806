package org.tessera.graph.memory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

import org.tessera.graph.Deferring;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.Layer;
import org.tessera.graph.optimize.Optimization;
import org.tessera.graph.optimize.SharedReads;
import org.tessera.graph.order.OrderedGraph;

/**
 * The memory a computation will take, projected from the footprints its layers declared, before
 * any task runs. The graph is optimised as a computation optimises it; each task that remains is
 * projected at what it allocates (its result and working memory, and those of every task fused or
 * inlined into it) plus the results it reads. The computation's peak comes from running the tasks,
 * on paper, as the threaded scheduler runs them: in its static order, {@code workers} at a time,
 * each result held until its last reader is done. How long each task lasts is not known, so the
 * paper run is done twice (tasks of one length; tasks as long as what they allocate), and the peak
 * adds the largest take of tasks (a batch of small ones, or one other) once for each worker but
 * one, for a worker that runs ahead of both. Every task is counted at all it allocates, freed
 * temporaries included, which is what the measured side counts too (see
 * {@link org.tessera.graph.schedule.ExecutionStatistics#measuredPeakBytes()}).
 *
 * @param tasks           the tasks after optimisation
 * @param layers          the layers that have tasks after optimisation, in the order their tasks first run
 * @param largestTask     the key whose task holds most while it runs
 * @param largestTaskBytes what it holds: inputs, result and working memory
 * @param peakBytes       the projected peak of the whole computation
 * @param undeclared      layers whose operation declared no working memory
 * @param bytesRead       bytes the tasks read from stores
 * @param bytesWritten    bytes the tasks write to stores
 */
public record MemoryProjection(int tasks, List<LayerRow> layers, Key largestTask, long largestTaskBytes, long peakBytes,
                               Set<String> undeclared, long bytesRead, long bytesWritten) {

    /**
     * One layer's tasks after optimisation.
     *
     * @param name          the layer
     * @param tasks         its tasks
     * @param largestTask   its task that holds most while it runs
     * @param largestBytes  what that task holds: inputs, result and working memory
     * @param resultBytes   the bytes of all its tasks' results
     */
    public record LayerRow(String name, int tasks, Key largestTask, long largestBytes, long resultBytes) {
    }

    /** Projects the computation of {@code outputs} of {@code graph} on {@code workers} workers, each output held until it ends. */
    public static MemoryProjection of(HighLevelGraph graph, Collection<Key> outputs, int workers) {
        return of(graph, outputs, workers, StreamedOutputs.NONE);
    }

    /**
     * Projects the computation of {@code outputs} of {@code graph} on {@code workers} workers, the
     * {@code streamed} ones copied into results held from the start and released once copied and
     * read. Where their results take as much as the outputs' data, streamed outputs never project
     * less than the same outputs held to the end.
     */
    public static MemoryProjection of(HighLevelGraph graph, Collection<Key> outputs, int workers, StreamedOutputs streamed) {
        HighLevelGraph layered = Optimization.fuseLayers(graph, outputs);
        TaskGraph unfused = layered.materialize();
        TaskGraph tasks = Optimization.fuseTasks(unfused, outputs);
        Set<String> undeclared = new LinkedHashSet<>();
        long read = 0;
        long written = 0;
        for (Layer layer : layered.layers().values()) {
            Footprint footprint = layered.footprint(layer.name());
            if (footprint == null || !footprint.declared()) {
                undeclared.add(layer.name());
            }
        }
        OrderedGraph ordered = OrderedGraph.of(tasks, outputs);
        Key[] keys = ordered.keys();
        Inside inside = new Inside(layered, unfused, tasks);
        long[] results = new long[keys.length];
        long[] own = new long[keys.length];
        boolean[] quick = new boolean[keys.length];
        int[][] inputs = ordered.inputs();
        Key largest = null;
        long largestBytes = -1;
        for (int number = 0; number < keys.length; number++) {
            results[number] = inside.result(keys[number]);
            own[number] = inside.allocated(keys[number]);
            quick[number] = own[number] <= SMALL_TASK_BYTES && inside.keys(keys[number]) <= QUICK_TASK_KEYS;
            read += inside.read(keys[number]);
            written += inside.written(keys[number]);
        }
        Map<String, LayerRow> rows = new java.util.LinkedHashMap<>();
        for (int number = 0; number < keys.length; number++) {
            long bytes = own[number];
            for (int input : inputs[number]) {
                bytes += results[input];
            }
            if (bytes > largestBytes) {
                largestBytes = bytes;
                largest = keys[number];
            }
            Key key = keys[number];
            long taskBytes = bytes;
            long resultBytes = results[number];
            rows.merge(key.name(), new LayerRow(key.name(), 1, key, bytes, resultBytes), (row, one) -> new LayerRow(row.name(), row.tasks() + 1,
                    taskBytes > row.largestBytes() ? key : row.largestTask(), Math.max(row.largestBytes(), taskBytes), row.resultBytes() + resultBytes));
        }
        List<LayerRow> layers = List.copyOf(rows.values());
        int workerCount = Math.max(1, workers);
        long largestTake = 0;
        long largestResults = 0;
        long largestHeader = 0;
        for (int number = 0; number < keys.length; number++) {
            largestHeader = Math.max(largestHeader, inside.header(keys[number]));
            long batch = quick[number] ? largestBatch(rows.get(keys[number].name()).tasks(), workerCount) : 1;
            largestTake = Math.max(largestTake, batch * Math.max(own[number], results[number]));
            largestResults = Math.max(largestResults, batch * results[number]);
        }
        // What a streamed output's release frees on paper: its data, not its header, since the order in which
        // many small results end moves more of them than the paper's (see AHEAD_HEADERS).
        long[] copied = new long[keys.length];
        for (int number : ordered.outputs()) {
            if (streamed.keys().contains(keys[number])) {
                copied[number] = Math.max(0, results[number] - inside.header(keys[number]));
            }
        }
        long[] paper = simulate(ordered, results, own, quick, copied, streamed.resultBytes(), workerCount);
        // Tasks last unequally in a real run, so other tasks may run at once than on paper: at most every worker
        // its largest take beside the most results held, and each worker, ahead of the paper, one take's results
        // more, and some headers of results that end out of the paper's order (see AHEAD_HEADERS). One worker
        // runs the tasks in the paper's order.
        long peak = workerCount == 1 ? paper[0]
                : Math.max(paper[0], paper[1] + workerCount * largestTake) + workerCount * (largestResults + AHEAD_HEADERS * largestHeader);
        return new MemoryProjection(keys.length, layers, largest, Math.max(0, largestBytes), peak, undeclared, read, written);
    }

    /**
     * The threaded scheduler takes up to {@value #BATCH} tasks at once while each takes under 20 µs,
     * and holds all their results until the batch ends. A task that quick allocates little: making
     * a new array and writing it runs at about 5 GB/s on one core here (a copy of 256 KiB takes
     * 51 µs, of 512 KiB 104 µs), so a task that allocates more than this takes over 20 µs even at
     * twice that. Tasks projected at no more than this, and of few keys ({@link #QUICK_TASK_KEYS}),
     * are run on paper in batches too, and others one at a time.
     */
    private static final long SMALL_TASK_BYTES = 192 << 10;
    private static final int BATCH = 8;
    /**
     * Each key a task computes costs a call, an array or two and their bookkeeping: about a
     * microsecond on the machine measured (W5's 300,000 keys of ten elements take 0.17 s or more
     * on two workers), so a task of more keys than this takes over 20 µs even at a third of that,
     * whatever it allocates.
     */
    private static final int QUICK_TASK_KEYS = 48;

    /**
     * The largest batch a worker takes of a layer of {@code tasks} quick tasks, were it to run
     * them all (the others busy): the scheduler starts each layer at one task and doubles after
     * each quick batch, up to {@value #BATCH}, never taking more than its share of those ready.
     */
    static int largestBatch(int tasks, int workers) {
        int left = tasks;
        int limit = 1;
        int largest = 1;
        while (left > 0) {
            int take = Math.min(limit, Math.max(1, left / Math.max(1, workers)));
            largest = Math.max(largest, take);
            left -= take;
            limit = Math.min(BATCH, limit * 2);
        }
        return largest;
    }

    /**
     * The peak, and the most results held, of several runs on paper, since how long tasks last is
     * not known before they run: one where every task lasts as long, one where a task lasts as
     * long as the bytes it allocates (a large task is a slow one, and the other workers run ahead
     * through small tasks meanwhile), and {@value #UNEVEN_RUNS} where each task's length is that
     * times a factor from 1/8 to 8, drawn from its number (tasks alike last unalike too).
     */
    private static long[] simulate(OrderedGraph ordered, long[] results, long[] own, boolean[] quick, long[] copied, long upFront, int workers) {
        int[][] readers = ordered.readers();
        long[] most = new long[2];
        for (int run = -2; run < UNEVEN_RUNS; run++) {
            long[] paper = simulate(ordered, readers, results, own, quick, copied, upFront, workers, run);
            most[0] = Math.max(most[0], paper[0]);
            most[1] = Math.max(most[1], paper[1]);
        }
        return most;
    }

    private static final int UNEVEN_RUNS = 4;

    /**
     * A result the scheduler holds counts its header even when it holds no data. Among many
     * results of empty or tiny blocks the order in which they end moves more of them than any run
     * on paper: random property chains of a thousand empty blocks held up to 16 headers more than
     * the most held on paper, and one of them (PlannedChainsTest.aThousandEmptyBlocks), in about
     * one run in a hundred, 144 more (18 KiB of 128-byte headers, the same schedule each time).
     * Each worker is allowed 128: on two workers that covers it with 112 to spare, and adds
     * 32 KiB to a projection, nothing beside blocks of any size.
     */
    private static final int AHEAD_HEADERS = 128;

    /** How long task {@code number} lasts in paper run {@code run}: -2 all alike, -1 as it allocates, others unevenly so. */
    private static long duration(int run, int number, long own) {
        if (run == -2) {
            return 1;
        }
        if (run == -1) {
            return own + 1;
        }
        long mixed = (number + 1L) * 0x9E3779B97F4A7C15L + run * 0xC2B2AE3D27D4EB4FL;
        mixed = (mixed ^ (mixed >>> 31)) * 0xBF58476D1CE4E5B9L;
        int shift = (int) ((mixed >>> 58) % 7) - 3;   // from -3 to 3: a factor of 1/8 to 8
        return shift >= 0 ? (own + 1) << shift : Math.max(1, (own + 1) >> -shift);
    }

    /**
     * Runs the tasks on paper as the threaded scheduler runs them: a free worker takes the
     * lowest-numbered ready tasks (a batch of small ones, or one other); when a worker's tasks end,
     * memory holds the results not yet released and what every running task allocates, which is
     * when the scheduler measures too. Then the results are stored and inputs no one else reads are
     * released. Outputs are held to the end, except where streamed: their results, {@code upFront}
     * bytes, are held from the start, and each streamed output frees its {@code copied} bytes when
     * it is released as any result is.
     */
    private static long[] simulate(OrderedGraph ordered, int[][] readers, long[] results, long[] own, boolean[] quick, long[] copied, long upFront,
                                   int workers, int run) {
        int count = ordered.size();
        int[][] inputs = ordered.inputs();
        int[] inputsLeft = new int[count];
        int[] readersLeft = new int[count];
        boolean[] output = new boolean[count];
        for (int number : ordered.outputs()) {
            output[number] = true;
        }
        for (int number = 0; number < count; number++) {
            inputsLeft[number] = inputs[number].length;
            readersLeft[number] = readers[number].length;
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>();
        for (int number = 0; number < count; number++) {
            if (inputsLeft[number] == 0) {
                ready.add(number);
            }
        }
        // Each worker's batch, the bytes it allocates and when it ends; running ones ordered by their end.
        int[][] batches = new int[workers][];
        long[] allocating = new long[workers];
        long[] ends = new long[workers];
        PriorityQueue<Integer> running = new PriorityQueue<>((one, other) -> ends[one] != ends[other] ? Long.compare(ends[one], ends[other]) : Integer.compare(one, other));
        java.util.ArrayDeque<Integer> idle = new java.util.ArrayDeque<>();
        for (int worker = 0; worker < workers; worker++) {
            idle.add(worker);
        }
        long held = upFront;
        long mostHeld = upFront;
        long peak = upFront;
        long allocatingNow = 0;
        long now = 0;
        while (true) {
            while (!idle.isEmpty() && !ready.isEmpty()) {
                int worker = idle.poll();
                int take = quick[ready.peek()] ? Math.min(BATCH, Math.max(1, ready.size() / workers)) : 1;
                int[] batch = new int[take];
                int taken = 0;
                long bytes = 0;
                long duration = 0;
                while (taken < take && !ready.isEmpty() && (taken == 0 || quick[ready.peek()])) {
                    int number = ready.poll();
                    batch[taken++] = number;
                    // A task of a batch may end before the batch does, its result then held with the scheduler's header.
                    bytes += Math.max(own[number], results[number]);
                    duration += duration(run, number, own[number]);
                }
                batches[worker] = java.util.Arrays.copyOf(batch, taken);
                allocating[worker] = bytes;
                allocatingNow += bytes;
                ends[worker] = now + duration;
                running.add(worker);
            }
            if (running.isEmpty()) {
                return new long[] {peak, mostHeld};
            }
            int worker = running.poll();
            now = ends[worker];
            peak = Math.max(peak, held + allocatingNow);
            allocatingNow -= allocating[worker];
            for (int number : batches[worker]) {
                held += results[number];
            }
            mostHeld = Math.max(mostHeld, held);
            for (int number : batches[worker]) {
                for (int input : inputs[number]) {
                    if (--readersLeft[input] == 0) {
                        held -= output[input] ? copied[input] : results[input];
                    }
                }
                if (readersLeft[number] == 0) {
                    held -= copied[number];
                }
                for (int reader : readers[number]) {
                    if (--inputsLeft[reader] == 0) {
                        ready.add(reader);
                    }
                }
            }
            idle.add(worker);
        }
    }

    private static long ceilDivide(long bytes, long parts) {
        return (bytes + parts - 1) / parts;
    }

    /**
     * What a task of the optimised graph computes inside: its own key's footprint, and those of the
     * keys of the layer passes' graph that linear fusion and inlining folded into it. Linear fusion
     * folds a key into its one reader, which counts it whole. Inlining copies a task into each of
     * its readers only where that costs nothing or computes no more than the part a reader reads
     * (a view, a literal already in memory, a deferred block such as a random one), so each of n
     * readers counts an n-th of it. Where a task pulls its input in parts (a reduction's chunk step
     * in strips) and keys folded into it hand it their results deferred, each such key counts one
     * part, as {@link Footprint#partBytes} says, all the way down the chain that stays deferred.
     */
    private static final class Inside {
        /** Deeper chains of deferred parts are counted whole: an upper bound, and no deep recursion. */
        private static final int DEEPEST_PARTS = 256;

        private final HighLevelGraph layered;
        private final TaskGraph unfused;
        private final TaskGraph tasks;
        private final Map<Key, long[]> folded = new HashMap<>();
        /** Folded keys whose result stays deferred when their reader takes it so. */
        private final Set<Key> yielding = new java.util.HashSet<>();
        private final Map<Asked, Long> parts = new HashMap<>();
        private final Map<Key, List<Key>> deferredInputs = new HashMap<>();
        /**
         * Keys of tasks that run inside a merged task ({@link SharedReads}), each with that task's
         * key: they are counted in it, not in the readers that take their shares.
         */
        private final Map<Key, Key> mergedInto = new HashMap<>();
        /** The keys merged into each merged task, its own excepted. */
        private final Map<Key, List<Key>> mergedParts = new HashMap<>();

        /** A folded key asked for a part. */
        private record Asked(Key key, Footprint.Ask ask) {
        }

        Inside(HighLevelGraph layered, TaskGraph unfused, TaskGraph tasks) {
            this.layered = layered;
            this.unfused = unfused;
            this.tasks = tasks;
            tasks.tasks().forEach((key, task) -> {
                List<Key> others = SharedReads.mergedKeys(task).stream().filter(part -> !part.equals(key)).toList();
                if (!others.isEmpty()) {
                    mergedParts.put(key, others);
                    others.forEach(part -> mergedInto.put(part, key));
                }
            });
        }

        /** Whether {@code input}, read by a task, is folded into that task: not a task itself, nor merged into one. */
        private boolean foldedInto(Key input) {
            return !tasks.contains(input) && !mergedInto.containsKey(input);
        }

        /** What {@code key}'s task folds: the inputs of its unfused task, and for a merged task the tasks merged into it. */
        private Set<Key> foldInputs(Key key) {
            Set<Key> inputs = unfused.contains(key) ? unfused.dependencies(key) : Set.of();
            List<Key> merged = mergedParts.get(key);
            if (merged == null) {
                return inputs;
            }
            Set<Key> all = new LinkedHashSet<>(inputs);
            all.addAll(merged);
            return all;
        }

        long result(Key key) {
            Footprint footprint = layered.footprint(key.name());
            return footprint == null ? 0 : footprint.resultBytes(key);
        }

        long header(Key key) {
            Footprint footprint = layered.footprint(key.name());
            return footprint == null ? 0 : footprint.headerBytes(key);
        }

        long allocated(Key key) {
            return totals(key)[0];
        }

        long read(Key key) {
            return totals(key)[1];
        }

        long written(Key key) {
            return totals(key)[2];
        }

        /** The keys of the layer passes' graph the task of {@code key} computes: its own and every one folded into it. */
        long keys(Key key) {
            return totals(key)[3];
        }

        /** Allocated, read and written bytes of {@code key}'s task and of every key folded into it. */
        private long[] totals(Key key) {
            long[] known = folded.get(key);
            if (known != null) {
                return known;
            }
            // Iteratively, deepest first: a fused chain may be thousands of keys long.
            List<Key> pending = new ArrayList<>();
            pending.add(key);
            while (!pending.isEmpty()) {
                Key current = pending.getLast();
                if (folded.containsKey(current)) {
                    pending.removeLast();
                    continue;
                }
                boolean ready = true;
                for (Key input : foldInputs(current)) {
                    if (!tasks.contains(input) && !folded.containsKey(input)) {
                        pending.add(input);
                        ready = false;
                    }
                }
                if (ready) {
                    pending.removeLast();
                    fold(current);
                }
            }
            return folded.get(key);
        }

        /** Counts {@code current}, whose folded inputs are counted already. */
        private void fold(Key current) {
            Footprint footprint = layered.footprint(current.name());
            Set<Key> inputs = unfused.contains(current) ? unfused.dependencies(current) : Set.of();
            // What the task allocates (totals[0]) is found below, once it is known how its inputs come.
            long[] totals = footprint == null ? new long[] {0, 0, 0, 1}
                    : new long[] {0, footprint.bytesRead(current), footprint.bytesWritten(current), footprint.computedKeys(current)};
            for (Key input : inputs) {
                if (foldedInto(input)) {
                    long[] inner = folded.get(input);
                    // Inlined into several readers, a task is a view, a literal or a deferred block each reader computes its part of.
                    long readers = Math.max(1, unfused.dependents(input).size());
                    totals[1] += ceilDivide(inner[1], readers);
                    totals[2] += ceilDivide(inner[2], readers);
                    totals[3] += inner[3];
                }
            }
            boolean anyDeferred = !deferredInputs(current).isEmpty();
            boolean pulls = footprint != null && footprint.pullsInParts() && anyDeferred;
            boolean makesParts = footprint != null && footprint.partMaking() != Footprint.PartMaking.WHOLE;
            // Inputs handed over deferred are pulled through in strips, a part of each beside the task's own strips; a task
            // that makes parts asks them for what its whole result needs. Other tasks force them as they please: whole.
            Footprint.Ask ask = pulls ? new Footprint.Ask(footprint.pulledElements(current), false, footprint.asksRowParts())
                    : makesParts ? footprint.inputAsk(current, Footprint.Ask.WHOLE) : null;
            Footprint taking = footprint == null ? null : pulls ? footprint.takingParts() : anyDeferred ? footprint : footprint.takingWhole();
            if (taking != null && !inputs.isEmpty() && inputsReachFresh(current, inputs)) {
                taking = taking.takingOrdered();
            }
            // A task that makes parts, given deferred inputs, makes its whole result as one part (a slice then copies).
            long itself = taking == null ? 0 : makesParts && anyDeferred && !pulls ? taking.partBytes(current, Footprint.Ask.WHOLE) : taking.allocatedBytes(current);
            totals[0] = itself + inputsOf(current, ask, 0);
            for (Key merged : mergedParts.getOrDefault(current, List.of())) {
                long[] part = folded.get(merged);
                for (int total = 0; total < totals.length; total++) {
                    totals[total] += part[total];
                }
            }
            folded.put(current, totals);
            Task task = unfused.contains(current) ? unfused.task(current) : null;
            if (footprint != null && footprint.partMaking() != Footprint.PartMaking.WHOLE && !pulls && task instanceof Task.Call call
                    && call.function() instanceof Deferring && (inputs.isEmpty() || !deferredInputs(current).isEmpty())) {
                yielding.add(current);
            }
        }

        /** Whether every input of {@code key} reaches it as a new C-ordered array (see {@link Footprint#reachesFresh}). */
        private boolean inputsReachFresh(Key key, Set<Key> inputs) {
            List<Key> deferred = deferredInputs(key);
            for (Key input : inputs) {
                Footprint footprint = layered.footprint(input.name());
                if (footprint == null || !Footprint.reachesFresh(footprint, deferred.contains(input))) {
                    return false;
                }
            }
            return true;
        }

        /** The folded inputs of {@code key} that hand it their results deferred (found once per key: most keys have none). */
        private List<Key> deferredInputs(Key key) {
            return deferredInputs.computeIfAbsent(key, this::findDeferredInputs);
        }

        private List<Key> findDeferredInputs(Key key) {
            List<Key> deferred = List.of();
            if (unfused.contains(key) && !yielding.isEmpty()) {
                Task task = unfused.task(key);
                for (Key input : unfused.dependencies(key)) {
                    if (foldedInto(input) && yielding.contains(input) && Optimization.readsOnlyDeferred(task, input)) {
                        deferred = deferred.isEmpty() ? new ArrayList<>() : deferred;
                        deferred.add(input);
                    }
                }
            }
            return deferred;
        }

        /**
         * What the folded inputs of {@code key} allocate inside its task: those handed over deferred
         * a part each as {@code ask}, the others (all of them where {@code ask} is null) whole, an
         * n-th of each for each of its n readers.
         */
        private long inputsOf(Key key, Footprint.Ask ask, int depth) {
            if (!unfused.contains(key)) {
                return 0;
            }
            List<Key> deferred = deferredInputs(key);
            Footprint footprint = layered.footprint(key.name());
            int atOnce = footprint == null ? Integer.MAX_VALUE : footprint.inputsAtOnce();
            // Most tasks hold all their inputs: summed as they come, with no list per task (W5 plans 100,000).
            List<Long> each = atOnce == Integer.MAX_VALUE ? null : new ArrayList<>();
            long bytes = 0;
            for (Key input : unfused.dependencies(key)) {
                if (foldedInto(input)) {
                    long inputBytes = ask != null && deferred.contains(input) && depth < DEEPEST_PARTS ? part(input, ask, depth)
                            : ceilDivide(folded.get(input)[0], Math.max(1, unfused.dependents(input).size()));
                    bytes += inputBytes;
                    if (each != null) {
                        each.add(inputBytes);
                    }
                }
            }
            return each == null ? bytes : Footprint.largest(each, atOnce);
        }

        /** One part of a folded key's result, and what it asks of its own deferred inputs, all the way down. */
        private long part(Key key, Footprint.Ask ask, int depth) {
            Asked asked = new Asked(key, ask);
            Long known = parts.get(asked);
            if (known != null) {
                return known;
            }
            Footprint footprint = layered.footprint(key.name());
            long bytes = footprint.partBytes(key, ask) + inputsOf(key, footprint.inputAsk(key, ask), depth + 1);
            parts.put(asked, bytes);
            return bytes;
        }
    }
}

package org.tessera.graph.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.graph.layer.BlockwiseArgument.blockIndex;
import static org.tessera.graph.layer.BlockwiseArgument.blocks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.tessera.graph.Deferred;
import org.tessera.graph.Deferring;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.schedule.SynchronousScheduler;

/**
 * Fusion hands deferred values from a producer that makes them to a reader that takes them, and
 * nowhere else: a reader that does not take them, and the task's caller, see computed values.
 */
class DeferredFusionTest {
    /** How many times a deferred range was computed whole, and how many single elements were asked. */
    static final AtomicInteger WHOLE = new AtomicInteger();
    static final AtomicInteger ELEMENTS = new AtomicInteger();

    /** The numbers {@code first .. first + length - 1}, computed only when asked. */
    record DeferredRange(long first, int length) implements Deferred {
        long element(int position) {
            ELEMENTS.incrementAndGet();
            return first + position;
        }

        @Override
        public Object force() {
            WHOLE.incrementAndGet();
            List<Long> values = new ArrayList<>();
            for (int position = 0; position < length; position++) {
                values.add(first + position);
            }
            return values;
        }
    }

    /** Block i: the range 10i .. 10i + 9, deferred when the reader takes it. */
    record MakeRange() implements TaskFunction, Deferring {
        @Override
        public Object apply(List<Object> arguments) {
            return applyDeferring(arguments).force();
        }

        @Override
        public boolean acceptsDeferred(int position) {
            return false;
        }

        @Override
        public DeferredRange applyDeferring(List<Object> arguments) {
            return new DeferredRange(10L * ((int[]) arguments.getFirst())[0], 10);
        }

        @Override
        public boolean defersCheaply() {
            return true;
        }
    }

    /** The last element: asks one element of a deferred range instead of computing it whole. */
    record Last() implements TaskFunction, Deferring {
        @Override
        public Object apply(List<Object> arguments) {
            List<?> values = (List<?>) arguments.getFirst();
            return values.getLast();
        }

        @Override
        public boolean acceptsDeferred(int position) {
            return true;
        }

        @Override
        public Object applyDeferring(List<Object> arguments) {
            return arguments.getFirst() instanceof DeferredRange range ? range.element(range.length() - 1) : apply(arguments);
        }
    }

    static final TaskFunction SIZE = TaskFunction.unary("size", (List<?> values) -> (long) values.size());

    private static Map<Key, Object> compute(TaskFunction reader) {
        HighLevelGraph graph = HighLevelGraph.empty()
                .with(BlockwiseLayer.of("range", "i", new MakeRange(), Map.of('i', 3), blockIndex("i")), Set.of())
                .with(BlockwiseLayer.of("read", "i", reader, Map.of('i', 3), blocks("range", "i", 3)), Set.of("range"));
        List<Key> outputs = List.of(Key.of("read", 0), Key.of("read", 1), Key.of("read", 2));
        TaskGraph optimized = Optimization.optimize(graph, outputs);
        assertEquals(3, optimized.size(), "the producer is fused into its reader");
        WHOLE.set(0);
        ELEMENTS.set(0);
        return new SynchronousScheduler().compute(optimized, outputs);
    }

    @Test
    void aReaderThatTakesDeferredValuesAsksOnlyWhatItNeeds() {
        Map<Key, Object> values = compute(new Last());
        assertEquals(List.of(9L, 19L, 29L), List.of(values.get(Key.of("read", 0)), values.get(Key.of("read", 1)), values.get(Key.of("read", 2))));
        assertEquals(0, WHOLE.get(), "no range was computed whole");
        assertEquals(3, ELEMENTS.get());
    }

    @Test
    void aReaderThatDoesNotTakeThemGetsComputedValues() {
        Map<Key, Object> values = compute(SIZE);
        assertEquals(10L, values.get(Key.of("read", 1)));
        assertEquals(3, WHOLE.get());
        assertEquals(0, ELEMENTS.get());
    }

    @Test
    void aTaskNeverReturnsADeferredValue() throws Exception {
        // The reader passes the range on: the fused task forces it before it returns.
        TaskFunction passOn = new PassOn();
        Map<Key, Object> values = compute(passOn);
        assertEquals(List.of(20L, 21L, 22L, 23L, 24L, 25L, 26L, 27L, 28L, 29L), values.get(Key.of("read", 2)));
        assertEquals(3, WHOLE.get());
        BlockwiseFusion.Fused fused = new BlockwiseFusion.Fused(passOn, new MakeRange(), 0, 1, new int[0]);
        assertFalse(fused.acceptsDeferred(0), "a block index is not a deferred value");
        assertFalse(fused.apply(List.of(new int[] {4})) instanceof Deferred);
    }

    @Test
    void aMiddleFunctionGivenADeferredValueHandsItsReaderAComputedOne() {
        // range -> pass-on (takes deferred values) -> size (does not): pass-on's result is forced for size.
        HighLevelGraph graph = HighLevelGraph.empty()
                .with(BlockwiseLayer.of("range", "i", new MakeRange(), Map.of('i', 2), blockIndex("i")), Set.of())
                .with(BlockwiseLayer.of("middle", "i", new PassOn(), Map.of('i', 2), blocks("range", "i", 2)), Set.of("range"))
                .with(BlockwiseLayer.of("size", "i", SIZE, Map.of('i', 2), blocks("middle", "i", 2)), Set.of("middle"));
        List<Key> outputs = List.of(Key.of("size", 0), Key.of("size", 1));
        TaskGraph optimized = Optimization.optimize(graph, outputs);
        assertEquals(2, optimized.size());
        Map<Key, Object> values = new SynchronousScheduler().compute(optimized, outputs);
        assertEquals(10L, values.get(Key.of("size", 1)));
    }

    /** A chain that linear fusion nested into one task hands deferred values on as fusion does: to a reader that takes them, and computed to anything else. */
    @Test
    void aNestedCallHandsItsDeferredResultToAReaderThatTakesIt() throws Exception {
        WHOLE.set(0);
        ELEMENTS.set(0);
        Task range = Task.call(new MakeRange(), (Object) new int[] {2});
        assertEquals(29L, Task.call(new Last(), Task.call(new PassOn(), range)).evaluate(key -> null));
        assertEquals(0, WHOLE.get(), "the range was never computed whole");
        assertEquals(1, ELEMENTS.get());
        assertEquals(10L, Task.call(SIZE, range).evaluate(key -> null));
        assertEquals(1, WHOLE.get(), "a reader that does not take deferred values gets the range computed");
        assertFalse(Task.call(new PassOn(), range).evaluate(key -> null) instanceof Deferred, "a task never returns a deferred value");
    }

    /** A task that defers cheaply is repeated in readers that take it deferred, and stays one task where a reader would compute it whole. */
    @Test
    void aTaskThatDefersCheaplyIsInlinedOnlyIntoReadersThatTakeItDeferred() {
        TaskGraph both = TaskGraph.builder()
                .put("range", Task.call(new MakeRange(), (Object) new int[] {1}))
                .put("last", Task.call(new Last(), Task.ref("range")))
                .put("again", Task.call(new Last(), Task.ref("range")))
                .build();
        List<Key> outputs = List.of(Key.of("last"), Key.of("again"));
        TaskGraph inlined = Inlining.inline(both, outputs);
        assertEquals(Set.of(Key.of("last"), Key.of("again")), inlined.keys(), "the range is asked for its last element in each reader");
        WHOLE.set(0);
        ELEMENTS.set(0);
        Map<Key, Object> values = new SynchronousScheduler().compute(inlined, outputs);
        assertEquals(19L, values.get(Key.of("again")));
        assertEquals(0, WHOLE.get());
        assertEquals(2, ELEMENTS.get());

        TaskGraph mixed = TaskGraph.builder()
                .put("range", Task.call(new MakeRange(), (Object) new int[] {1}))
                .put("last", Task.call(new Last(), Task.ref("range")))
                .put("size", Task.call(SIZE, Task.ref("range")))
                .build();
        List<Key> mixedOutputs = List.of(Key.of("last"), Key.of("size"));
        TaskGraph kept = Inlining.inline(mixed, mixedOutputs);
        assertTrue(kept.contains(Key.of("range")), "a reader that computes the range whole keeps it one task");
        WHOLE.set(0);
        assertEquals(10L, new SynchronousScheduler().compute(kept, mixedOutputs).get(Key.of("size")));
        assertEquals(1, WHOLE.get(), "computed once, for both readers");
    }

    /** {@link MakeRange}'s range, but not cheap to repeat: each reader would compute it anew. */
    record CostlyRange() implements TaskFunction, Deferring {
        @Override
        public Object apply(List<Object> arguments) {
            return new MakeRange().apply(arguments);
        }

        @Override
        public boolean acceptsDeferred(int position) {
            return false;
        }

        @Override
        public DeferredRange applyDeferring(List<Object> arguments) {
            return new MakeRange().applyDeferring(arguments);
        }
    }

    /** The last element of its first argument, deferred or not, plus its second. */
    record LastPlus() implements TaskFunction, Deferring {
        @Override
        public Object apply(List<Object> arguments) {
            return (Long) ((List<?>) arguments.getFirst()).getLast() + (Long) arguments.get(1);
        }

        @Override
        public boolean acceptsDeferred(int position) {
            return position == 0;
        }

        @Override
        public Object applyDeferring(List<Object> arguments) {
            return arguments.getFirst() instanceof DeferredRange range ? range.element(range.length() - 1) + (Long) arguments.get(1) : apply(arguments);
        }
    }

    /**
     * A costly task that reads no key moves into its sole reader where that reader takes it deferred,
     * even when the reader has other inputs; read by two tasks, or reading a key itself, it stays.
     */
    @Test
    void aCostlyDeferredTaskMovesIntoItsSoleReaderThatTakesItDeferred() {
        TaskGraph graph = TaskGraph.builder()
                .put("range", Task.call(new CostlyRange(), (Object) new int[] {1}))
                .put("whole", Task.call(new CostlyRange(), (Object) new int[] {2}))
                .put("size", Task.call(SIZE, Task.ref("whole")))
                .put("sum", Task.call(new LastPlus(), Task.ref("range"), Task.ref("size")))
                .build();
        List<Key> outputs = List.of(Key.of("sum"));
        TaskGraph inlined = Inlining.inline(graph, outputs);
        assertEquals(Set.of(Key.of("whole"), Key.of("size"), Key.of("sum")), inlined.keys(), "the range moves into its reader");
        WHOLE.set(0);
        ELEMENTS.set(0);
        assertEquals(29L, new SynchronousScheduler().compute(inlined, outputs).get(Key.of("sum")));
        assertEquals(1, WHOLE.get(), "only the range that SIZE reads is computed whole");
        assertEquals(1, ELEMENTS.get(), "the moved range is asked its last element alone");

        TaskGraph shared = TaskGraph.builder()
                .put("range", Task.call(new CostlyRange(), (Object) new int[] {1}))
                .put("last", Task.call(new Last(), Task.ref("range")))
                .put("again", Task.call(new Last(), Task.ref("range")))
                .build();
        assertTrue(Inlining.inline(shared, List.of(Key.of("last"), Key.of("again"))).contains(Key.of("range")),
                "a costly task read by two readers stays one task");
        TaskGraph reading = TaskGraph.builder()
                .put("range", Task.call(new CostlyRange(), (Object) new int[] {1}))
                .put("passed", Task.call(new PassOn(), Task.ref("range")))
                .put("last", Task.call(new Last(), Task.ref("passed")))
                .put("again", Task.call(new Last(), Task.ref("range")))
                .build();
        assertTrue(Inlining.inline(reading, List.of(Key.of("last"), Key.of("again"))).contains(Key.of("passed")),
                "a task that reads a key stays, so its reader holds no more than before");
    }

    /** Returns its argument as it is, deferred or not. */
    record PassOn() implements TaskFunction, Deferring {
        @Override
        public Object apply(List<Object> arguments) {
            return arguments.getFirst();
        }

        @Override
        public boolean acceptsDeferred(int position) {
            return true;
        }

        @Override
        public Object applyDeferring(List<Object> arguments) {
            return arguments.getFirst();
        }
    }
}

package org.tessera.array.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tessera.graph.Task.call;
import static org.tessera.graph.Task.ref;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import org.tessera.graph.Key;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.memory.ResultRecycler;
import org.tessera.graph.schedule.ThreadedScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Order;
import org.tessera.ndarray.memory.BlockPool;

/**
 * Blocks from the pool come back to it through the threaded scheduler once nothing it holds shares
 * them, and not before: a block given back while a view of it waits for its reader would be
 * overwritten by the next block taken.
 */
class NDArrayRecyclerTest {
    /** 1000 x 1000 float64: 8 MB, a block the pool keeps. */
    private static final long SIDE = 1000;
    /** The memory each task's block got, by task name, to tell reused memory from new. */
    private static final Map<String, Object> MEMORY_OF = new ConcurrentHashMap<>();

    /** A task making a pooled block filled with {@code value}; its inputs only order it. */
    private static TaskFunction block(String name, double value) {
        return TaskFunction.named(name, arguments -> pooledBlock(name, value));
    }

    /** A task making a reduction's partial (an array of components) whose one component is a pooled block. */
    private static TaskFunction partial(String name, double value) {
        return TaskFunction.named(name, arguments -> new NDArray[] {pooledBlock(name, value)});
    }

    private static NDArray pooledBlock(String name, double value) {
        NDArray block = NDArray.emptyBlock(DType.FLOAT64, Order.C, SIDE, SIDE);
        block.fill(value);
        MEMORY_OF.put(name, block.segment().heapBase().orElseThrow());
        return block;
    }

    /**
     * {@code made} (a task named {@code name} filling its block with ones) is read by {@code reader}
     * into s, then dropped; b, a block made after s, must reuse its memory.
     */
    private static void assertTheNextBlockReuses(String name, TaskFunction made, TaskFunction reader, String message) {
        String next = "after-" + name;
        TaskGraph graph = TaskGraph.builder()
                .put(name, call(made))
                .put("s", call(reader, ref(name)))
                .put("b", call(block(next, 2.0), ref("s")))
                .put("t", call(SUM, ref("b")))
                .build();
        Map<Key, Object> values = ThreadedScheduler.builder().workers(1).build().compute(graph, List.of(Key.of("s"), Key.of("t")));
        assertEquals((double) SIDE * SIDE, values.get(Key.of("s")));
        assertEquals(2.0 * SIDE * SIDE, values.get(Key.of("t")));
        assertSame(MEMORY_OF.get(name), MEMORY_OF.get(next), message);
    }

    private static final TaskFunction TOP_HALF = TaskFunction.unary("top-half", (NDArray block) -> block.slice(0, 0, 1, SIDE / 2));
    private static final TaskFunction SUM = TaskFunction.unary("sum", (NDArray block) -> NDArrays.sum(block).getDouble());
    private static final TaskFunction SUMS = TaskFunction.binary("sums", (NDArray first, NDArray second) ->
            List.of(NDArrays.sum(first).getDouble(), NDArrays.sum(second).getDouble()));

    @Test
    void theSchedulerFindsThisRecycler() {
        assertTrue(ResultRecycler.find() instanceof NDArrayRecycler, ResultRecycler.find().getClass().getName());
    }

    /** a's only reader makes a view of it, which waits for c while b takes a block: b must not get a's memory. */
    @Test
    void aViewWaitingForItsReaderKeepsTheBlockFromTheNextTaker() {
        TaskGraph graph = TaskGraph.builder()
                .put("a", call(block("a", 1.0)))
                .put("v", call(TOP_HALF, ref("a")))
                .put("b", call(block("b", 2.0), ref("v")))
                .put("c", call(SUMS, ref("v"), ref("b")))
                .build();
        Object sums = ThreadedScheduler.builder().workers(1).build().get(graph, Key.of("c"));
        assertEquals(List.of(SIDE / 2.0 * SIDE, 2.0 * SIDE * SIDE), sums, "the view of a still holds a's ones");
        assertNotSame(MEMORY_OF.get("a"), MEMORY_OF.get("b"));
    }

    /** a is dropped once its sum is taken, and nothing holds a view of it: b, made after, reuses its memory. */
    @Test
    void aBlockNothingSharesIsTheNextTakersMemory() {
        assertTheNextBlockReuses("a", block("a", 1.0), SUM, "b's block is a's, given back when s was done");
    }

    /** An output is never given back, even when no task reads it. */
    @Test
    void anOutputKeepsItsBlock() {
        TaskGraph graph = TaskGraph.builder()
                .put("a", call(block("a", 1.0)))
                .put("b", call(block("b", 2.0), ref("a")))
                .build();
        Map<Key, Object> values = ThreadedScheduler.builder().workers(1).build().compute(graph, List.of(Key.of("a"), Key.of("b")));
        assertEquals(1.0, ((NDArray) values.get(Key.of("a"))).getDouble(SIDE - 1, SIDE - 1));
        assertNotSame(MEMORY_OF.get("a"), MEMORY_OF.get("b"));
    }

    @Test
    void onlyValuesSeenToLieElsewhereLetTheBlockGo() {
        NDArray block = NDArray.emptyBlock(DType.FLOAT64, Order.C, SIDE, SIDE);
        block.fill(3.0);
        MemorySegment memory = block.segment();
        NDArray view = block.slice(1, SIDE - 1, -1, 10);
        NDArray copy = view.copy();
        assertTrue(NDArrayRecycler.mayShare(view, memory, 0), "a reversed slice");
        assertTrue(NDArrayRecycler.mayShare(block.transpose().readOnly(), memory, 0), "a read-only transpose");
        assertTrue(NDArrayRecycler.mayShare(List.of(1L, List.of(copy, view)), memory, 0), "a view inside nested lists");
        assertTrue(NDArrayRecycler.mayShare(new NDArray[] {copy, view}, memory, 0), "a view among partials");
        assertTrue(NDArrayRecycler.mayShare(new Object(), memory, 0), "a value it cannot see into");
        assertFalse(NDArrayRecycler.mayShare(copy, memory, 0), "a copy");
        assertFalse(NDArrayRecycler.mayShare(List.of(copy, 2.5, "x", Key.of("k", 1)), memory, 0));
        assertFalse(NDArrayRecycler.mayShare(null, memory, 0));
        NDArrayRecycler recycler = new NDArrayRecycler();
        assertTrue(recycler.recyclable(block));
        assertTrue(recycler.recyclable(view), "a view of a pooled block is its block's memory");
        assertFalse(recycler.recyclable(copy), "a copy was not taken from the pool");
        assertFalse(recycler.recyclable(NDArray.zeros(DType.FLOAT64, SIDE, SIDE)));
        assertFalse(recycler.recyclable(List.of(block)));
        assertTrue(recycler.recyclable(new NDArray[] {copy, view}), "a partial with a pooled component");
        assertFalse(recycler.recyclable(new NDArray[] {copy}));
    }

    /** A partial's pooled components go back once each, however many of its arrays lie over one block. */
    @Test
    void aPartialGivesBackEachBlockOnce() {
        NDArray block = NDArray.emptyBlock(DType.FLOAT64, Order.C, SIDE, SIDE);
        NDArray other = NDArray.emptyBlock(DType.FLOAT64, Order.C, SIDE, SIDE);
        long idle = BlockPool.idleBytes();
        new NDArrayRecycler().recycle(new NDArray[] {block, block.reshape(SIDE * SIDE), other}, List.of());
        assertEquals(idle + 2 * (SIDE * SIDE + 1) * Long.BYTES, BlockPool.idleBytes(), "two blocks back, the one behind two arrays once");
        Object first = BlockPool.take(SIDE * SIDE * Long.BYTES).heapBase().orElseThrow();
        Object second = BlockPool.take(SIDE * SIDE * Long.BYTES).heapBase().orElseThrow();
        Object blockMemory = block.segment().heapBase().orElseThrow();
        Object otherMemory = other.segment().heapBase().orElseThrow();
        assertTrue(first == blockMemory && second == otherMemory || first == otherMemory && second == blockMemory, "the next two takers get both blocks");
    }

    /** A reduction's partial over a block (the array of its components) is dropped once read: the next block reuses the memory. */
    @Test
    void aPartialNothingSharesGivesItsBlockToTheNextTaker() {
        TaskFunction sumOfPartial = TaskFunction.unary("sum-of-partial", (NDArray[] components) -> NDArrays.sum(components[0]).getDouble());
        assertTheNextBlockReuses("partial", partial("partial", 1.0), sumOfPartial, "the partial's block went back when s was done");
    }
}

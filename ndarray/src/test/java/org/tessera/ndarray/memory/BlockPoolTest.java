package org.tessera.ndarray.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

class BlockPoolTest {
    /** A length no other test takes, so that the pool's idle blocks of it are this test's alone. */
    private static final long BYTES = (3L << 20) + 8 * 13;

    @Test
    void aBlockGivenBackIsTheNextTakersOfItsLengthWithItsOldBytes() {
        MemorySegment first = BlockPool.take(BYTES);
        assertEquals(BYTES, first.byteSize());
        assertTrue(BlockPool.holds(first));
        first.set(ValueLayout.JAVA_LONG, 8, 42L);
        long counted = Allocations.ofCurrentThread().bytes();
        BlockPool.giveBack(first);
        MemorySegment second = BlockPool.take(BYTES);
        assertSame(first.heapBase().orElseThrow(), second.heapBase().orElseThrow());
        assertEquals(42L, second.get(ValueLayout.JAVA_LONG, 8), "the caller overwrites what it takes");
        assertEquals(counted + BYTES, Allocations.ofCurrentThread().bytes(), "a reused block counts as allocated");
        MemorySegment third = BlockPool.take(BYTES);
        assertNotSame(second.heapBase().orElseThrow(), third.heapBase().orElseThrow(), "a block in use is not handed out again");
        BlockPool.giveBack(second);
        assertThrows(IllegalStateException.class, () -> BlockPool.giveBack(second), "given back twice");
        BlockPool.giveBack(third);
    }

    @Test
    void smallArraysOtherMemoryAndSlicesAreNotThePools() {
        MemorySegment small = BlockPool.take(BlockPool.MIN_BYTES - 8);
        assertFalse(BlockPool.holds(small));
        MemorySegment heap = Memory.allocate(BYTES);
        assertFalse(BlockPool.holds(heap));
        BlockPool.giveBack(heap);
        assertNotSame(heap.heapBase().orElseThrow(), BlockPool.take(BYTES).heapBase().orElseThrow(), "memory the pool did not hand out is not taken back");
        MemorySegment block = BlockPool.take(BYTES);
        assertFalse(BlockPool.holds(block.asSlice(8)), "a slice from inside a block");
        assertFalse(BlockPool.holds(block.asReadOnly()), "read-only memory");
        assertTrue(BlockPool.holds(block.asSlice(0, 64)));
    }

    @Test
    void idleBlocksBeyondTheLimitAreLeftToTheCollector() {
        long length = BlockPool.IDLE_LIMIT / 2 + 8;
        MemorySegment first = BlockPool.take(length);
        MemorySegment second = BlockPool.take(length);
        long idle = BlockPool.idleBytes();
        BlockPool.giveBack(first);
        BlockPool.giveBack(second);
        assertTrue(BlockPool.idleBytes() <= BlockPool.IDLE_LIMIT, BlockPool.idleBytes() + " idle");
        long added = BlockPool.idleBytes() - idle;
        assertTrue(added >= length && added <= length + Long.BYTES, "one of the two fits, its mark word counted: " + added);
        assertSame(first.heapBase().orElseThrow(), BlockPool.take(length).heapBase().orElseThrow());
        assertNotSame(second.heapBase().orElseThrow(), BlockPool.take(length).heapBase().orElseThrow(), "the block that did not fit was dropped");
    }
}

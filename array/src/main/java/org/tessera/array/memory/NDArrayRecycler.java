package org.tessera.array.memory;

import java.lang.foreign.MemorySegment;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;

import org.tessera.graph.Key;
import org.tessera.graph.memory.ResultRecycler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.memory.BlockPool;

/**
 * Gives a dropped block's memory back to the {@link BlockPool} (a chunk decoded from a store takes
 * it from there) when no result the scheduler still holds may share it: an array over the same
 * memory (a slice or transpose of the block), or inside a list of such, keeps it, and so does any
 * value whose memory this cannot see (a deferred block, another array family), whatever it holds.
 * A reduction's partial (an array of component arrays, such as the group sums of a matrix product
 * a tree adds) gives back each pooled block among its components, once each.
 */
public final class NDArrayRecycler implements ResultRecycler {
    /** Lists of lists nested deeper than this are taken to share. */
    private static final int DEEPEST = 4;

    @Override
    public boolean recyclable(Object result) {
        // Asked of every result the scheduler drops: a look at its arrays, no set of their blocks.
        for (NDArray array : arrays(result)) {
            if (array != null && BlockPool.holds(array.segment())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void recycle(Object dropped, Iterable<Object> held) {
        for (MemorySegment memory : pooledBlocks(dropped)) {
            if (!anyMayShare(held, memory, 0)) {
                BlockPool.giveBack(memory);
            }
        }
    }

    /** The arrays of a result: the array itself, or the components of a partial. */
    private static NDArray[] arrays(Object result) {
        return switch (result) {
            case NDArray array -> new NDArray[] {array};
            case NDArray[] components -> components;
            case null, default -> new NDArray[0];
        };
    }

    /** The pool's blocks behind an array, or behind the components of a partial, each once. */
    private static Collection<MemorySegment> pooledBlocks(Object result) {
        Map<Object, MemorySegment> blocks = new IdentityHashMap<>();
        for (NDArray array : arrays(result)) {
            if (array != null && BlockPool.holds(array.segment())) {
                blocks.putIfAbsent(array.segment().heapBase().orElseThrow(), array.segment());
            }
        }
        return blocks.values();
    }

    /** Whether {@code value} may refer to any byte of {@code memory}: false only where every array in it is seen to lie elsewhere. */
    static boolean mayShare(Object value, MemorySegment memory, int depth) {
        return switch (value) {
            case null -> false;
            case NDArray array -> array.segment().asOverlappingSlice(memory).isPresent();
            case Number ignored -> false;
            case Boolean ignored -> false;
            case String ignored -> false;
            case Key ignored -> false;
            case Object[] values when depth < DEEPEST -> anyMayShare(java.util.Arrays.asList(values), memory, depth + 1);
            case Collection<?> values when depth < DEEPEST -> anyMayShare(values, memory, depth + 1);
            default -> true;
        };
    }

    /** Whether any of {@code values}, each at nesting {@code depth}, may refer to any byte of {@code memory}. */
    private static boolean anyMayShare(Iterable<?> values, MemorySegment memory, int depth) {
        for (Object value : values) {
            if (mayShare(value, memory, depth)) {
                return true;
            }
        }
        return false;
    }
}

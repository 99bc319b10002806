package org.tessera.ndarray.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Ufuncs;

class ScratchTest {
    @Test
    void roundsAfterAResetReuseTheSameMemory() throws Exception {
        Scratch scratch = new Scratch();
        NDArray first = scratch.call(() -> NDArray.zeros(DType.FLOAT64, 1000));
        scratch.reset();
        NDArray second = scratch.call(() -> NDArray.zeros(DType.FLOAT64, 1000));
        assertTrue(Memory.overlap(first.segment(), second.segment()), "the second round reuses the first round's memory");
        NDArray third = scratch.call(() -> NDArray.zeros(DType.FLOAT64, 1000));
        assertFalse(Memory.overlap(second.segment(), third.segment()), "allocations within a round are apart");
    }

    @Test
    void zerosAreZeroInReusedMemoryAndEmptyArraysKeepItsBytes() throws Exception {
        Scratch scratch = new Scratch();
        scratch.call(() -> Ufuncs.ADD.apply(NDArray.zeros(DType.FLOAT64, 64), 5.0));
        scratch.reset();
        NDArray zeros = scratch.call(() -> NDArray.zeros(DType.FLOAT64, 64));
        assertEquals(0.0, zeros.getDouble(63));
        scratch.reset();
        NDArray reused = scratch.call(() -> NDArray.empty(DType.FLOAT64, 64));
        reused.setDouble(1.5, 0);
        scratch.reset();
        NDArray again = scratch.call(() -> NDArray.empty(DType.FLOAT64, 64));
        assertEquals(1.5, again.getDouble(0), "an empty array in scratch keeps the bytes it is given");
        assertEquals(0.0, NDArray.empty(DType.FLOAT64, 64).getDouble(0), "outside a scratch an empty array is zero-filled");
    }

    @Test
    void anInnerScratchGivesTheOuterOneBack() throws Exception {
        Scratch outer = new Scratch();
        Scratch inner = new Scratch();
        NDArray[] seen = new NDArray[2];
        outer.call(() -> {
            inner.call(() -> seen[0] = NDArray.zeros(DType.FLOAT64, 8));
            seen[1] = NDArray.zeros(DType.FLOAT64, 8);
            return null;
        });
        assertFalse(Memory.overlap(seen[0].segment(), seen[1].segment()), "the inner call allocates from the inner scratch");
        outer.reset();
        assertTrue(Memory.overlap(seen[1].segment(), outer.call(() -> NDArray.zeros(DType.FLOAT64, 8)).segment()),
                "after the inner call, allocations come from the outer scratch again");
        NDArray plain = NDArray.zeros(DType.FLOAT64, 8);
        assertFalse(Memory.overlap(plain.segment(), seen[0].segment()) || Memory.overlap(plain.segment(), seen[1].segment()),
                "outside every call, arrays get memory of their own");
    }

    @Test
    void aScratchGivenBackIsBorrowedAgainWithItsSlabsAndNoneIsLentTwice() throws Exception {
        Scratch first = Scratch.borrow();
        Scratch second = Scratch.borrow();
        assertTrue(first != second, "two borrowers never share a scratch");
        NDArray used = first.call(() -> NDArray.zeros(DType.FLOAT64, 1000));
        first.giveBack();
        second.giveBack();
        Scratch again = Scratch.borrow();
        Scratch other = Scratch.borrow();
        assertTrue(again == second && other == first, "the scratch given back last is lent first, one borrower each");
        NDArray fresh = other.call(() -> NDArray.zeros(DType.FLOAT64, 1000));
        assertTrue(Memory.overlap(used.segment(), fresh.segment()), "a scratch given back starts again at its first slab");
        again.giveBack();
        other.giveBack();
    }

    @Test
    void outsideAScratchArraysGetMemoryOfTheirOwnAndTheScratchResumesAfter() throws Exception {
        Scratch scratch = new Scratch();
        NDArray[] seen = new NDArray[3];
        scratch.call(() -> {
            seen[0] = NDArray.zeros(DType.FLOAT64, 8);
            seen[1] = Scratch.outside(() -> NDArray.zeros(DType.FLOAT64, 8));
            seen[2] = NDArray.zeros(DType.FLOAT64, 8);
            return null;
        });
        scratch.reset();
        NDArray reused = scratch.call(() -> NDArray.zeros(DType.FLOAT64, 64));
        assertTrue(Memory.overlap(reused.segment(), seen[0].segment()), "the scratch's own arrays are taken back");
        assertFalse(Memory.overlap(reused.segment(), seen[1].segment()), "an array made outside is not");
        assertFalse(Memory.overlap(seen[1].segment(), seen[2].segment()));
        assertTrue(Memory.overlap(reused.segment(), seen[2].segment()), "after outside, allocations come from the scratch again");
        assertTrue(Scratch.holds(seen[0].segment()) && Scratch.holds(seen[2].segment()) && Scratch.holds(reused.segment()),
                "the scratch's arrays are told as its memory, which a caller must copy to keep");
        assertFalse(Scratch.holds(seen[1].segment()), "an array made outside may be kept as it is");
        assertFalse(Scratch.holds(NDArray.zeros(DType.FLOAT64, 8).segment()));
        assertFalse(Scratch.holds(Memory.allocateNative(64)), "native memory is no scratch's");
    }

    @Test
    void whatATaskKeepsOutlivesItsStripsResetsAndComesFromTheTasksScratch() throws Exception {
        Scratch task = new Scratch();
        Scratch strips = new Scratch();
        NDArray[] seen = new NDArray[3];
        task.callForTask(() -> {
            seen[0] = strips.call(() -> Scratch.forTask(() -> NDArray.zeros(DType.FLOAT64, 1000)));
            strips.reset();
            seen[1] = strips.call(() -> NDArray.zeros(DType.FLOAT64, 1000));
            return null;
        });
        assertFalse(Memory.overlap(seen[0].segment(), seen[1].segment()), "the strips' reset does not take back what the task keeps");
        task.reset();
        seen[2] = task.callForTask(() -> NDArray.zeros(DType.FLOAT64, 1000));
        assertTrue(Memory.overlap(seen[0].segment(), seen[2].segment()), "the next task reuses the memory the last one kept");
        NDArray alone = strips.call(() -> Scratch.forTask(() -> NDArray.zeros(DType.FLOAT64, 1000)));
        assertFalse(Memory.overlap(alone.segment(), seen[1].segment()) || Memory.overlap(alone.segment(), seen[2].segment()),
                "outside a task's call, what is kept gets memory of its own");
    }

    @Test
    void whatATaskLeavesOpenIsClosedWhenTheTaskEndsAndOnlyThen() throws Exception {
        java.util.List<String> closed = new java.util.ArrayList<>();
        Scratch.closeAtTaskEnd(() -> closed.add("outside any task"));
        Scratch scratch = Scratch.borrow();
        try {
            scratch.callForTask(() -> {
                Scratch.closeAtTaskEnd(() -> closed.add("first"));
                Scratch.closeAtTaskEnd(() -> closed.add("second"));
                assertTrue(closed.isEmpty(), "nothing closes while the task runs: " + closed);
                return null;
            });
            assertEquals(java.util.List.of("second", "first"), closed, "closed in reverse order when the task ends; the caller keeps its own");
            scratch.callForTask(() -> null);
            assertEquals(2, closed.size(), "the next task closes nothing of the last one's");
        } finally {
            scratch.giveBack();
        }
    }
}

package org.tessera.array.plan;

import java.io.Serial;
import java.io.Serializable;

import org.tessera.graph.Key;
import org.tessera.graph.memory.Footprint.PartMaking;

/**
 * The working memory an operation declares for each of its tasks: the bytes the task allocates
 * besides its result, temporaries freed before it ends included, as a function of the task's key and
 * the bytes of its result. Every operation that adds a layer declares one (see {@link Footprints}),
 * and a plan names the layers that did not.
 */
@FunctionalInterface
public interface Working extends Serializable {

    /** The working bytes of the task of {@code key}, whose result holds {@code resultBytes} bytes of data. */
    long bytes(Key key, long resultBytes);

    /** Whether the task pulls its first input in parts when that input comes deferred (a chunk step in strips). */
    default boolean pullsInParts() {
        return false;
    }

    /** The working memory where the first input comes deferred and {@link #pullsInParts}. */
    default Working takingParts() {
        return this;
    }

    /**
     * How a task makes the parts its reader pulls from its result taken deferred (see
     * {@link org.tessera.graph.memory.Footprint#partMaking}): by default whole, until an operation
     * says how it makes a part ({@link #makingParts}).
     */
    default PartMaking partMaking() {
        return PartMaking.WHOLE;
    }

    /** Whether each part comes from the inputs' parts of the same rows (see {@link org.tessera.graph.memory.Footprint#asksRowParts}). */
    default boolean asksRowParts() {
        return false;
    }

    /** How many of the inputs folded into the task it holds at once (see {@link org.tessera.graph.memory.Footprint#inputsAtOnce}). */
    default int inputsAtOnce() {
        return Integer.MAX_VALUE;
    }

    /** The working memory of the task of {@code key} for one part of {@code partBytes} bytes: by default as for a result that size. */
    default long partBytes(Key key, long partBytes) {
        return bytes(key, partBytes);
    }

    /** The elements of the part the task asks of each input it takes deferred, for a part of {@code elements} of its result: as many. */
    default long askedElements(long elements) {
        return elements;
    }

    /** The elements of each part a task that {@link #pullsInParts} pulls, where its result holds {@code resultElements}: all of them. */
    default long pulledElements(Key key, long resultElements) {
        return Long.MAX_VALUE;
    }

    /** Whether a task that reads its block from a store reads a part of rows as a slab, decoding no more than those rows. */
    default boolean readsSlabs(Key key) {
        return false;
    }

    /** This working memory, for tasks that make their parts as {@code making} from their inputs' parts of the same rows or not. */
    default Working makingParts(PartMaking making, boolean rows) {
        return makingParts(making, rows, false);
    }

    /** As {@link #makingParts(PartMaking, boolean)}, for tasks whose results are new C-ordered arrays when {@code fresh}. */
    default Working makingParts(PartMaking making, boolean rows, boolean fresh) {
        return new MakingParts(this, making, rows, fresh);
    }

    /** Whether each task's whole result is a view of its input (a slice, a transpose): it allocates no result of its own. */
    default boolean viewsInput() {
        return partMaking() == PartMaking.PASSED;
    }

    /** Whether each task's result is a new C-ordered array of its own, never a view of another (a ufunc's output, a gather). */
    default boolean freshResults() {
        return false;
    }

    /** The working memory where the task's first input is a new C-ordered array (each part of it, where it takes parts). */
    default Working takingOrdered() {
        return this;
    }

    /** The working memory where the task's first input comes whole, never deferred. */
    default Working takingWhole() {
        return this;
    }

    /** No temporaries: the task writes its result (or views its input) and nothing else. */
    static Working none() {
        return Fixed.NONE;
    }

    /** Temporaries of {@code times} the size of the result (a sort's copy, a mask's index array). */
    static Working ofResult(double times) {
        return new OfResult(times);
    }

    /** The same temporaries for every task, {@code bytes} of them. */
    static Working fixed(long bytes) {
        return new Fixed(bytes);
    }

    /** A working memory with another way of making parts. */
    record MakingParts(Working working, PartMaking partMaking, boolean asksRowParts, boolean freshResults) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Working makingParts(PartMaking making, boolean rows, boolean fresh) {
            return new MakingParts(working, making, rows, fresh);
        }

        @Override
        public Working takingOrdered() {
            return new MakingParts(working.takingOrdered(), partMaking, asksRowParts, freshResults);
        }

        @Override
        public Working takingWhole() {
            return new MakingParts(working.takingWhole(), partMaking, asksRowParts, freshResults);
        }

        @Override
        public long bytes(Key key, long resultBytes) {
            return working.bytes(key, resultBytes);
        }

        @Override
        public long partBytes(Key key, long partBytes) {
            return working.partBytes(key, partBytes);
        }

        @Override
        public boolean readsSlabs(Key key) {
            return working.readsSlabs(key);
        }

        @Override
        public long askedElements(long elements) {
            return working.askedElements(elements);
        }

        @Override
        public long pulledElements(Key key, long resultElements) {
            return working.pulledElements(key, resultElements);
        }

        @Override
        public boolean pullsInParts() {
            return working.pullsInParts();
        }

        @Override
        public int inputsAtOnce() {
            return working.inputsAtOnce();
        }

        @Override
        public Working takingParts() {
            return new MakingParts(working.takingParts(), partMaking, asksRowParts, freshResults);
        }
    }

    record Fixed(long bytes) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;
        static final Fixed NONE = new Fixed(0);

        @Override
        public long bytes(Key key, long resultBytes) {
            return bytes;
        }
    }

    record OfResult(double times) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long bytes(Key key, long resultBytes) {
            return (long) Math.ceil(times * resultBytes);
        }
    }
}

package org.tessera.array.plan;

import java.io.Serial;
import java.io.Serializable;

import org.tessera.graph.Key;

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

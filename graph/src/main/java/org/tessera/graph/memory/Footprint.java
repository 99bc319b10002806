package org.tessera.graph.memory;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import org.tessera.graph.Key;
import org.tessera.graph.layer.Layer;

/**
 * What each task of a layer allocates, projected before anything runs: the bytes of its result and
 * its working memory (the temporaries it allocates on the way, counted whole even where they are
 * freed before it ends). A task also holds its inputs, which are other tasks' results; a planner
 * adds those from the footprints of the layers they come from. Layers declare a footprint in their
 * {@link org.tessera.graph.layer.HighLevelGraph}; the fusion passes combine the footprints of the
 * layers they fuse, so a fused task is projected with everything it computes inside.
 */
public interface Footprint extends Serializable {

    /** The bytes of the result of {@code key}'s task. */
    long resultBytes(Key key);

    /** The bytes the task of {@code key} allocates besides its result. */
    long workingBytes(Key key);

    /** Whether the layer's operation declared its working memory (false for {@link #undeclared}). */
    default boolean declared() {
        return true;
    }

    /** The bytes the task of {@code key} reads from a store (decoded), 0 for a task that reads none. */
    default long bytesRead(Key key) {
        return 0;
    }

    /** The bytes the task of {@code key} writes to a store (before encoding). */
    default long bytesWritten(Key key) {
        return 0;
    }

    /**
     * This footprint for tasks whose result a reader takes deferred and pulls in parts (strips of a
     * block), so that the result is never made whole: by default as it is, a result made whole.
     */
    default Footprint inParts() {
        return this;
    }

    /** Whether the tasks pull their first input in parts when it comes deferred (a reduction's chunk step in strips). */
    default boolean pullsInParts() {
        return false;
    }

    /** This footprint for tasks whose first input comes deferred, where {@link #pullsInParts} (its strips alone). */
    default Footprint takingParts() {
        return this;
    }

    /** What the task of {@code key} allocates in all: its result and its working memory. */
    default long taskBytes(Key key) {
        return resultBytes(key) + workingBytes(key);
    }

    /** Every task the same: {@code resultBytes} of result, {@code workingBytes} besides. */
    static Footprint uniform(long resultBytes, long workingBytes) {
        return new Uniform(resultBytes, workingBytes);
    }

    /** The footprint of a layer whose operation declared nothing: results of {@code resultBytes}, working memory unknown. */
    static Footprint undeclared(Footprint results) {
        return new Undeclared(results);
    }

    /**
     * The footprint of {@code reader} once the tasks of {@code producer} are computed inside its
     * tasks (blockwise fusion, reader fusion): each task of the fused layer allocates what the
     * reader's task did and, as working memory, everything of the producer's tasks it reads.
     * {@code readerLayer} is the reader as it was before the fusion, which says which producer keys
     * each of its tasks reads (a key read twice counted twice, as fusion computes it twice).
     */
    static Footprint absorbing(Footprint reader, Layer readerLayer, String producer, Footprint producerFootprint) {
        return new Absorbing(reader, readerLayer, producer, producerFootprint, false, false);
    }

    /**
     * As {@link #absorbing(Footprint, Layer, String, Footprint)}, where the fused function hands the
     * producer's result to the reader deferred: a reader that pulls its input in parts then makes
     * neither whole, and the producer is counted {@linkplain #inParts in parts}.
     */
    static Footprint absorbingDeferred(Footprint reader, Layer readerLayer, String producer, Footprint producerFootprint) {
        boolean inParts = reader.pullsInParts();
        return new Absorbing(inParts ? reader.takingParts() : reader, readerLayer, producer, producerFootprint, true, inParts);
    }

    /** A footprint that answers as another does, except where it says otherwise. */
    interface Delegating extends Footprint {
        /** The footprint answered for. */
        Footprint delegate();

        @Override
        default long resultBytes(Key key) {
            return delegate().resultBytes(key);
        }

        @Override
        default long workingBytes(Key key) {
            return delegate().workingBytes(key);
        }

        @Override
        default long bytesRead(Key key) {
            return delegate().bytesRead(key);
        }

        @Override
        default long bytesWritten(Key key) {
            return delegate().bytesWritten(key);
        }

        @Override
        default boolean declared() {
            return delegate().declared();
        }
    }

    /** One of a footprint's counts for one key. */
    @FunctionalInterface
    interface Measure {
        long of(Footprint footprint, Key key);
    }

    record Uniform(long resultBytes, long workingBytes) implements Footprint {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long resultBytes(Key key) {
            return resultBytes;
        }

        @Override
        public long workingBytes(Key key) {
            return workingBytes;
        }
    }

    record Undeclared(Footprint results) implements Delegating {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Footprint delegate() {
            return results;
        }

        @Override
        public long workingBytes(Key key) {
            return 0;
        }

        @Override
        public boolean declared() {
            return false;
        }
    }

    /**
     * @param passedDeferred whether the reader takes the producer's result deferred
     * @param computedInParts whether the task is computed in parts (its reader pulls strips, or its
     *                        own result is pulled in parts), so a producer passed deferred is too
     */
    record Absorbing(Footprint reader, Layer readerLayer, String producer, Footprint producerFootprint, boolean passedDeferred, boolean computedInParts)
            implements Footprint {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long resultBytes(Key key) {
            return reader.resultBytes(key);
        }

        @Override
        public long workingBytes(Key key) {
            return reader.workingBytes(key) + absorbed(key, Footprint::taskBytes);
        }

        @Override
        public Footprint inParts() {
            return new Absorbing(reader.inParts(), readerLayer, producer, producerFootprint, passedDeferred, true);
        }

        @Override
        public long bytesRead(Key key) {
            return reader.bytesRead(key) + absorbed(key, Footprint::bytesRead);
        }

        @Override
        public long bytesWritten(Key key) {
            return reader.bytesWritten(key) + absorbed(key, Footprint::bytesWritten);
        }

        /** A count ({@code measure}) over the producer's tasks that the reader's task of {@code key} now computes. */
        private long absorbed(Key key, Measure measure) {
            Footprint produced = passedDeferred && computedInParts ? producerFootprint.inParts() : producerFootprint;
            long absorbed = 0;
            for (Key read : producerKeys(key)) {
                absorbed += measure.of(produced, read);
            }
            return absorbed;
        }

        /** The producer's keys the reader's task of {@code key} read before the fusion, each as often as it read it. */
        private List<Key> producerKeys(Key key) {
            List<Key> reads = new ArrayList<>();
            readerLayer.collectInputKeys(key, reads);
            reads.removeIf(read -> !read.name().equals(producer));
            return reads;
        }

        @Override
        public boolean declared() {
            return reader.declared() && producerFootprint.declared();
        }
    }
}

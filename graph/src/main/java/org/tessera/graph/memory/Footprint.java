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
     * How a task whose result a reader takes deferred makes the parts the reader asks of it:
     * a reader at the end of a fused chain (a reduction's chunk step) pulls a block through in
     * strips, each through every task inside, and no block of the chain is made whole.
     */
    enum PartMaking {
        /** The result is made whole, whatever is asked of it (the default). */
        WHOLE,
        /** Each part is computed into a new array (an elementwise operation: its operands' parts, then its own). */
        MADE,
        /**
         * Each part is computed into a new array into which the operands write their own parts (a
         * binary ufunc of random blocks: one fills the array, the other is combined into it).
         */
        COMBINED,
        /** Each part is written into memory the reader gives, when it gives some, else into a new array (a random block, a join of pieces). */
        FILLED,
        /** A part is a part of the input, asked of it as the reader asks (a view: a box, a transpose); nothing is made. */
        PASSED
    }

    /** How the tasks make the parts a reader pulls from their results taken deferred. */
    default PartMaking partMaking() {
        return PartMaking.WHOLE;
    }

    /**
     * Whether each part the tasks make comes from their inputs' parts of the same rows (runs of the
     * first axis): then a stored input is read in slabs of those rows. A transpose asks its input
     * for columns.
     */
    default boolean asksRowParts() {
        return false;
    }

    /**
     * What a reader asks of a result it takes deferred, for each part: how many elements, whether
     * written into memory it gives, whether as runs of whole rows.
     *
     * @param elements the elements of the part ({@link Long#MAX_VALUE}: all of the result)
     * @param inPlace  whether the reader gives the memory the part is written into
     * @param rows     whether the part is a run of whole rows of the result
     */
    record Ask(long elements, boolean inPlace, boolean rows) {
        /** The whole result, into a new array: what a reader that does not pull parts asks. */
        public static final Ask WHOLE = new Ask(Long.MAX_VALUE, false, false);
    }

    /**
     * The storage the task of {@code key} allocates for one part a reader asks of its result
     * taken deferred: its working memory at that part's size and, unless {@link #partMaking}
     * writes the part into the reader's memory or passes on its input's, the part itself. Parts
     * pulled in strips are taken back before the next, so one part is what the task holds. Tasks
     * that make their result whole allocate it whole: {@link #allocatedBytes}, the default.
     */
    default long partBytes(Key key, Ask ask) {
        return allocatedBytes(key);
    }

    /** What the task of {@code key}, asked {@code ask}, asks of each input it takes deferred: by default a part as large. */
    default Ask inputAsk(Key key, Ask ask) {
        PartMaking making = partMaking();
        boolean inPlace = making == PartMaking.FILLED || making == PartMaking.COMBINED || making == PartMaking.PASSED && ask.inPlace();
        return new Ask(ask.elements(), inPlace, ask.rows() && asksRowParts());
    }

    /** Whether the tasks pull their first input in parts when it comes deferred (a reduction's chunk step in strips). */
    default boolean pullsInParts() {
        return false;
    }

    /** The elements of each part the task of {@code key} pulls from its first input where {@link #pullsInParts}. */
    default long pulledElements(Key key) {
        return Long.MAX_VALUE;
    }

    /** This footprint for tasks whose first input comes deferred, where {@link #pullsInParts} (its strips alone). */
    default Footprint takingParts() {
        return this;
    }

    /**
     * Whether each task's result is a new C-ordered array of its own, never a view of another:
     * a reader then need not copy it into order (a reduction along its rows does otherwise).
     */
    default boolean freshResults() {
        return false;
    }

    /** This footprint for tasks whose first input is a new C-ordered array, or each part of it where they take parts. */
    default Footprint takingOrdered() {
        return this;
    }

    /** This footprint for tasks whose first input comes whole, never deferred (another task's result, a block made whole). */
    default Footprint takingWhole() {
        return this;
    }

    /** Whether each part made of a deferred result is a new C-ordered array: by default where it is made or filled anew. */
    default boolean freshParts() {
        return partMaking() == PartMaking.MADE || partMaking() == PartMaking.COMBINED || partMaking() == PartMaking.FILLED;
    }

    /** Whether the results of these tasks reach a reader as new C-ordered arrays: made fresh, or parts made of a deferred result. */
    static boolean reachesFresh(Footprint footprint, boolean deferred) {
        return footprint.freshResults() || deferred && footprint.freshParts();
    }

    /**
     * How many of the inputs folded into the task it holds at once, where it makes them one after
     * another and drops each before the next (a group of block products, a pair of blocks at a
     * time): their memory is that of the largest so many, not of all. Unbounded by default.
     */
    default int inputsAtOnce() {
        return Integer.MAX_VALUE;
    }

    /** The sum of the {@code count} largest of {@code values}: what inputs made {@code count} at a time hold at most. */
    static long largest(List<Long> values, int count) {
        if (count >= values.size()) {
            return values.stream().mapToLong(Long::longValue).sum();
        }
        return values.stream().sorted(java.util.Comparator.reverseOrder()).limit(count).mapToLong(Long::longValue).sum();
    }

    /** How many tasks of the graph before fusion the task of {@code key} computes: itself, and those fused into it. */
    default long computedKeys(Key key) {
        return 1;
    }

    /** What the task of {@code key} allocates in all: its result and its working memory. */
    default long taskBytes(Key key) {
        return resultBytes(key) + workingBytes(key);
    }

    /**
     * The part of {@link #resultBytes} that is the scheduler's count of an array beside its data
     * (its header), which a task allocates no storage for.
     */
    default long headerBytes(Key key) {
        return 0;
    }

    /**
     * The storage the task of {@code key} allocates: {@link #taskBytes} without the header. A
     * result held by the scheduler counts its header; one computed inside another task does not.
     */
    default long allocatedBytes(Key key) {
        return taskBytes(key) - headerBytes(key);
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
     * {@code readerLayer} is the reader as it was before the fusion and {@code fusedLayer} after it:
     * the producer keys a task read before and no longer reads are those it now computes (a key
     * read twice counted twice, as fusion computes it twice).
     */
    static Footprint absorbing(Footprint reader, Layer readerLayer, Layer fusedLayer, String producer, Footprint producerFootprint) {
        Footprint taking = reader.takingWhole();
        return new Absorbing(reachesFresh(producerFootprint, false) ? taking.takingOrdered() : taking, readerLayer, fusedLayer, producer, producerFootprint,
                false);
    }

    /**
     * As {@link #absorbing(Footprint, Layer, Layer, String, Footprint)}, where the fused function hands the
     * producer's result to the reader deferred: a reader that pulls its input in parts then makes
     * neither whole, and the producer is counted at {@linkplain #partBytes a part}.
     */
    static Footprint absorbingDeferred(Footprint reader, Layer readerLayer, Layer fusedLayer, String producer, Footprint producerFootprint) {
        // A producer that makes its results whole hands them over whole, deferred or not.
        if (producerFootprint.partMaking() == PartMaking.WHOLE) {
            return absorbing(reader, readerLayer, fusedLayer, producer, producerFootprint);
        }
        Footprint taking = reader.pullsInParts() ? reader.takingParts() : reader;
        return new Absorbing(reachesFresh(producerFootprint, true) ? taking.takingOrdered() : taking, readerLayer, fusedLayer, producer, producerFootprint,
                true);
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

        @Override
        default int inputsAtOnce() {
            return delegate().inputsAtOnce();
        }

        @Override
        default long headerBytes(Key key) {
            return delegate().headerBytes(key);
        }

        @Override
        default long computedKeys(Key key) {
            return delegate().computedKeys(key);
        }

        @Override
        default PartMaking partMaking() {
            return delegate().partMaking();
        }

        @Override
        default boolean asksRowParts() {
            return delegate().asksRowParts();
        }

        @Override
        default long partBytes(Key key, Ask ask) {
            return delegate().partBytes(key, ask);
        }

        @Override
        default Ask inputAsk(Key key, Ask ask) {
            return delegate().inputAsk(key, ask);
        }

        @Override
        default boolean pullsInParts() {
            return delegate().pullsInParts();
        }

        @Override
        default long pulledElements(Key key) {
            return delegate().pulledElements(key);
        }

        @Override
        default Footprint takingParts() {
            return delegate().takingParts();
        }

        @Override
        default boolean freshResults() {
            return delegate().freshResults();
        }

        @Override
        default boolean freshParts() {
            return delegate().freshParts();
        }

        @Override
        default Footprint takingOrdered() {
            return delegate().takingOrdered();
        }

        @Override
        default Footprint takingWhole() {
            return delegate().takingWhole();
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
     */
    record Absorbing(Footprint reader, Layer readerLayer, Layer fusedLayer, String producer, Footprint producerFootprint, boolean passedDeferred)
            implements Footprint {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long resultBytes(Key key) {
            return reader.resultBytes(key);
        }

        @Override
        public long headerBytes(Key key) {
            return reader.headerBytes(key);
        }

        /** The reader's working memory and all the producer's tasks it computes: a part of each where it pulls them in parts. */
        @Override
        public long workingBytes(Key key) {
            Ask pulled = passedDeferred && reader.pullsInParts() ? new Ask(reader.pulledElements(key), false, reader.asksRowParts()) : null;
            return reader.workingBytes(key) + absorbedMemory(key, (footprint, read) -> pulled != null ? footprint.partBytes(read, pulled) : footprint.allocatedBytes(read));
        }

        @Override
        public PartMaking partMaking() {
            return reader.partMaking();
        }

        /** Whether every input from outside asks rows: the reader's, and the producer's it hands its own asks on to. */
        @Override
        public boolean asksRowParts() {
            return reader.asksRowParts() && (!passedDeferred || producerFootprint.asksRowParts());
        }

        @Override
        public long partBytes(Key key, Ask ask) {
            if (reader.partMaking() == PartMaking.WHOLE) {
                return allocatedBytes(key);
            }
            Ask asked = reader.inputAsk(key, ask);
            return reader.partBytes(key, ask) + absorbedMemory(key, (footprint, read) -> passedDeferred ? footprint.partBytes(read, asked) : footprint.allocatedBytes(read));
        }

        /** The fused task's other inputs are read by the reader or by the producer: the larger ask of both. */
        @Override
        public Ask inputAsk(Key key, Ask ask) {
            Ask byReader = reader.inputAsk(key, ask);
            if (!passedDeferred) {
                return byReader;
            }
            Ask byProducer = producerFootprint.inputAsk(key, byReader);
            return new Ask(Math.max(byReader.elements(), byProducer.elements()), byReader.inPlace() && byProducer.inPlace(),
                    byReader.rows() && byProducer.rows());
        }

        @Override
        public boolean pullsInParts() {
            return reader.pullsInParts();
        }

        @Override
        public long pulledElements(Key key) {
            return reader.pulledElements(key);
        }

        @Override
        public boolean freshResults() {
            return reader.freshResults();
        }

        @Override
        public boolean freshParts() {
            return reader.freshParts();
        }

        /**
         * The fused task's inputs from outside it reach the producer (a reader that took its first
         * input ordered from the producer was told so when fused).
         */
        @Override
        public Footprint takingOrdered() {
            return new Absorbing(reader, readerLayer, fusedLayer, producer, producerFootprint.takingOrdered(), passedDeferred);
        }

        @Override
        public Footprint takingWhole() {
            return new Absorbing(reader, readerLayer, fusedLayer, producer, producerFootprint.takingWhole(), passedDeferred);
        }

        @Override
        public long computedKeys(Key key) {
            return reader.computedKeys(key) + absorbed(key, Footprint::computedKeys);
        }

        @Override
        public long bytesRead(Key key) {
            return reader.bytesRead(key) + absorbed(key, Footprint::bytesRead);
        }

        @Override
        public long bytesWritten(Key key) {
            return reader.bytesWritten(key) + absorbed(key, Footprint::bytesWritten);
        }

        @Override
        public int inputsAtOnce() {
            return reader.inputsAtOnce();
        }

        /** The memory of the producer's tasks the reader computes: all of it, or the largest where it makes them a few at a time. */
        private long absorbedMemory(Key key, Measure measure) {
            return Footprint.largest(producerKeys(key).stream().map(read -> measure.of(producerFootprint, read)).toList(), reader.inputsAtOnce());
        }

        /** A count ({@code measure}) over the producer's tasks that the reader's task of {@code key} now computes. */
        private long absorbed(Key key, Measure measure) {
            long absorbed = 0;
            for (Key read : producerKeys(key)) {
                absorbed += measure.of(producerFootprint, read);
            }
            return absorbed;
        }

        /**
         * The producer's keys the reader's task of {@code key} read before the fusion and now
         * computes, each as often as fusion computes it: a key read at two places (a block and its
         * own transpose) is computed twice. A producer read at several places may be fused at one
         * of them first: then the keys it still reads are not computed inside.
         */
        private List<Key> producerKeys(Key key) {
            List<Key> reads = new ArrayList<>();
            readerLayer.collectInputKeys(key, reads);
            reads.removeIf(read -> !read.name().equals(producer));
            int stillPlaces = places(fusedLayer);
            int absorbedPlaces = places(readerLayer) - stillPlaces;
            List<Key> absorbed = new ArrayList<>(reads);
            if (stillPlaces > 0 && absorbedPlaces > 0) {
                List<Key> still = new ArrayList<>();
                fusedLayer.collectInputKeys(key, still);
                absorbed.removeAll(still);
                if (absorbed.isEmpty()) {
                    absorbed.addAll(reads);
                }
            }
            // A layer's keys are a set: a key read at several places appears once.
            for (int next = 0; absorbed.size() < absorbedPlaces && !reads.isEmpty(); next++) {
                absorbed.add(absorbed.get(next % absorbed.size()));
            }
            return absorbed;
        }

        /** The places the producer is read at in {@code layer}'s blockwise arguments (0 for any other layer). */
        private int places(Layer layer) {
            if (layer instanceof org.tessera.graph.layer.BlockwiseLayer blockwise) {
                int places = 0;
                for (org.tessera.graph.layer.BlockwiseArgument argument : blockwise.arguments()) {
                    places += argument instanceof org.tessera.graph.layer.BlockwiseArgument.Blocks blocks && blocks.name().equals(producer) ? 1 : 0;
                }
                return places;
            }
            return 0;
        }

        @Override
        public boolean declared() {
            return reader.declared() && producerFootprint.declared();
        }
    }
}

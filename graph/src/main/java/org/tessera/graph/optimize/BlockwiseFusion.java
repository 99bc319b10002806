package org.tessera.graph.optimize;

import java.io.Serial;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.Deferred;
import org.tessera.graph.Deferring;
import org.tessera.graph.Scoping;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.BlockwiseArgument;
import org.tessera.graph.layer.BlockwiseArgument.BlockIndex;
import org.tessera.graph.layer.BlockwiseArgument.Blocks;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.Layer;

/**
 * Fuses consecutive blockwise layers into one, as Dask's {@code optimize_blockwise}: in
 * {@code (x + 1) * 2} the add and the multiply become one layer whose function applies both to a
 * block, so the graph has one task per block instead of two and the intermediate block never waits
 * in the scheduler. Fusion works on the symbolic layers, before any task exists.
 *
 * <p>A producer is fused into its reader when the reader is its only reader, it is not requested,
 * it contracts nothing, and the reader reads it block for block (its letters all output letters of
 * the reader). The producer's letters are renamed to the reader's letters at that argument, which
 * also covers a transposed read ({@code "ji"} of an {@code "ij"} producer). A reader that reads the
 * producer more than once gets one copy of it per read, as Dask's blockwise rewriting does: in
 * {@code x + x.T} each block of x is then computed twice, inside the two tasks that read it, instead
 * of being held until both have run (about half of x at once, whatever the ordering). Reads that
 * are bound to name the same block (their letters agree, or differ only on axes of one block) share
 * one copy instead: in {@code A.T @ A} with A in row blocks, each block of A is read once, and the
 * product sees a matrix and its own transpose, which BLAS computes at half the work.
 */
public final class BlockwiseFusion {
    private BlockwiseFusion() {
    }

    /** The graph with fusable blockwise layers merged; layers named in {@code keep} stay. */
    public static HighLevelGraph fuse(HighLevelGraph graph, Collection<String> keep) {
        HighLevelGraph current = graph;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Layer layer : current.layers().values()) {
                if (layer instanceof BlockwiseLayer reader) {
                    HighLevelGraph fused = fuseOneInput(current, reader, Set.copyOf(keep));
                    if (fused != null) {
                        current = fused;
                        changed = true;
                        break;
                    }
                }
            }
        }
        return current;
    }

    private static HighLevelGraph fuseOneInput(HighLevelGraph graph, BlockwiseLayer reader, Set<String> keep) {
        List<BlockwiseArgument> arguments = reader.arguments();
        for (int position = 0; position < arguments.size(); position++) {
            if (!(arguments.get(position) instanceof Blocks read)) {
                continue;
            }
            Layer producerLayer = graph.layers().get(read.name());
            if (!(producerLayer instanceof BlockwiseLayer producer) || keep.contains(producer.name())
                    || !producer.contractedIndices().isEmpty()
                    || !graph.dependents(producer.name()).equals(Set.of(reader.name()))
                    || !allLettersAreOutputs(read.indices(), reader.outputIndices())
                    || read.indices().length() != producer.outputIndices().length()
                    || !sameBlockCounts(read, reader)) {
                continue;
            }
            return replace(graph, reader, position, sameBlockReads(reader, position), producer);
        }
        return null;
    }

    /** The other positions at which {@code reader} reads the block that it reads at {@code position}. */
    private static Set<Integer> sameBlockReads(BlockwiseLayer reader, int position) {
        Blocks read = (Blocks) reader.arguments().get(position);
        Set<Integer> same = new LinkedHashSet<>();
        for (int other = position + 1; other < reader.arguments().size(); other++) {
            if (reader.arguments().get(other) instanceof Blocks otherRead && otherRead.name().equals(read.name())
                    && sameBlock(read.indices(), otherRead.indices(), reader)) {
                same.add(other);
            }
        }
        return same;
    }

    /** Whether two reads name the same block for every block of the reader: per axis, one letter, or letters of one block each. */
    private static boolean sameBlock(String first, String second, BlockwiseLayer reader) {
        for (int axis = 0; axis < first.length(); axis++) {
            char one = first.charAt(axis), other = second.charAt(axis);
            if (one != other && (reader.blockCounts().getOrDefault(one, 0) != 1 || reader.blockCounts().getOrDefault(other, 0) != 1)) {
                return false;
            }
        }
        return true;
    }

    private static long timesRead(BlockwiseLayer reader, String name) {
        return reader.arguments().stream().filter(argument -> argument instanceof Blocks blocks && blocks.name().equals(name)).count();
    }

    private static boolean allLettersAreOutputs(String indices, String outputIndices) {
        return indices.chars().allMatch(letter -> outputIndices.indexOf(letter) >= 0);
    }

    /** Broadcast reads (one block standing for many) are left alone: the producer would run once per reader block. */
    private static boolean sameBlockCounts(Blocks read, BlockwiseLayer reader) {
        for (int axis = 0; axis < read.indices().length(); axis++) {
            if (read.blockCounts()[axis] != reader.blockCounts().get(read.indices().charAt(axis))) {
                return false;
            }
        }
        return true;
    }

    private static HighLevelGraph replace(HighLevelGraph graph, BlockwiseLayer reader, int position, Set<Integer> sharedPositions,
                                          BlockwiseLayer producer) {
        Blocks read = (Blocks) reader.arguments().get(position);
        Map<Character, Character> rename = new HashMap<>();
        for (int axis = 0; axis < read.indices().length(); axis++) {
            rename.put(producer.outputIndices().charAt(axis), read.indices().charAt(axis));
        }
        List<BlockwiseArgument> arguments = new ArrayList<>(reader.arguments().subList(0, position));
        for (BlockwiseArgument argument : producer.arguments()) {
            arguments.add(switch (argument) {
                case Blocks blocks -> new Blocks(blocks.name(), renamed(blocks.indices(), rename), blocks.blockCounts());
                case BlockIndex index -> new BlockIndex(renamed(index.indices(), rename));
                case BlockwiseArgument.Constant constant -> constant;
            });
        }
        for (int later = position + 1; later < reader.arguments().size(); later++) {
            if (!sharedPositions.contains(later)) {
                arguments.add(reader.arguments().get(later));
            }
        }
        int[] shared = sharedPositions.stream().mapToInt(Integer::intValue).toArray();
        TaskFunction function = new Fused(reader.function(), producer.function(), position, producer.arguments().size(), shared);
        // A culled producer kept just what its only reader needs, so the reader's restriction says it all.
        BlockwiseLayer fused = new BlockwiseLayer(reader.name(), reader.outputIndices(), function, arguments, reader.blockCounts(), reader.restriction());

        // A reader that reads the producer at other positions too (x + x.T) keeps it as an input
        // until the last of those reads is fused.
        return Rewrites.fuseLayer(graph, producer.name(), fused, timesRead(fused, producer.name()) > 0);
    }

    private static String renamed(String indices, Map<Character, Character> rename) {
        StringBuilder renamed = new StringBuilder(indices.length());
        for (char letter : indices.toCharArray()) {
            renamed.append(rename.getOrDefault(letter, letter));
        }
        return renamed.toString();
    }

    /**
     * The reader's function applied with the producer's result in place of argument {@code position},
     * and of the arguments at {@code sharedPositions} (reads of the same block, given the same result).
     * When the reader takes a deferred value there and the producer can make one, the producer's
     * result goes to the reader deferred (see {@link Deferring}); a result read at several positions is
     * computed once instead, as sharing promises.
     */
    record Fused(TaskFunction reader, TaskFunction producer, int position, int producerArity, int[] sharedPositions)
            implements TaskFunction, Deferring {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) throws Exception {
            return Deferred.force(applyDeferring(arguments));
        }

        /**
         * The hint goes to the producer with its arguments, and to the reader with its own, null
         * standing for the producer's result, which is not known yet.
         */
        @Override
        public void prefetch(List<Object> arguments) {
            producer.prefetch(arguments.subList(position, position + producerArity));
            reader.prefetch(readerArguments(arguments, null));
        }

        @Override
        public boolean prefetches() {
            return producer.prefetches() || reader.prefetches();
        }

        /** The reader's scope (see {@link Scoping}), which the task that calls this function runs in. */
        @Override
        public Scoping scoping() {
            return reader.scoping();
        }

        @Override
        public Object applyDeferring(List<Object> arguments) throws Exception {
            List<Object> producerArguments = arguments.subList(position, position + producerArity);
            // A stored read that the task shares with others is made once (SharedReads). A deferring producer may itself
            // have been given deferred arguments, so it is always asked through applyDeferring, and its result forced
            // unless the reader takes it as it is.
            Object produced = !(producer instanceof Fused) && producer.prefetches() ? SharedReads.lookup(producer, producerArguments) : null;
            if (produced == null) {
                produced = producer instanceof Deferring deferring ? deferring.applyDeferring(producerArguments) : producer.apply(producerArguments);
            }
            if (!passesDeferred()) {
                produced = Deferred.force(produced);
            }
            List<Object> readerArguments = readerArguments(arguments, produced);
            return reader instanceof Deferring deferring ? deferring.applyDeferring(readerArguments) : reader.apply(readerArguments);
        }

        /**
         * Adds to {@code reads} the stored reads (producers that {@linkplain TaskFunction#prefetches
         * prefetch}) this function makes of {@code arguments}, in order, repeats included.
         */
        void collectReads(List<Object> arguments, List<SharedReads.ProducerCall> reads) {
            List<Object> producerArguments = arguments.subList(position, position + producerArity);
            if (producer instanceof Fused inner) {
                inner.collectReads(producerArguments, reads);
            } else if (producer.prefetches() && !producerArguments.contains(null)) {
                reads.add(new SharedReads.ProducerCall(producer, List.copyOf(producerArguments)));
            }
            if (reader instanceof Fused inner) {
                inner.collectReads(readerArguments(arguments, null), reads);
            }
        }

        /** The reader's arguments: the fused call's, with {@code produced} in place of the producer's and at the shared positions. */
        private List<Object> readerArguments(List<Object> arguments, Object produced) {
            int readerArity = arguments.size() - producerArity + 1 + sharedPositions.length;
            List<Object> readerArguments = new ArrayList<>(readerArity);
            readerArguments.addAll(arguments.subList(0, position));
            readerArguments.add(produced);
            int next = position + producerArity;
            for (int readerPosition = position + 1; readerPosition < readerArity; readerPosition++) {
                readerArguments.add(isShared(readerPosition) ? produced : arguments.get(next++));
            }
            return readerArguments;
        }

        @Override
        public boolean acceptsDeferred(int argument) {
            if (argument < position) {
                return readerAccepts(argument);
            }
            if (argument < position + producerArity) {
                return producer instanceof Deferring deferring && deferring.acceptsDeferred(argument - position);
            }
            // The reader's positions after the producer's, skipping those the producer's result fills.
            int next = position + producerArity;
            for (int readerPosition = position + 1; readerPosition <= argument + sharedPositions.length + 1; readerPosition++) {
                if (!isShared(readerPosition)) {
                    if (next == argument) {
                        return readerAccepts(readerPosition);
                    }
                    next++;
                }
            }
            return false;
        }

        @Override
        public boolean defersCheaply() {
            return sharedPositions.length == 0 && readerAccepts(position) && reader instanceof Deferring readerDeferring && readerDeferring.defersCheaply()
                    && producer instanceof Deferring producerDeferring && producerDeferring.defersCheaply();
        }

        /**
         * Whether the producer's result goes to the reader deferred, as {@link #applyDeferring} hands
         * it. A result read at several positions goes deferred only from a producer that defers
         * cheaply (a random block, a transpose of one): each reader then computes the parts it
         * reads, which cost no more than their share of the whole, where computing it once would
         * make it whole ({@code x * x}: each block read at both positions of one task).
         */
        boolean passesDeferred() {
            if (!readerAccepts(position) || !(producer instanceof Deferring deferring)) {
                return false;
            }
            if (sharedPositions.length == 0) {
                return true;
            }
            if (!deferring.defersCheaply()) {
                return false;
            }
            for (int shared : sharedPositions) {
                if (!readerAccepts(shared)) {
                    return false;
                }
            }
            return true;
        }

        private boolean readerAccepts(int readerPosition) {
            return reader instanceof Deferring deferring && deferring.acceptsDeferred(readerPosition);
        }

        private boolean isShared(int readerPosition) {
            for (int shared : sharedPositions) {
                if (shared == readerPosition) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String displayName() {
            return producer.displayName() + "-" + reader.displayName();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Fused that && reader.equals(that.reader) && producer.equals(that.producer) && position == that.position
                    && producerArity == that.producerArity && java.util.Arrays.equals(sharedPositions, that.sharedPositions);
        }

        @Override
        public int hashCode() {
            return (reader.hashCode() * 31 + producer.hashCode()) * 31 + position;
        }
    }
}

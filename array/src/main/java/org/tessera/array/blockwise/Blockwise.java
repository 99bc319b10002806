package org.tessera.array.blockwise;

import java.io.Serial;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.graph.Deferring;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.BlockwiseArgument;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.ndarray.AnyArray;

/**
 * The general operation over blocks in index notation (the {@code top} of Dask's design notes):
 * output block {@code (i, j)} is the function of the input blocks whose letters take those values.
 * An input letter the output lacks is contracted: the function gets the list of blocks along it
 * (or, with {@link Builder#concatenate}, one block joined along it). Inputs are aligned first:
 * their chunks along each letter are unified (blocks split to common boundaries), and an axis of
 * length 1 broadcasts.
 *
 * <pre>{@code
 * ChunkedArray product = Blockwise.of("matmul", blocks -> ..., "ik")
 *         .input(a, "ij").input(b, "jk").meta(resultMeta).build();
 * }</pre>
 */
public final class Blockwise {
    private Blockwise() {
    }

    public static Builder of(String label, BlockFunction function, String outputIndices) {
        return new Builder(label, function, outputIndices);
    }

    /** A blockwise operation being described. */
    public static final class Builder {
        private final String label;
        private final BlockFunction function;
        private final String outputIndices;
        private final List<Object> arguments = new ArrayList<>();
        private final List<String> indices = new ArrayList<>();
        private final Map<Character, long[]> newAxes = new LinkedHashMap<>();
        private final Map<Character, long[]> adjustedChunks = new HashMap<>();
        private final List<Object> tokenParts = new ArrayList<>();
        private AnyArray<?> meta;
        private boolean concatenate;
        private Working working;

        private Builder(String label, BlockFunction function, String outputIndices) {
            this.label = label;
            this.function = function;
            this.outputIndices = outputIndices;
        }

        /** A chunked input whose axes carry {@code letters}. */
        public Builder input(ChunkedArray array, String letters) {
            if (letters.length() != array.ndim()) {
                throw new IllegalArgumentException(label + ": index '" + letters + "' has " + letters.length() + " letters for an input of "
                        + array.ndim() + " axes (shape " + ChunkedArrayText.shape(array) + ")");
            }
            arguments.add(array);
            indices.add(letters);
            return this;
        }

        /** The same value passed to every block. */
        public Builder constant(Object value) {
            arguments.add(value);
            indices.add(null);
            return this;
        }

        /** The meta (dtype and block type) of the output. */
        public Builder meta(AnyArray<?> outputMeta) {
            this.meta = outputMeta;
            return this;
        }

        /** An output letter no input has, with these block lengths. */
        public Builder newAxis(char letter, long... lengths) {
            newAxes.put(letter, lengths.clone());
            return this;
        }

        /** The output's block lengths along {@code letter}, when the function changes them. */
        public Builder adjustChunks(char letter, long... lengths) {
            adjustedChunks.put(letter, lengths.clone());
            return this;
        }

        /** Join the blocks along contracted letters into one block before calling the function. */
        public Builder concatenate(boolean join) {
            this.concatenate = join;
            return this;
        }

        /**
         * What each task allocates besides its result (see {@link Working}): the function's
         * temporaries. Blocks joined for {@link #concatenate} are added to it here. Without a
         * declaration the layer is undeclared, and a plan names it.
         */
        public Builder working(Working declared) {
            this.working = declared;
            return this;
        }

        /** Extra values that tell this operation apart from others with the same function class. */
        public Builder token(Object... parts) {
            tokenParts.addAll(List.of(parts));
            return this;
        }

        public ChunkedArray build() {
            if (meta == null) {
                throw new IllegalStateException(label + ": the output meta (dtype) must be given");
            }
            Map<Character, long[]> unified = unifiedChunks();
            List<ChunkedArray> aligned = new ArrayList<>();
            for (int position = 0; position < arguments.size(); position++) {
                if (arguments.get(position) instanceof ChunkedArray array) {
                    aligned.add(align(array, indices.get(position), unified));
                }
            }
            long[][] outputChunks = new long[outputIndices.length()][];
            Map<Character, Integer> blockCounts = new HashMap<>();
            unified.forEach((letter, lengths) -> blockCounts.put(letter, lengths.length));
            for (int axis = 0; axis < outputIndices.length(); axis++) {
                char letter = outputIndices.charAt(axis);
                long[] lengths = adjustedChunks.containsKey(letter) ? adjustedChunks.get(letter)
                        : newAxes.containsKey(letter) ? newAxes.get(letter) : unified.get(letter);
                if (lengths == null) {
                    throw new IllegalArgumentException(label + ": output letter '" + letter + "' is on no input and not a new axis");
                }
                outputChunks[axis] = lengths;
                blockCounts.putIfAbsent(letter, lengths.length);
                if (blockCounts.get(letter) != lengths.length) {
                    throw new IllegalArgumentException(label + ": adjusted chunks along '" + letter + "' have " + lengths.length
                            + " blocks but the inputs have " + blockCounts.get(letter));
                }
            }
            List<BlockwiseArgument> layerArguments = new ArrayList<>();
            List<Object> token = new ArrayList<>(List.of(label, function, outputIndices, tokenParts));
            Set<String> dependencies = new LinkedHashSet<>();
            List<HighLevelGraph> graphs = new ArrayList<>();
            int arrayPosition = 0;
            for (int position = 0; position < arguments.size(); position++) {
                String letters = indices.get(position);
                if (letters == null) {
                    layerArguments.add(BlockwiseArgument.constant(arguments.get(position)));
                    token.add(arguments.get(position));
                    continue;
                }
                ChunkedArray array = aligned.get(arrayPosition++);
                layerArguments.add(BlockwiseArgument.blocks(array.name(), letters, array.numBlocks()));
                token.add(array.name());
                token.add(letters);
                dependencies.add(array.name());
                graphs.add(array.graph());
            }
            String contracted = contractedLetters();
            String name = Tokens.name(label, token.toArray());
            TaskFunction task = new BlockTask(label, function, concatenate ? contractedAxesPerArgument(contracted) : null);
            BlockwiseLayer layer = new BlockwiseLayer(name, outputIndices, task, layerArguments, blockCounts, null);
            HighLevelGraph graph = HighLevelGraph.merge(graphs.toArray(HighLevelGraph[]::new)).with(layer, dependencies);
            if (working != null) {
                Working joins = concatenate ? joinedInputs(aligned, contracted) : null;
                graph = Footprints.declare(graph, name, joins == null ? working : Workings.plus(working, joins));
            }
            return new ChunkedArray(graph, name, Chunks.of(outputChunks), meta);
        }

        private String contractedLetters() {
            StringBuilder contracted = new StringBuilder();
            for (String letters : indices) {
                if (letters != null) {
                    for (char letter : letters.toCharArray()) {
                        if (outputIndices.indexOf(letter) < 0 && contracted.indexOf(String.valueOf(letter)) < 0) {
                            contracted.append(letter);
                        }
                    }
                }
            }
            return contracted.toString();
        }

        /**
         * The blocks {@link BlockTask} joins along contracted letters, new arrays of the joined
         * shape (each level of a join along several letters makes one), or null when every
         * contracted letter has a single block and nothing is joined.
         */
        private Working joinedInputs(List<ChunkedArray> aligned, String contracted) {
            List<JoinedInput> joined = new ArrayList<>();
            int arrayPosition = 0;
            for (String letters : indices) {
                if (letters == null) {
                    continue;
                }
                ChunkedArray array = aligned.get(arrayPosition++);
                int joins = 0;
                long[] wholeLengths = new long[letters.length()];
                int[] outputAxis = new int[letters.length()];
                long[][] lengths = new long[letters.length()][];
                for (int axis = 0; axis < letters.length(); axis++) {
                    char letter = letters.charAt(axis);
                    outputAxis[axis] = outputIndices.indexOf(letter);
                    lengths[axis] = array.chunks().axis(axis);
                    wholeLengths[axis] = java.util.Arrays.stream(lengths[axis]).map(length -> Math.max(length, 0)).sum();
                    if (contracted.indexOf(letter) >= 0 && array.chunks().blockCount(axis) > 1) {
                        joins++;
                    }
                }
                if (joins > 0) {
                    joined.add(new JoinedInput(outputAxis, lengths, wholeLengths, array.dtype().byteSize(), joins));
                }
            }
            return joined.isEmpty() ? null : new JoinedInputs(List.copyOf(joined));
        }

        /** For each argument, the axes (in its own order) of its contracted letters. */
        private List<int[]> contractedAxesPerArgument(String contracted) {
            List<int[]> axes = new ArrayList<>();
            for (String letters : indices) {
                if (letters == null) {
                    axes.add(new int[0]);
                } else {
                    axes.add(letters.chars().filter(letter -> contracted.indexOf(letter) >= 0).map(letters::indexOf).toArray());
                }
            }
            return axes;
        }

        private Map<Character, long[]> unifiedChunks() {
            Map<Character, List<long[]>> candidates = new LinkedHashMap<>();
            for (int position = 0; position < arguments.size(); position++) {
                if (arguments.get(position) instanceof ChunkedArray array) {
                    String letters = indices.get(position);
                    for (int axis = 0; axis < letters.length(); axis++) {
                        candidates.computeIfAbsent(letters.charAt(axis), letter -> new ArrayList<>()).add(array.chunks().axis(axis));
                    }
                }
            }
            Map<Character, long[]> unified = new LinkedHashMap<>();
            candidates.forEach((letter, chunkings) -> unified.put(letter, ChunkUnification.common(chunkings)));
            return unified;
        }

        /**
         * The input split to the unified chunks, except along axes of length 1 where the others are
         * longer, which broadcast as one block (an axis (0, 1) becomes (1,)). Where every operand has
         * length 1, even those split by empty blocks are unified: block by block, the operands must
         * then cover the same elements (a contracted axis, a mask).
         */
        private static ChunkedArray align(ChunkedArray array, String letters, Map<Character, long[]> unified) {
            long[][] target = new long[letters.length()][];
            boolean changed = false;
            for (int axis = 0; axis < letters.length(); axis++) {
                long[] own = array.chunks().axis(axis);
                long[] common = unified.get(letters.charAt(axis));
                boolean broadcast = array.shape(axis) == 1;
                boolean othersOfLengthOne = java.util.Arrays.stream(common).sum() == 1;
                target[axis] = !broadcast || othersOfLengthOne ? common : own.length == 1 ? own : new long[] {1};
                changed |= !java.util.Arrays.equals(own, target[axis]);
            }
            return changed ? Rechunk.rechunk(array, Chunks.of(target)) : array;
        }
    }

    /**
     * One input joined along its contracted letters: the joined block has, along an output letter,
     * the length of the block at the key's position, and along a contracted letter the whole axis.
     */
    record JoinedInput(int[] outputAxis, long[][] lengths, long[] wholeLengths, long itemSize, int joins) implements java.io.Serializable {
        @Serial
        private static final long serialVersionUID = 1L;

        long bytes(org.tessera.graph.Key key) {
            long elements = 1;
            for (int axis = 0; axis < lengths.length; axis++) {
                int output = outputAxis[axis];
                if (output < 0) {
                    elements *= wholeLengths[axis];
                } else {
                    long[] along = lengths[axis];
                    int block = output < key.rank() ? Math.min(key.index(output), along.length - 1) : 0;
                    elements *= along.length == 1 ? Math.max(along[0], 0) : Math.max(along[block], 0);
                }
            }
            return elements * itemSize * joins;
        }
    }

    /** The working memory of the joins of contracted blocks, added to what the function declared. */
    record JoinedInputs(List<JoinedInput> inputs) implements Working {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public long bytes(org.tessera.graph.Key key, long resultBytes) {
            long total = 0;
            for (JoinedInput input : inputs) {
                total += input.bytes(key);
            }
            return total;
        }
    }

    /**
     * The layer's task function: joins contracted blocks when asked, then applies the block function.
     * It takes and returns deferred blocks when its block function does and nothing is joined.
     */
    record BlockTask(String label, BlockFunction function, List<int[]> joinAxes) implements TaskFunction, Deferring {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public boolean acceptsDeferred(int position) {
            return joinAxes == null && function instanceof Deferring deferring && deferring.acceptsDeferred(position);
        }

        @Override
        public boolean acceptsDeferredItems(int position) {
            return joinAxes == null && function instanceof Deferring deferring && deferring.acceptsDeferredItems(position);
        }

        @Override
        public Object applyDeferring(List<Object> arguments) throws Exception {
            return joinAxes == null && function instanceof Deferring deferring ? deferring.applyDeferring(arguments) : apply(arguments);
        }

        @Override
        public boolean defersCheaply() {
            return joinAxes == null && function instanceof Deferring deferring && deferring.defersCheaply();
        }

        @Override
        public Object apply(List<Object> arguments) throws Exception {
            if (joinAxes == null) {
                return function.apply(arguments);
            }
            List<Object> joined = new ArrayList<>(arguments.size());
            for (int position = 0; position < arguments.size(); position++) {
                joined.add(join(arguments.get(position), joinAxes.get(position), 0));
            }
            return function.apply(joined);
        }

        /** Nested lists of blocks joined along the given axes, outermost list first. */
        private static Object join(Object value, int[] axes, int depth) {
            if (depth == axes.length || !(value instanceof List<?> list)) {
                return value;
            }
            List<Object> parts = new ArrayList<>(list.size());
            for (Object item : list) {
                parts.add(join(item, axes, depth + 1));
            }
            return parts.size() == 1 ? parts.getFirst() : Blocks.concatenate(parts, axes[depth]);
        }

        @Override
        public String displayName() {
            return label;
        }
    }
}

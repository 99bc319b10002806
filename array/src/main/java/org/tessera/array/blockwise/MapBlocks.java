package org.tessera.array.blockwise;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.CreationLayer;
import org.tessera.array.plan.Working;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.BlockwiseArgument;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.memory.Footprint;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * Dask's {@code map_blocks}: a function of NDArrays applied block by block to one or more chunked
 * arrays, built on {@link Blockwise}.
 *
 * <p>The inputs are aligned on the right, as NumPy broadcasts: with inputs of 2 and 1 axes the
 * 1-D input runs along the last axis. Their chunks are unified first (blocks split to common
 * boundaries), so the function gets blocks that cover the same region. The output has the same
 * axes, less those given to {@link Builder#dropAxis} (the function then gets blocks whole along a
 * dropped axis, joined if needed, and must remove it), plus those given to {@link Builder#newAxis}
 * (the function must add them). The output's block lengths are the inputs', unless declared with
 * {@link Builder#chunks} when the function changes them.
 *
 * <pre>{@code
 * // Sum every block over its rows: the output is 1-D, chunked like x's columns.
 * ChunkedArray columnSums = MapBlocks.of(blocks -> NDArrays.sum(blocks[0], Options.axes(0)), x).dropAxis(0).build();
 * // Add each block's global row number, told by its BlockInfo.
 * ChunkedArray shifted = MapBlocks.withBlockInfo((info, blocks) -> Ufuncs.ADD.apply(blocks[0], info.start()[0]), x).build();
 * }</pre>
 *
 * <p>The output dtype is the one given with {@link Builder#dtype} or {@link Builder#meta}; without
 * either, the function is run once on the inputs' empty metas to see what it returns, and if that
 * fails the first input's dtype is taken (as Dask does).
 */
public final class MapBlocks {
    private MapBlocks() {
    }

    /** What the user's function computes from the blocks at one position of the block grid. */
    @FunctionalInterface
    public interface BlockMapper extends Serializable {
        NDArray apply(NDArray... blocks) throws Exception;
    }

    /** A block function that is also told where its output block sits. */
    @FunctionalInterface
    public interface PositionedBlockMapper extends Serializable {
        NDArray apply(BlockInfo outputBlock, NDArray... blocks) throws Exception;
    }

    /** {@code function} applied to the blocks of {@code arrays}, in the order given. */
    public static Builder of(BlockMapper function, ChunkedArray... arrays) {
        return new Builder(function, null, arrays);
    }

    /** {@code function} applied to the blocks of {@code arrays}, with the output block's {@link BlockInfo}. */
    public static Builder withBlockInfo(PositionedBlockMapper function, ChunkedArray... arrays) {
        return new Builder(null, function, arrays);
    }

    /** A map over blocks being described. */
    public static final class Builder {
        private final BlockMapper plainFunction;
        private final PositionedBlockMapper positionedFunction;
        private final List<ChunkedArray> arrays;
        private final TreeMap<Integer, long[]> newAxes = new TreeMap<>();
        private final List<Object> tokenParts = new ArrayList<>();
        private String label = "map-blocks";
        private int[] droppedAxes = {};
        private long[][] declaredChunks;
        private DType dtype;
        private NDArray meta;
        private Working working;

        private Builder(BlockMapper plainFunction, PositionedBlockMapper positionedFunction, ChunkedArray... arrays) {
            if (arrays.length == 0) {
                throw new IllegalArgumentException("mapBlocks needs at least one chunked array");
            }
            this.plainFunction = plainFunction;
            this.positionedFunction = positionedFunction;
            this.arrays = List.of(arrays);
        }

        /** The prefix of the output's name and the task name in progress bars and profiles. */
        public Builder label(String name) {
            this.label = name;
            return this;
        }

        /** Axes of the (right-aligned) inputs that the function removes; negative axes count from the end. */
        public Builder dropAxis(int... axes) {
            this.droppedAxes = axes.clone();
            return this;
        }

        /** Axes of length 1 (one block) that the function adds, at these positions of the output. */
        public Builder newAxis(int... positions) {
            for (int position : positions) {
                newAxes.put(position, new long[] {1});
            }
            return this;
        }

        /** An axis the function adds at {@code position} of the output, with these block lengths. */
        public Builder newAxis(int position, long[] blockLengths) {
            newAxes.put(position, blockLengths.clone());
            return this;
        }

        /** The output's block lengths on every axis, for a function that changes its blocks' shapes. */
        public Builder chunks(long[]... blockLengthsPerAxis) {
            this.declaredChunks = deepClone(blockLengthsPerAxis);
            return this;
        }

        public Builder chunks(Chunks outputChunks) {
            long[][] lengths = new long[outputChunks.ndim()][];
            Arrays.setAll(lengths, outputChunks::axis);
            this.declaredChunks = lengths;
            return this;
        }

        /** The output dtype (blocks are NDArrays). */
        public Builder dtype(DType outputDtype) {
            this.dtype = outputDtype;
            return this;
        }

        /** The output meta: an empty array of the block type and dtype (its axis count is adjusted). */
        public Builder meta(NDArray outputMeta) {
            this.meta = outputMeta;
            return this;
        }

        /**
         * What the function allocates besides the block it returns, as a function of that block's
         * bytes (see {@link Working}): {@code Working.none()} for a function that only makes its
         * result. Blocks joined along a dropped axis are counted on top of it. The library cannot
         * know what a function allocates, so without this the layer is left undeclared and a
         * memory plan names it.
         */
        public Builder working(Working declared) {
            this.working = declared;
            return this;
        }

        /** Values that tell this map apart from another with the same function (its parameters). */
        public Builder token(Object... parts) {
            tokenParts.addAll(List.of(parts));
            return this;
        }

        public ChunkedArray build() {
            int inputNdim = arrays.stream().mapToInt(ChunkedArray::ndim).max().orElseThrow();
            String inputLetters = CreationLayer.AXIS_LETTERS.substring(0, inputNdim);
            boolean[] dropped = droppedAxes(inputNdim);
            StringBuilder kept = new StringBuilder();
            for (int axis = 0; axis < inputNdim; axis++) {
                if (!dropped[axis]) {
                    kept.append(inputLetters.charAt(axis));
                }
            }
            String outputLetters = outputLetters(kept.toString(), inputNdim);
            Map<Character, long[]> unified = unifiedChunks(inputLetters);
            long[][] outputLengths = outputLengths(outputLetters, unified);
            Chunks outputChunks = Chunks.of(outputLengths);

            NDArray outputMeta = outputMeta(outputLetters.length(), outputChunks);
            MappedBlock function = new MappedBlock(label, plainFunction, positionedFunction, arrays.size(), outputLetters.length());
            Blockwise.Builder blockwise = Blockwise.of(label, function, outputLetters).meta(outputMeta).concatenate(true)
                    .token(tokenParts, Arrays.toString(droppedAxes), outputChunks).working(working);
            for (ChunkedArray array : arrays) {
                blockwise.input(array, inputLetters.substring(inputNdim - array.ndim()));
            }
            for (int axis = 0; axis < outputLetters.length(); axis++) {
                char letter = outputLetters.charAt(axis);
                if (declaredChunks != null) {
                    blockwise.adjustChunks(letter, outputLengths[axis]);
                } else if (!unified.containsKey(letter)) {
                    blockwise.newAxis(letter, outputLengths[axis]);
                }
            }
            if (positionedFunction != null) {
                blockwise.input(blockInfoArray(outputLetters, unified, outputChunks), outputLetters);
            }
            return blockwise.build();
        }

        private boolean[] droppedAxes(int inputNdim) {
            boolean[] dropped = new boolean[inputNdim];
            for (int axis : droppedAxes) {
                int normalized = axis < 0 ? axis + inputNdim : axis;
                if (normalized < 0 || normalized >= inputNdim) {
                    throw new IllegalArgumentException(label + ": dropAxis axis " + axis + " is out of bounds for inputs of dimension " + inputNdim);
                }
                if (dropped[normalized]) {
                    throw new IllegalArgumentException(label + ": dropAxis " + Arrays.toString(droppedAxes) + " repeats axis " + normalized);
                }
                dropped[normalized] = true;
            }
            return dropped;
        }

        /** The kept input letters with fresh letters at the new axes' positions. */
        private String outputLetters(String kept, int inputNdim) {
            int outputNdim = kept.length() + newAxes.size();
            char[] letters = new char[outputNdim];
            boolean[] isNew = new boolean[outputNdim];
            int fresh = inputNdim;
            for (int position : newAxes.keySet()) {
                int normalized = position < 0 ? position + outputNdim : position;
                if (normalized < 0 || normalized >= outputNdim || isNew[normalized]) {
                    throw new IllegalArgumentException(label + ": newAxis position " + position + " is out of bounds or repeated for an output of "
                            + outputNdim + " axes (new axes at " + newAxes.keySet() + ")");
                }
                isNew[normalized] = true;
                letters[normalized] = CreationLayer.AXIS_LETTERS.charAt(fresh++);
            }
            int next = 0;
            for (int axis = 0; axis < outputNdim; axis++) {
                if (!isNew[axis]) {
                    letters[axis] = kept.charAt(next++);
                }
            }
            return new String(letters);
        }

        /** The common block lengths per input letter, as Blockwise will align the inputs. */
        private Map<Character, long[]> unifiedChunks(String inputLetters) {
            Map<Character, List<long[]>> candidates = new LinkedHashMap<>();
            for (ChunkedArray array : arrays) {
                String letters = inputLetters.substring(inputLetters.length() - array.ndim());
                for (int axis = 0; axis < letters.length(); axis++) {
                    candidates.computeIfAbsent(letters.charAt(axis), letter -> new ArrayList<>()).add(array.chunks().axis(axis));
                }
            }
            Map<Character, long[]> unified = new HashMap<>();
            candidates.forEach((letter, chunkings) -> unified.put(letter, ChunkUnification.common(chunkings)));
            return unified;
        }

        private long[][] outputLengths(String outputLetters, Map<Character, long[]> unified) {
            if (declaredChunks != null) {
                if (declaredChunks.length != outputLetters.length()) {
                    throw new IllegalArgumentException(label + ": chunks " + Chunks.of(declaredChunks) + " have " + declaredChunks.length
                            + " axes but the output has " + outputLetters.length() + " (inputs of shapes " + shapes() + ", dropped axes "
                            + Arrays.toString(droppedAxes) + ", new axes " + newAxes.keySet() + ")");
                }
                return deepClone(declaredChunks);
            }
            long[][] lengths = new long[outputLetters.length()][];
            List<long[]> newAxisLengths = new ArrayList<>(newAxes.values());
            int nextNew = 0;
            for (int axis = 0; axis < lengths.length; axis++) {
                long[] own = unified.get(outputLetters.charAt(axis));
                // New axes take fresh letters in the order of their positions, as newAxes is sorted.
                lengths[axis] = own != null ? own : newAxisLengths.get(nextNew++);
            }
            return lengths;
        }

        private NDArray outputMeta(int outputNdim, Chunks outputChunks) {
            if (meta != null) {
                return meta.ndim() == outputNdim ? meta : ChunkedArray.metaOf(meta.dtype(), outputNdim);
            }
            if (dtype != null) {
                return ChunkedArray.metaOf(dtype, outputNdim);
            }
            NDArray[] metas = arrays.stream().map(ChunkedArray::meta).toArray(NDArray[]::new);
            try {
                NDArray result = plainFunction != null ? plainFunction.apply(metas)
                        : positionedFunction.apply(new BlockInfo(new int[outputNdim], new long[outputNdim], new long[outputNdim],
                                new int[outputNdim], new long[outputNdim]), metas);
                if (result != null) {
                    return ChunkedArray.metaOf(result.dtype(), outputNdim);
                }
            } catch (Exception unsupportedOnEmptyBlocks) {
                // Many functions cannot run on empty blocks; the first input's dtype is the usual answer then.
            }
            return ChunkedArray.metaOf(arrays.getFirst().dtype(), outputNdim);
        }

        /**
         * An internal array whose blocks are {@link BlockInfo} values instead of NDArrays. Blockwise
         * hands a function only blocks and constants, so this is how a task learns where its output
         * block sits; its chunks are the ones the inputs are aligned to, so Blockwise never splits
         * it, and it is never computed on its own.
         */
        private ChunkedArray blockInfoArray(String outputLetters, Map<Character, long[]> unified, Chunks outputChunks) {
            long[][] lengths = new long[outputLetters.length()][];
            Map<Character, Integer> blockCounts = new HashMap<>();
            for (int axis = 0; axis < lengths.length; axis++) {
                char letter = outputLetters.charAt(axis);
                lengths[axis] = unified.getOrDefault(letter, outputChunks.axis(axis));
                blockCounts.put(letter, lengths[axis].length);
                if (lengths[axis].length != outputChunks.blockCount(axis)) {
                    throw new IllegalArgumentException(label + ": chunks " + outputChunks + " have " + outputChunks.blockCount(axis) + " blocks on axis "
                            + axis + " but the inputs, aligned, have " + lengths[axis].length + " (" + Arrays.toString(lengths[axis]) + ")");
                }
            }
            String name = Tokens.name("block-info", outputLetters, outputChunks, Chunks.of(lengths));
            BlockwiseLayer layer = new BlockwiseLayer(name, outputLetters, new BlockPosition(outputChunks),
                    List.of(BlockwiseArgument.blockIndex(outputLetters)), blockCounts, null);
            // Its tasks make a small BlockInfo each, not an array of the block's shape.
            HighLevelGraph graph = HighLevelGraph.empty().with(layer, Set.of()).withFootprint(name, Footprint.uniform(BLOCK_INFO_BYTES, 0));
            return new ChunkedArray(graph, name, Chunks.of(lengths), ChunkedArray.metaOf(DType.INT64, lengths.length));
        }

        private String shapes() {
            return String.join(", ", arrays.stream().map(ChunkedArrayText::shape).toList());
        }

        private static long[][] deepClone(long[][] lengths) {
            long[][] copy = new long[lengths.length][];
            Arrays.setAll(copy, axis -> lengths[axis].clone());
            return copy;
        }
    }

    /** What a task of the block-info layer holds: a BlockInfo, five arrays of one number per axis (a generous bound). */
    private static final long BLOCK_INFO_BYTES = 256;

    /** The output block's {@link BlockInfo} from its block index. */
    record BlockPosition(Chunks outputChunks) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return BlockInfo.of(outputChunks, (int[]) arguments.getFirst());
        }

        @Override
        public boolean isCheap() {
            return true;
        }

        @Override
        public String displayName() {
            return "block-info";
        }
    }

    /** Calls the user's function with the input blocks (and the block info, last, when it asked for it). */
    record MappedBlock(String label, BlockMapper plainFunction, PositionedBlockMapper positionedFunction, int inputCount, int outputNdim)
            implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(List<Object> arguments) throws Exception {
            NDArray[] blocks = new NDArray[inputCount];
            for (int position = 0; position < inputCount; position++) {
                blocks[position] = (NDArray) arguments.get(position);
            }
            BlockInfo info = positionedFunction == null ? null : (BlockInfo) arguments.get(inputCount);
            NDArray result = info == null ? plainFunction.apply(blocks) : positionedFunction.apply(info, blocks);
            if (result == null || result.ndim() != outputNdim) {
                throw new IllegalStateException(label + ": the function returned " + (result == null ? "null" : "a block of shape "
                        + Arrays.toString(result.shape())) + " but the output has " + outputNdim + " axes"
                        + (info == null ? "" : " (output block " + Arrays.toString(info.blockIndex()) + ")"));
            }
            return result;
        }
    }
}

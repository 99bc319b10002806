package org.tessera.io.npy;

import java.io.IOException;
import java.io.Serial;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.BlockMaker;
import org.tessera.array.creation.Creation;
import org.tessera.array.creation.CreationLayer;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.graph.Key;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.BlockwiseArgument;
import org.tessera.graph.layer.BlockwiseLayer;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.optimize.Optimization;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.npy.Npy;

/**
 * Arrays as {@code .npy} files: one memory-mapped file as a chunked array ({@link #fromNpy}), and a
 * directory of blocks along one axis, {@code 0.npy}, {@code 1.npy}, ... with an {@code info} file,
 * which is Dask's {@code to_npy_stack} / {@code from_npy_stack} layout (Dask reads what this writes
 * and the other way round). Each block file is written to a temporary name and renamed, so an
 * interrupted write leaves whole files only.
 */
public final class NpyStack {
    private NpyStack() {
    }

    /** A chunked array over a memory-mapped .npy file; each block copies its region out of the mapping. */
    public static ChunkedArray fromNpy(Path file, ChunkSpec spec) throws IOException {
        // A read copies its region out of the mapping into the block: nothing besides.
        return Creation.fromSource(new NpyFileSource(file), spec, Working.none());
    }

    /** {@link #fromNpy(Path, ChunkSpec)} with Dask's automatic chunks (blocks near the default byte limit). */
    public static ChunkedArray fromNpy(Path file) throws IOException {
        return fromNpy(file, ChunkSpec.auto());
    }

    /**
     * Writes {@code array} to {@code directory} as one .npy file per block along {@code axis} (the
     * other axes are joined into whole blocks first, as Dask does), plus the {@code info} file.
     */
    public static void toNpyStack(Path directory, ChunkedArray array, int axis) throws IOException {
        toNpyStack(directory, array, axis, ChunkedArray.defaultScheduler());
    }

    public static void toNpyStack(Path directory, ChunkedArray array, int axis, Scheduler scheduler) throws IOException {
        int ndim = array.ndim();
        if (axis < -ndim || axis >= ndim) {
            throw new IllegalArgumentException("axis " + axis + " is out of bounds for array of dimension " + ndim);
        }
        int stackAxis = axis < 0 ? axis + ndim : axis;
        long[] shape = array.chunks().requireKnownShape("toNpyStack");
        long[][] lengths = new long[ndim][];
        for (int position = 0; position < ndim; position++) {
            lengths[position] = position == stackAxis ? array.chunks().axis(position) : new long[] {shape[position]};
        }
        ChunkedArray blocks = array.rechunk(Chunks.of(lengths));
        Files.createDirectories(directory);
        writeAtomically(directory.resolve("info"), new StackInfo(lengths, array.dtype(), java.nio.ByteOrder.LITTLE_ENDIAN, stackAxis).toPickle());

        String letters = CreationLayer.AXIS_LETTERS.substring(0, ndim);
        Map<Character, Integer> counts = new java.util.HashMap<>();
        for (int position = 0; position < ndim; position++) {
            counts.put(letters.charAt(position), blocks.chunks().blockCount(position));
        }
        String name = Tokens.name("to-npy-stack", blocks.name(), directory.toAbsolutePath().toString());
        BlockwiseLayer layer = new BlockwiseLayer(name, letters, new WriteBlockFile(directory.toAbsolutePath().toString(), stackAxis),
                List.of(BlockwiseArgument.blockIndex(letters), BlockwiseArgument.blocks(blocks.name(), letters, blocks.chunks().blockCounts())), counts, null);
        List<Key> keys = new ArrayList<>();
        for (int block = 0; block < blocks.chunks().blockCount(stackAxis); block++) {
            int[] index = new int[ndim];
            index[stackAxis] = block;
            keys.add(Key.of(name, index));
        }
        // Each task writes its block to a file and returns its position.
        HighLevelGraph graph = Footprints.writing(blocks.graph().with(layer, Set.of(blocks.name())), name, blocks.chunks(), blocks.dtype(), Working.none());
        scheduler.compute(Optimization.optimize(graph, keys), keys);
    }

    /** Dask's {@code from_npy_stack}: block i along the stacking axis is {@code i.npy}, memory-mapped when read. */
    public static ChunkedArray fromNpyStack(Path directory) throws IOException {
        Path infoFile = directory.resolve("info");
        StackInfo info = StackInfo.fromPickle(Files.readAllBytes(infoFile), infoFile.toString());
        Chunks chunks = Chunks.of(info.chunks());
        String name = Tokens.name("from-npy-stack", directory.toAbsolutePath().toString(), chunks, Files.getLastModifiedTime(infoFile).toMillis());
        return CreationLayer.createReading(name, chunks, ChunkedArray.metaOf(info.dtype(), chunks.ndim()), "from-npy-stack",
                new ReadBlockFile(directory.toAbsolutePath().toString(), info.axis()), Working.none());
    }

    static void writeAtomically(Path file, byte[] bytes) throws IOException {
        Path partial = file.resolveSibling("." + file.getFileName() + "." + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + ".partial");
        try {
            Files.write(partial, bytes);
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /** Writes the block along the stacking axis to {@code <index>.npy}. */
    record WriteBlockFile(String directory, int axis) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) throws IOException {
            int[] index = (int[]) arguments.get(0);
            NDArray block = (NDArray) arguments.get(1);
            Path file = Path.of(directory, index[axis] + ".npy");
            Path partial = file.resolveSibling("." + file.getFileName() + "." + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + ".partial");
            try {
                Npy.write(partial, block);
                Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(partial);
            }
            return index[axis];
        }

        @Override
        public String displayName() {
            return "to-npy-stack";
        }
    }

    /** Reads block {@code i} of the stacking axis from {@code i.npy}, memory-mapped. */
    record ReadBlockFile(String directory, int axis) implements BlockMaker {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray make(int[] blockIndex, long[] blockShape, long[] blockStart) {
            Path file = Path.of(directory, blockIndex[axis] + ".npy");
            try {
                NDArray block = new NpyFileSource(file).read(new long[blockShape.length], blockShape);
                if (!java.util.Arrays.equals(block.shape(), blockShape)) {
                    throw new IllegalStateException(file + " holds shape " + java.util.Arrays.toString(block.shape()) + " but the info file says "
                            + java.util.Arrays.toString(blockShape));
                }
                return block;
            } catch (IOException failure) {
                throw new UncheckedIOException("cannot read block " + blockIndex[axis] + " of the npy stack " + directory + ": " + failure.getMessage(), failure);
            }
        }
    }
}

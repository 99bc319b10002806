package org.tessera.io.hdf5;

import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

import io.jhdf.AbstractNode;
import io.jhdf.HdfFile;
import io.jhdf.api.Dataset;
import io.jhdf.api.Node;
import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.api.dataset.ContiguousDataset;
import io.jhdf.dataset.DatasetBase;
import io.jhdf.exceptions.HdfException;
import io.jhdf.exceptions.HdfFilterException;
import io.jhdf.exceptions.HdfInvalidPathException;
import io.jhdf.filter.FilterManager;
import io.jhdf.object.message.FilterPipelineMessage;
import org.tessera.array.RegionSource;
import org.tessera.graph.metrics.StoreTraffic;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * One HDF5 dataset as a region source: a read touches only the bytes of its region (the runs of a
 * contiguous dataset that the region covers, or the chunks of a chunked dataset that it overlaps).
 *
 * <p>The file is parsed by jhdf, a pure-Java HDF5 library. Chunks filtered with deflate, shuffle
 * and Fletcher-32 alone (what h5py writes) are read with positional reads and decoded here into
 * their blocks ({@link ChunkFilters}); jhdf's pipeline decodes the other filters (LZF, LZ4,
 * bitshuffle). jhdf neither checks nor removes Fletcher-32 checksums, so Tessera does both, and a
 * chunk whose checksum does not match, or whose deflate stream is corrupt, is an
 * {@link Hdf5Exception} naming the file, the dataset and the chunk. Contiguous data is
 * read here with positional reads on the file rather than through jhdf's mapping of the whole
 * dataset, which cannot exceed 2 GiB. Elements are converted from the file's byte order to the
 * native one after reading.
 *
 * <p>The file stays open between reads, as Dask keeps an h5py dataset open: reopening it per block
 * would re-read a chunked dataset's whole chunk index for every block. {@link #close()} releases
 * it; a later read opens it again, as does a copy deserialised on another machine.
 *
 * <p>Example: a dataset of shape (23, 17) in chunks of (5, 4), read at start (4, 3) with shape
 * (2, 2), decodes chunks (0, 0), (0, 1), (1, 0) and (1, 1), since rows 4..5 and columns 3..4 cross
 * a chunk boundary on both axes.
 */
public final class Hdf5Dataset implements RegionSource, Serializable, AutoCloseable {
    @Serial
    private static final long serialVersionUID = 1L;
    /** Bytes moved per positional read of contiguous data: large enough for full disk throughput, small enough to stay off the heap's radar. */
    private static final int TRANSFER_BYTES = 4 << 20;

    /** How the dataset's elements are laid out in the file (HDF5's data layout message). */
    public enum Layout {
        /** The elements in C order at one address, unfiltered. */
        CONTIGUOUS,
        /** A grid of equally shaped chunks, each stored (and filtered) separately; edge chunks are stored whole. */
        CHUNKED,
        /** The elements inside the object header; at most 64 KiB. */
        COMPACT
    }

    private final String file;
    private final String path;
    private final long[] shape;
    private final StoredType storedType;
    private final Layout layout;
    /** The chunk shape of a chunked dataset; null for the other layouts. */
    private final long[] chunkShape;
    /** Where a contiguous dataset's elements start in the file; -1 when no storage was ever allocated (all fill value). */
    private final long dataPosition;
    /** The value of elements never written; null means zero. */
    private final Number fillValue;
    private final List<String> filters;
    /** Whether the chunks carry a Fletcher-32 checksum, which Tessera checks and strips (jhdf does neither). */
    private final boolean checksummed;
    private final long modifiedMillis;
    /** Not serialised: a copy that travels opens the file again where it runs. */
    private transient volatile OpenFile openFile;

    private Hdf5Dataset(String file, String path, long[] shape, StoredType storedType, Layout layout, long[] chunkShape, long dataPosition,
                        Number fillValue, List<String> filters, long modifiedMillis, OpenFile openFile) {
        this.file = file;
        this.path = path;
        this.shape = shape;
        this.storedType = storedType;
        this.layout = layout;
        this.chunkShape = chunkShape;
        this.dataPosition = dataPosition;
        this.fillValue = fillValue;
        this.filters = filters;
        this.checksummed = filters.stream().anyMatch(filter -> filter.endsWith("(id " + Fletcher32.FILTER_ID + ")"));
        this.modifiedMillis = modifiedMillis;
        this.openFile = openFile;
    }

    /**
     * Opens the dataset at {@code datasetPath} ("/group/name" or "group/name") of {@code file}.
     *
     * @throws Hdf5Exception when the path names nothing or a group, or the dataset uses a filter,
     *                       datatype or layout that cannot be read; the message names file and path
     */
    public static Hdf5Dataset open(Path file, String datasetPath) throws IOException {
        String absolute = file.toAbsolutePath().toString();
        String path = datasetPath.startsWith("/") ? datasetPath : "/" + datasetPath;
        String where = "HDF5 dataset " + path + " in " + absolute;
        if (!Files.isRegularFile(file)) {
            throw new java.nio.file.NoSuchFileException(absolute, null, "no HDF5 file there (looking for dataset " + path + ")");
        }
        long modifiedMillis = Files.getLastModifiedTime(file).toMillis();
        Hdf5Files.Opened opened;
        try {
            opened = Hdf5Files.open(file);
        } catch (RuntimeException failure) {
            // Besides HdfException, jhdf reports a malformed file with whatever its parsing threw (buffer underflows,
            // negative sizes, unknown enum values): all of them mean that this is not a readable HDF5 file.
            throw new Hdf5Exception("cannot open " + absolute + " as an HDF5 file: " + failure, failure);
        }
        HdfFile hdf = opened.hdf();
        try {
            Dataset dataset = findDataset(hdf, path, absolute);
            long[] shape = dataset.getDimensionsAsLong();
            if (dataset.isVariableLength()) {
                throw new Hdf5Exception(where + " holds variable-length elements (strings or ragged arrays), which have no Tessera dtype");
            }
            StoredType storedType = StoredType.of(dataset.getDataType(), where);
            List<String> filters;
            try {
                filters = dataset.getFilters().stream().map(filter -> filter.getName() + " (id " + filter.getId() + ")").toList();
            } catch (HdfFilterException unsupported) {
                throw new Hdf5Exception(where + " uses a filter that cannot be decoded: " + unsupported.getMessage()
                        + " (readable: deflate/gzip, shuffle, fletcher32, lzf, lz4, bitshuffle)", unsupported);
            }
            Layout layout = switch (dataset.getDataLayout()) {
                case CONTIGUOUS -> Layout.CONTIGUOUS;
                case CHUNKED -> Layout.CHUNKED;
                case COMPACT -> Layout.COMPACT;
            };
            long[] chunkShape = null;
            long dataPosition = -1;
            switch (layout) {
                case CHUNKED -> chunkShape = Arrays.stream(((ChunkedDataset) dataset).getChunkDimensions()).asLongStream().toArray();
                // HDF5 addresses count from the superblock, which follows the user block.
                case CONTIGUOUS -> dataPosition = dataset.isEmpty() ? -1 : hdf.getUserBlockSize() + ((ContiguousDataset) dataset).getDataAddress();
                case COMPACT -> {
                }
            }
            Number fillValue = dataset.getFillValue() instanceof Number number ? number : null;
            OpenFile openFile = new OpenFile(opened, dataset, file);
            return new Hdf5Dataset(absolute, path, shape, storedType, layout, chunkShape, dataPosition, fillValue, filters, modifiedMillis, openFile);
        } catch (IOException failure) {
            hdf.close();
            throw failure;
        } catch (RuntimeException failure) {
            hdf.close();
            throw new Hdf5Exception(where + " cannot be read, its headers are malformed: " + failure, failure);
        }
    }

    private static Dataset findDataset(HdfFile hdf, String path, String file) throws Hdf5Exception {
        Node node;
        try {
            node = hdf.getByPath(path);
        } catch (HdfInvalidPathException missing) {
            throw new Hdf5Exception("HDF5 file " + file + " has no dataset at " + path + " (its root group holds " + hdf.getChildren().keySet() + ")", missing);
        }
        if (node instanceof Dataset dataset) {
            return dataset;
        }
        throw new Hdf5Exception("in HDF5 file " + file + ", " + path + " is a " + node.getType().toString().toLowerCase(java.util.Locale.ROOT)
                + ", not a dataset" + (node instanceof io.jhdf.api.Group group ? " (it holds " + group.getChildren().keySet() + ")" : ""));
    }

    public Path file() {
        return Path.of(file);
    }

    /** The dataset's absolute path inside the file, e.g. "/a/b/values". */
    public String path() {
        return path;
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public DType dtype() {
        return storedType.dtype();
    }

    public Layout layout() {
        return layout;
    }

    /** The chunk shape of a chunked dataset; empty for a contiguous or compact one. */
    public java.util.Optional<long[]> chunkShape() {
        return java.util.Optional.ofNullable(chunkShape).map(long[]::clone);
    }

    /** The filters of a chunked dataset, in pipeline order, e.g. ["shuffle (id 2)", "deflate (id 1)"]. */
    public List<String> filters() {
        return filters;
    }

    /** Whether elements are stored big-endian (they are read as native arrays either way). */
    public boolean bigEndian() {
        return storedType.bigEndian();
    }

    public String describe() {
        return "HDF5 dataset " + path + " in " + file;
    }

    @Override
    public String toString() {
        return describe() + " (shape " + Arrays.toString(shape) + ", " + storedType.dtype() + (storedType.bigEndian() ? " big-endian" : "") + ", "
                + layout.toString().toLowerCase(java.util.Locale.ROOT) + (chunkShape == null ? "" : " in chunks of " + Arrays.toString(chunkShape))
                + (filters.isEmpty() ? "" : ", filters " + filters) + ")";
    }

    /** The file, the dataset and the file's modification time, so a rewritten file gives new array names. */
    @Override
    public Object identity() {
        return "hdf5:" + file + ":" + path + ":" + modifiedMillis;
    }

    @Override
    public NDArray read(long[] start, long[] regionShape) {
        requireInside(start, regionShape);
        try {
            if (Arrays.stream(regionShape).anyMatch(length -> length == 0)) {
                return NDArray.zeros(dtype(), regionShape);
            }
            return switch (layout) {
                case CONTIGUOUS -> readContiguous(start, regionShape);
                case CHUNKED -> readChunked(start, regionShape);
                case COMPACT -> readCompact(start, regionShape);
            };
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read region " + Arrays.toString(start) + " of shape " + Arrays.toString(regionShape) + " of "
                    + describe() + ": " + failure.getMessage(), failure);
        } catch (HdfException failure) {
            throw new UncheckedIOException(new Hdf5Exception("cannot read region " + Arrays.toString(start) + " of shape " + Arrays.toString(regionShape)
                    + " of " + describe() + ": " + failure.getMessage(), failure));
        } catch (UncheckedIOException failure) {
            throw failure;
        } catch (RuntimeException failure) {
            // jhdf's parsing of a malformed chunk index or filter pipeline, read lazily here, fails with any runtime exception.
            throw new UncheckedIOException(new Hdf5Exception("cannot read region " + Arrays.toString(start) + " of shape " + Arrays.toString(regionShape)
                    + " of " + describe() + ": " + failure, failure));
        }
    }

    /** The whole dataset in memory. */
    public NDArray readAll() {
        return read(new long[shape.length], shape.clone());
    }

    private void requireInside(long[] start, long[] regionShape) {
        boolean inside = start.length == shape.length && regionShape.length == shape.length;
        for (int axis = 0; inside && axis < shape.length; axis++) {
            inside = start[axis] >= 0 && regionShape[axis] >= 0 && start[axis] + regionShape[axis] <= shape[axis];
        }
        if (!inside) {
            throw new IllegalArgumentException("region at " + Arrays.toString(start) + " of shape " + Arrays.toString(regionShape)
                    + " is not inside " + describe() + " of shape " + Arrays.toString(shape));
        }
    }

    /**
     * Reads the runs of a contiguous (C-ordered) dataset that the region covers. The region's
     * trailing axes that span the whole dataset extend a run, so a block of whole rows is one run.
     */
    private NDArray readContiguous(long[] start, long[] regionShape) throws IOException {
        NDArray result = NDArray.zeros(dtype(), regionShape);
        if (dataPosition < 0) {
            fill(result);
            return result;
        }
        int ndim = shape.length;
        int itemSize = dtype().byteSize();
        long[] elementStrides = new long[ndim];
        long stride = 1;
        for (int axis = ndim - 1; axis >= 0; axis--) {
            elementStrides[axis] = stride;
            stride *= shape[axis];
        }
        int runAxis = Math.max(ndim - 1, 0);
        long runElements = ndim == 0 ? 1 : regionShape[ndim - 1];
        while (runAxis > 0 && regionShape[runAxis] == shape[runAxis]) {
            runAxis--;
            runElements *= regionShape[runAxis];
        }
        long firstElement = 0;
        for (int axis = 0; axis < ndim; axis++) {
            firstElement += start[axis] * elementStrides[axis];
        }
        long runBytes = runElements * itemSize;
        FileChannel channel = openFile().channel();
        ByteBuffer transfer = ByteBuffer.allocate((int) Math.min(runBytes, TRANSFER_BYTES));
        MemorySegment destination = result.segment();
        long destinationOffset = result.byteOffset();
        long[] outer = new long[runAxis];
        do {
            long element = firstElement;
            for (int axis = 0; axis < runAxis; axis++) {
                element += outer[axis] * elementStrides[axis];
            }
            readFully(channel, dataPosition + element * itemSize, runBytes, transfer, destination, destinationOffset);
            destinationOffset += runBytes;
        } while (next(outer, regionShape));
        if (storedType.bigEndian()) {
            ByteSwap.swap(destination, result.byteOffset(), result.byteSize(), dtype().realType().byteSize());
        }
        return result;
    }

    private void readFully(FileChannel channel, long position, long length, ByteBuffer transfer, MemorySegment destination, long destinationOffset)
            throws IOException {
        long done = 0;
        while (done < length) {
            transfer.clear().limit((int) Math.min(transfer.capacity(), length - done));
            while (transfer.hasRemaining()) {
                if (channel.read(transfer, position + done + transfer.position()) < 0) {
                    throw new Hdf5Exception(file + " ends before byte " + (position + length) + ", where the data of dataset " + path
                            + " should end: the file is truncated");
                }
            }
            MemorySegment.copy(MemorySegment.ofArray(transfer.array()), 0, destination, destinationOffset + done, transfer.position());
            StoreTraffic.read(transfer.position());
            done += transfer.position();
        }
    }

    /**
     * Decodes the chunks that the region overlaps and copies their overlapping parts; a chunk that
     * was never written reads as the fill value.
     */
    private NDArray readChunked(long[] start, long[] regionShape) throws IOException {
        int ndim = shape.length;
        ChunkedDataset chunked = (ChunkedDataset) openFile().dataset();
        long[] firstChunk = new long[ndim];
        long[] chunkCounts = new long[ndim];
        boolean single = true;
        for (int axis = 0; axis < ndim; axis++) {
            firstChunk[axis] = start[axis] / chunkShape[axis];
            chunkCounts[axis] = (start[axis] + regionShape[axis] - 1) / chunkShape[axis] - firstChunk[axis] + 1;
            single &= chunkCounts[axis] == 1;
        }
        NDArray result = single ? null : NDArray.zeros(dtype(), regionShape);
        long[] step = new long[ndim];
        do {
            int[] chunkOrigin = new int[ndim];
            long[] inChunkStart = new long[ndim];
            long[] inRegionStart = new long[ndim];
            long[] overlap = new long[ndim];
            for (int axis = 0; axis < ndim; axis++) {
                long origin = (firstChunk[axis] + step[axis]) * chunkShape[axis];
                long low = Math.max(start[axis], origin);
                long high = Math.min(start[axis] + regionShape[axis], origin + chunkShape[axis]);
                chunkOrigin[axis] = Math.toIntExact(origin);
                inChunkStart[axis] = low - origin;
                inRegionStart[axis] = low - start[axis];
                overlap[axis] = high - low;
            }
            NDArray chunk = decodeChunk(chunked, chunkOrigin);
            if (single) {
                // One chunk holds the whole region: its decoded part is the answer, with no further copy.
                if (chunk == null) {
                    result = NDArray.zeros(dtype(), regionShape);
                    fill(result);
                } else {
                    result = region(chunk, inChunkStart, overlap);
                }
            } else {
                NDArray target = region(result, inRegionStart, overlap);
                if (chunk == null) {
                    fill(target);
                } else {
                    target.assign(region(chunk, inChunkStart, overlap));
                }
            }
        } while (next(step, chunkCounts));
        return result;
    }

    /** The chunk at element offset {@code chunkOrigin} as an array of the chunk shape, or null when it was never written. */
    private NDArray decodeChunk(ChunkedDataset chunked, int[] chunkOrigin) throws IOException {
        long elements = 1;
        for (long length : chunkShape) {
            elements *= length;
        }
        long expected = elements * dtype().byteSize();
        String where = describe() + ": chunk at " + Arrays.toString(chunkOrigin);
        List<FilterPipelineMessage.FilterInfo> stages = filters.isEmpty() ? List.of() : openFile().filterStages();
        NDArray chunk;
        try {
            if (ChunkFilters.handles(stages)) {
                ByteBuffer raw = chunked.getRawChunkBuffer(chunkOrigin);
                int length = raw.remaining();
                byte[] stored = ChunkFilters.storedBuffer(length);
                openFile().readStored(raw, stored);
                StoreTraffic.read(length);
                chunk = NDArray.empty(dtype(), chunkShape);
                ChunkFilters.decode(stages, stored, length, chunk.segment().asSlice(chunk.byteOffset(), expected), where);
            } else {
                byte[] bytes = checksummed ? decodeChecked(chunked, chunkOrigin) : chunked.getDecompressedChunk(chunkOrigin);
                StoreTraffic.read(bytes.length);
                if (bytes.length != expected) {
                    throw new Hdf5Exception(where + " decoded to " + bytes.length + " bytes, but a chunk of shape " + Arrays.toString(chunkShape)
                            + " and dtype " + dtype() + " has " + expected);
                }
                chunk = NDArray.empty(dtype(), chunkShape);
                MemorySegment.copy(MemorySegment.ofArray(bytes), 0, chunk.segment(), chunk.byteOffset(), expected);
            }
        } catch (HdfFilterException failure) {
            throw new Hdf5Exception(where + " failed to decode: " + failure.getMessage(), failure);
        } catch (HdfException failure) {
            // jhdf has no public "is this chunk allocated" query; a chunk missing from the index is reported with this message.
            if (failure.getMessage() != null && failure.getMessage().startsWith("No chunk with offset")) {
                return null;
            }
            throw failure;
        }
        if (storedType.bigEndian()) {
            ByteSwap.swap(chunk.segment(), chunk.byteOffset(), expected, dtype().realType().byteSize());
        }
        return chunk;
    }

    /**
     * A chunk of a dataset with the Fletcher-32 filter: its stored bytes go through the filters in
     * reverse order, each but Fletcher-32 decoded by jhdf alone, Fletcher-32 checked and stripped here.
     */
    private byte[] decodeChecked(ChunkedDataset chunked, int[] chunkOrigin) throws Hdf5Exception {
        ByteBuffer raw = chunked.getRawChunkBuffer(chunkOrigin);
        byte[] bytes = new byte[raw.remaining()];
        raw.get(bytes);
        List<FilterPipelineMessage.FilterInfo> stages = openFile().filterStages();
        for (int position = stages.size() - 1; position >= 0; position--) {
            FilterPipelineMessage.FilterInfo stage = stages.get(position);
            bytes = stage.getId() == Fletcher32.FILTER_ID
                    ? Fletcher32.verifyAndStrip(bytes, describe() + ": chunk at " + Arrays.toString(chunkOrigin))
                    : FilterManager.getPipeline(List.of(stage)).decode(bytes);
        }
        return bytes;
    }

    /** A compact dataset lives in its object header (at most 64 KiB): it is decoded whole, then the region copied out. */
    private NDArray readCompact(long[] start, long[] regionShape) throws Hdf5Exception {
        OpenFile open = openFile();
        NDArray all = open.compactData();
        if (all == null) {
            ByteBuffer buffer = ((DatasetBase) open.dataset()).getDataBuffer();
            // The shape is checked against the bytes present before the array is allocated: a header may claim any shape.
            long byteSize = Math.multiplyExact(org.tessera.ndarray.layout.Shapes.size(shape), (long) dtype().byteSize());
            if (buffer.remaining() < byteSize) {
                throw new Hdf5Exception(describe() + ": the compact data holds " + buffer.remaining() + " bytes, but shape " + Arrays.toString(shape)
                        + " of " + dtype() + " needs " + byteSize);
            }
            all = NDArray.zeros(dtype(), shape);
            MemorySegment.copy(MemorySegment.ofBuffer(buffer), 0, all.segment(), all.byteOffset(), byteSize);
            if (storedType.bigEndian()) {
                ByteSwap.swap(all.segment(), all.byteOffset(), byteSize, dtype().realType().byteSize());
            }
            open.compactData(all);
        }
        return region(all, start, regionShape).copy();
    }

    private void fill(NDArray target) {
        if (fillValue == null) {
            return;
        }
        switch (dtype().kind()) {
            case FLOAT, COMPLEX -> target.fill(fillValue.doubleValue());
            default -> target.fill(fillValue.longValue());
        }
    }

    private static NDArray region(NDArray array, long[] start, long[] regionShape) {
        NDArray region = array;
        for (int axis = 0; axis < start.length; axis++) {
            region = region.slice(axis, start[axis], 1, regionShape[axis]);
        }
        return region;
    }

    /** Advances {@code index} in C order within {@code counts} (its length may be less than counts'); false after the last. */
    private static boolean next(long[] index, long[] counts) {
        for (int axis = index.length - 1; axis >= 0; axis--) {
            if (++index[axis] < counts[axis]) {
                return true;
            }
            index[axis] = 0;
        }
        return false;
    }

    private OpenFile openFile() {
        OpenFile current = openFile;
        if (current == null) {
            synchronized (this) {
                current = openFile;
                if (current == null) {
                    current = reopen();
                    openFile = current;
                }
            }
        }
        return current;
    }

    private OpenFile reopen() {
        Path location = Path.of(file);
        try {
            long modified = Files.getLastModifiedTime(location).toMillis();
            if (modified != modifiedMillis) {
                throw new IllegalStateException(file + " changed since " + path + " was opened (modified at " + modified + " ms, not "
                        + modifiedMillis + " ms); open it again");
            }
            Hdf5Files.Opened opened = Hdf5Files.open(location);
            return new OpenFile(opened, findDataset(opened.hdf(), path, file), location);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot reopen " + describe() + ": " + failure.getMessage(), failure);
        }
    }

    /** Closes the file; a later read opens it again. */
    @Override
    public synchronized void close() {
        OpenFile current = openFile;
        openFile = null;
        if (current != null) {
            current.close();
        }
    }

    /**
     * The open file and the dataset node in it, plus what is opened or decoded on first use: a
     * channel for positional reads of contiguous data, and a compact dataset's elements.
     */
    private static final class OpenFile {
        private final HdfFile hdf;
        /** The mapping jhdf reads the file through, or null: see {@link Hdf5Files.Opened}. */
        private final MemorySegment mapping;
        private final Dataset dataset;
        private final Path location;
        private FileChannel channel;
        private NDArray compactData;
        private List<FilterPipelineMessage.FilterInfo> filterStages;

        OpenFile(Hdf5Files.Opened opened, Dataset dataset, Path location) {
            this.hdf = opened.hdf();
            this.mapping = opened.mapping();
            this.dataset = dataset;
            this.location = location;
        }

        Dataset dataset() {
            return dataset;
        }

        synchronized FileChannel channel() throws IOException {
            if (channel == null) {
                channel = FileChannel.open(location, StandardOpenOption.READ);
            }
            return channel;
        }

        /**
         * Copies the stored bytes {@code raw} (jhdf's buffer for a chunk) into {@code into}: with
         * positional reads where they lie in the file's mapping, so that reading them leaves no page
         * of the mapping in the process's resident memory; otherwise from the buffer.
         */
        void readStored(ByteBuffer raw, byte[] into) throws IOException {
            int length = raw.remaining();
            long position = raw.isDirect() && mapping != null ? MemorySegment.ofBuffer(raw).address() - mapping.address() : -1;
            if (position < 0 || position + length > mapping.byteSize()) {
                raw.duplicate().get(into, 0, length);
                return;
            }
            FileChannel reader = channel();
            // In pieces: the JDK reads into a heap buffer through a per-thread native buffer as large as the read.
            for (int done = 0; done < length;) {
                ByteBuffer piece = ByteBuffer.wrap(into, done, Math.min(TRANSFER_BYTES, length - done));
                while (piece.hasRemaining()) {
                    if (reader.read(piece, position + piece.position()) < 0) {
                        throw new Hdf5Exception(location + " ends before byte " + (position + length) + ", where a chunk should end: the file is truncated");
                    }
                }
                done = piece.position();
            }
        }

        /** The dataset's filters in the order they were applied on write. */
        synchronized List<FilterPipelineMessage.FilterInfo> filterStages() {
            if (filterStages == null) {
                FilterPipelineMessage message = ((AbstractNode) dataset).getHeader().getMessageOfType(FilterPipelineMessage.class);
                filterStages = List.copyOf(message.getFilters());
            }
            return filterStages;
        }

        synchronized NDArray compactData() {
            return compactData;
        }

        synchronized void compactData(NDArray data) {
            compactData = data;
        }

        synchronized void close() {
            hdf.close();
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // Closing a read-only channel loses nothing.
                }
                channel = null;
            }
        }
    }
}

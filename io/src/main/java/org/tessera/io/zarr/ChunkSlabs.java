package org.tessera.io.zarr;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.tessera.array.RegionSource;
import org.tessera.io.codec.ByteCodec;
import org.tessera.io.codec.IdleBuffers;
import org.tessera.io.store.Store;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.layout.Order;
import org.tessera.ndarray.layout.Strides;

/**
 * Slabs of rows of a region that lies in one chunk of a Zarr v2 array in C order, each decoded
 * alone: a raw chunk is copied row range by row range from its mapping; a Blosc chunk of LZ4
 * streams decodes the rows straight into the slab, the codec's {@link ByteCodec.RangeState}
 * keeping the block a slab ends in for the next; any other Blosc chunk decodes only the internal
 * blocks that hold the rows ({@code blosc_getitem}) into a window kept for the next slab. Either
 * way consecutive slabs decode each internal block once. A slab is then a few hundred
 * kilobytes that a reduction sums while it is in cache, where the whole chunk (32 MB for 2000 x
 * 2000 float64) would be decoded into fresh memory and read back from RAM.
 */
final class ChunkSlabs implements RegionSource.SlabReader {
    /** The least a window decodes at once, so a slab smaller than a codec block does not pay a mapping and a validation each. */
    private static final long LEAST_WINDOW_BYTES = 1 << 20;

    private final Store store;
    private final String key;
    private final ArrayMetadataV2 metadata;
    private final long[] inChunkStart;
    private final long[] regionShape;
    private final long rowBytes;
    private final long chunkBytes;
    private static final Cleaner CLEANER = Cleaner.create();
    /**
     * Windows of closed readers, kept for the next: a reader per block would otherwise allocate one
     * each. A rechunk's new block reads rows of several stored blocks in one task (eight in R7), so
     * more are kept than a buffer per core.
     */
    private static final IdleBuffers IDLE_WINDOWS = IdleBuffers.arrays(16 * Runtime.getRuntime().availableProcessors());

    private byte[] window = new byte[0];
    /** What decoding a range in place keeps for the next (a Blosc block's LZ4 streams), for the bytes mapped now; null until then. */
    private ByteCodec.RangeState ranges;
    private Mapping mapping;
    private long nextRow;
    private long windowStart;
    private long windowEnd;

    private ChunkSlabs(Store store, String key, ArrayMetadataV2 metadata, ChunkOverlap overlap) {
        this.store = store;
        this.key = key;
        this.metadata = metadata;
        this.inChunkStart = overlap.inChunkStart();
        this.regionShape = overlap.shape();
        long[] chunkShape = metadata.chunkShape();
        long row = metadata.dtype().byteSize();
        for (int axis = 1; axis < chunkShape.length; axis++) {
            row *= chunkShape[axis];
        }
        this.rowBytes = row;
        this.chunkBytes = row * chunkShape[0];
    }

    /** Slabs of the region {@code [start, start + shape)} where it lies in one chunk that decodes in pieces or is raw. */
    static Optional<RegionSource.SlabReader> of(Store store, String path, ArrayMetadata metadata, long[] start, long[] shape) {
        if (start.length == 0 || !decodesSlabs(metadata)) {
            return Optional.empty();
        }
        ArrayMetadataV2 version2 = (ArrayMetadataV2) metadata;
        List<ChunkOverlap> overlaps = ChunkOverlap.of(start, shape, version2.chunkShape());
        if (overlaps.size() != 1) {
            return Optional.empty();
        }
        ChunkOverlap overlap = overlaps.getFirst();
        return Optional.of(new ChunkSlabs(store, org.tessera.io.store.StoreKeys.join(path, version2.chunkKey(overlap.chunkIndex())), version2, overlap));
    }

    /** Whether a region inside one chunk of the array decodes alone: Zarr v2 in C order, raw or of a codec that decodes ranges. */
    static boolean decodesSlabs(ArrayMetadata metadata) {
        return metadata instanceof ArrayMetadataV2 version2 && version2.order() == Order.C
                && (version2.compressor() == null || version2.compressor().decodesRanges());
    }

    @Override
    public NDArray slab(long firstRow, long rows) {
        requireRows(firstRow, rows);
        long[] slabShape = metadata.chunkShape();
        slabShape[0] = rows;
        NDArray[] slab = new NDArray[1];
        readRows(firstRow, rows, stored -> {
            if (stored.isEmpty()) {
                slab[0] = metadata.fillValue().fill(slabShape);
            } else {
                slab[0] = NDArray.empty(metadata.dtype(), slabShape);
                copyRun(stored.get(), (inChunkStart[0] + firstRow) * rowBytes, slab[0].segment().asSlice(slab[0].byteOffset(), rows * rowBytes));
            }
        });
        return withinRegion(slab[0]);
    }

    /**
     * Decodes the box straight into {@code target} where each of its rows is one run of the
     * chunk's bytes and of the target's (every axis after the second whole in both), the rows one
     * run where both are consecutive; any other box through a slab.
     */
    @Override
    public void slabInto(long[] start, NDArray target) {
        long rows = target.shape(0);
        requireRows(start[0], rows);
        for (int axis = 1; axis < start.length; axis++) {
            if (start[axis] < 0 || start[axis] + target.shape(axis) > regionShape[axis]) {
                throw new IndexOutOfBoundsException("a box of shape " + Arrays.toString(target.shape()) + " at " + Arrays.toString(start)
                        + " is outside the region of shape " + Arrays.toString(regionShape) + " read from " + where());
            }
        }
        long innerBytes = wholeInnerBytes(start, target);
        if (innerBytes < 0 || target.dtype() != metadata.dtype() || !rowsAreRuns(target)) {
            RegionSource.SlabReader.super.slabInto(start, target);
            return;
        }
        boolean oneAxis = target.ndim() == 1;
        long runBytes = oneAxis ? rows * innerBytes : target.shape(1) * innerBytes;
        long firstRun = (inChunkStart[0] + start[0]) * rowBytes + (oneAxis ? 0 : (inChunkStart[1] + start[1]) * innerBytes);
        long runs = oneAxis ? 1 : rows;
        long targetStride = oneAxis ? 0 : target.byteStride(0);
        boolean consecutive = runs == 1 || runBytes == rowBytes && targetStride == runBytes;
        readRows(start[0], rows, stored -> {
            if (stored.isEmpty()) {
                target.assign(metadata.fillValue().fill(target.shape()));
            } else if (consecutive) {
                copyRun(stored.get(), firstRun, target.segment().asSlice(target.byteOffset(), runs * runBytes));
            } else {
                for (long run = 0; run < runs; run++) {
                    copyRun(stored.get(), firstRun + run * rowBytes, target.segment().asSlice(target.byteOffset() + run * targetStride, runBytes));
                }
            }
        });
    }

    /**
     * The bytes of one element of the box's second axis (of its first, for one axis), where the box
     * takes every axis after its second whole from the chunk, so each of its rows is one run of the
     * chunk's bytes; -1 where it does not.
     */
    private long wholeInnerBytes(long[] start, NDArray target) {
        long[] chunkShape = metadata.chunkShape();
        long bytes = metadata.dtype().byteSize();
        for (int axis = chunkShape.length - 1; axis >= 2; axis--) {
            if (inChunkStart[axis] + start[axis] != 0 || target.shape(axis) != chunkShape[axis]) {
                return -1;
            }
            bytes *= chunkShape[axis];
        }
        return bytes;
    }

    /** Whether each of the target's rows (its axes after the first) is one run of consecutive bytes; a one-axis target must be one run whole. */
    private static boolean rowsAreRuns(NDArray target) {
        if (target.ndim() == 1) {
            return target.isCContiguous();
        }
        long[] shape = target.shape();
        long[] strides = target.byteStrides();
        return Strides.isCContiguous(Arrays.copyOfRange(shape, 1, shape.length), Arrays.copyOfRange(strides, 1, strides.length), target.dtype().byteSize());
    }

    private void requireRows(long firstRow, long rows) {
        if (firstRow < 0 || rows < 0 || firstRow + rows > regionShape[0]) {
            throw new IndexOutOfBoundsException("rows " + firstRow + " to " + (firstRow + rows) + " are outside the " + regionShape[0]
                    + " rows of the region read from " + where());
        }
    }

    /** What a read of rows does with the chunk's stored bytes, empty where the chunk is missing. */
    private interface RowsRead {
        void accept(Optional<MemorySegment> stored) throws IOException;
    }

    /**
     * Hands {@code read} the chunk's stored bytes for rows {@code [firstRow, firstRow + rows)}. A
     * read that goes on from the last one keeps the chunk mapped for the next; any other (the
     * first, a ghost row, a gathered one) maps it for itself alone, so a reader that is dropped
     * half-read holds nothing. From a remote store the first read starts the run too: reading the
     * chunk again would cost a request.
     */
    private void readRows(long firstRow, long rows, RowsRead read) {
        boolean continuing = firstRow == nextRow && (firstRow > 0 || store.isRemote());
        if (!continuing) {
            unmap();
        }
        try (Arena alone = continuing ? null : Arena.ofConfined()) {
            read.accept(continuing ? stored() : store.map(key, alone));
        } catch (IOException failure) {
            throw new UncheckedIOException(where() + ": cannot read rows " + firstRow + " to " + (firstRow + rows) + ": " + failure.getMessage(), failure);
        } finally {
            if (!continuing) {
                forgetRanges();
            }
        }
        nextRow = firstRow + rows;
        if (nextRow == regionShape[0]) {
            close();
        }
    }

    /** Decoded bytes {@code [from, from + target.byteSize())} of the chunk into {@code target}, in the platform's byte order. */
    private void copyRun(MemorySegment stored, long from, MemorySegment target) throws IOException {
        copyDecoded(stored, from, target);
        if (metadata.endian().byteOrder() == ByteOrder.BIG_ENDIAN) {
            ChunkBytes.swap(target, metadata.dtype().realType().byteSize());
        }
    }

    /** Scattered rows in one pass: the chunk mapped once for all of them, each codec piece decoded once, then let go. */
    @Override
    public NDArray rows(long[] rows) {
        for (int rank = 0; rank < rows.length; rank++) {
            if (rows[rank] < 0 || rows[rank] >= regionShape[0] || rank > 0 && rows[rank] <= rows[rank - 1]) {
                throw new IndexOutOfBoundsException("rows " + Arrays.toString(rows) + " are not increasing rows of the " + regionShape[0]
                        + " rows of the region read from " + where());
            }
        }
        long[] stackedShape = metadata.chunkShape();
        stackedShape[0] = rows.length;
        unmap();
        NDArray stacked;
        try (Arena arena = Arena.ofConfined()) {
            Optional<MemorySegment> stored = store.map(key, arena);
            if (stored.isEmpty()) {
                stacked = metadata.fillValue().fill(stackedShape);
            } else {
                // Every row is written below; the rows are often the picks a task hands on, and then a block the scheduler gives back.
                stacked = NDArray.emptyBlock(metadata.dtype(), Order.C, stackedShape);
                MemorySegment target = stacked.segment().asSlice(stacked.byteOffset(), rows.length * rowBytes);
                for (int rank = 0; rank < rows.length; rank++) {
                    copyDecoded(stored.get(), (inChunkStart[0] + rows[rank]) * rowBytes, target.asSlice(rank * rowBytes, rowBytes));
                }
                if (metadata.endian().byteOrder() == ByteOrder.BIG_ENDIAN) {
                    ChunkBytes.swap(target, metadata.dtype().realType().byteSize());
                }
            }
        } catch (IOException failure) {
            throw new UncheckedIOException(where() + ": cannot read " + rows.length + " rows: " + failure.getMessage(), failure);
        } finally {
            forgetRanges();
        }
        close();
        return withinRegion(stacked);
    }

    /** The region's part of every axis after the first (an edge chunk is stored whole, padded past the array's end). */
    private NDArray withinRegion(NDArray slab) {
        long[] slabShape = slab.shape();
        NDArray view = slab;
        for (int axis = 1; axis < slabShape.length; axis++) {
            if (inChunkStart[axis] != 0 || regionShape[axis] != slabShape[axis]) {
                view = view.slice(axis, inChunkStart[axis], 1, regionShape[axis]);
            }
        }
        return view;
    }

    /**
     * The chunk's stored bytes, mapped once for a run of consecutive slabs and kept until the run
     * ends (at the region's last row, a slab elsewhere, or {@link #close}): a mapping per slab cost
     * more than the slab's decoding (each unmapping interrupts the other cores to flush their
     * TLBs). A reader dropped in the middle of a run is unmapped by the cleaner.
     */
    private Optional<MemorySegment> stored() throws IOException {
        if (mapping == null) {
            Arena arena = Arena.ofShared();
            try {
                Optional<MemorySegment> bytes = store.map(key, arena);
                mapping = new Mapping(bytes);
                mapping.cleanable = CLEANER.register(this, arena::close);
            } catch (IOException | RuntimeException failure) {
                arena.close();
                throw failure;
            }
        }
        return mapping.bytes;
    }

    @Override
    public void close() {
        unmap();
        if (window.length > 0) {
            IDLE_WINDOWS.giveBack(window);
            window = new byte[0];
            windowStart = windowEnd = 0;
        }
    }

    /** Forgets what ranges decoded in place kept: the stored bytes they came from are let go. */
    private void forgetRanges() {
        if (ranges != null) {
            ranges.close();
            ranges = null;
        }
    }

    private void unmap() {
        forgetRanges();
        if (mapping != null) {
            mapping.cleanable.clean();
            mapping = null;
        }
    }

    /** A mapping of the chunk, and the cleaner's action that unmaps it. */
    private static final class Mapping {
        final Optional<MemorySegment> bytes;
        Cleaner.Cleanable cleanable;

        Mapping(Optional<MemorySegment> bytes) {
            this.bytes = bytes;
        }
    }

    /** Decoded bytes {@code [from, from + target.byteSize())} of the chunk into {@code target}. */
    private void copyDecoded(MemorySegment stored, long from, MemorySegment target) throws IOException {
        ByteCodec codec = metadata.compressor();
        long to = from + target.byteSize();
        if (from < 0 || to > chunkBytes) {
            // The window below would never reach bytes past the chunk's end.
            throw new IndexOutOfBoundsException(where() + ": bytes " + from + " to " + to + " are outside the chunk's " + chunkBytes);
        }
        if (codec == null) {
            if (stored.byteSize() != chunkBytes) {
                throw new ZarrFormatException(where() + ": holds " + stored.byteSize() + " bytes, but an uncompressed chunk of shape "
                        + Arrays.toString(metadata.chunkShape()) + " and dtype " + metadata.dtype() + " has " + chunkBytes);
            }
            MemorySegment.copy(stored, from, target, 0, target.byteSize());
            return;
        }
        if (ranges == null) {
            ranges = codec.rangeState();
        }
        try {
            if (codec.decodeRangeInPlace(stored, chunkBytes, from, target, ranges)) {
                return;
            }
        } catch (IOException corrupt) {
            throw new ZarrFormatException(where() + ": " + corrupt.getMessage(), corrupt);
        }
        // Piece by piece through the window, so a slab that runs past it keeps the part decoded already.
        for (long position = from; position < to;) {
            if (position < windowStart || position >= windowEnd) {
                decodeWindow(codec, stored, position);
            }
            long count = Math.min(to, windowEnd) - position;
            MemorySegment.copy(MemorySegment.ofArray(window), position - windowStart, target, position - from, count);
            position += count;
        }
    }

    /** Decodes the codec's pieces from the one that holds byte {@code position}, at least {@link #LEAST_WINDOW_BYTES} of them, into the window. */
    private void decodeWindow(ByteCodec codec, MemorySegment stored, long position) throws ZarrFormatException {
        try {
            long unit = codec.rangeUnitBytes(stored);
            long start = position / unit * unit;
            long end = Math.min(chunkBytes, start + Math.ceilDiv(LEAST_WINDOW_BYTES, unit) * unit);
            if (window.length < end - start) {
                window = IDLE_WINDOWS.borrow(Math.toIntExact(end - start));
            }
            windowStart = windowEnd = 0;
            codec.decodeRangeInto(stored, chunkBytes, start, MemorySegment.ofArray(window).asSlice(0, end - start));
            windowStart = start;
            windowEnd = end;
        } catch (IOException corrupt) {
            throw new ZarrFormatException(where() + ": " + corrupt.getMessage(), corrupt);
        }
    }

    private String where() {
        return store.describe() + ": chunk " + key;
    }
}

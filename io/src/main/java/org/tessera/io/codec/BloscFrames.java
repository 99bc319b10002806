package org.tessera.io.codec;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Blosc 1 frames of LZ4 or LZ4HC streams (zarr-python's default compressor), or stored whole,
 * byte-shuffled or not, decoded here straight into the target, any range of them.
 *
 * <p>Why not c-blosc: for float64 data most of a block's streams are stored as they are (the low
 * bytes of the mantissas do not compress; in zarr-python's store of uniform values seven of each
 * block's eight), so decoding is moving bytes, and c-blosc 1.21 moves them three or four times: each
 * stream copied into a scratch block, unshuffled (SSE2 in Debian's build) into a second one, which
 * {@code blosc_getitem} copies into the target. Here a stored stream is read once, from the frame
 * itself, by the unshuffle that writes the target ({@link Unshuffle}: whole vectors of elements on
 * the SIMD provider); only an LZ4 stream is first decoded (by the system liblz4) into a buffer. The
 * store's 64 chunks of 32 MB, mapped, decode on one core of the AMD EPYC (Zen 4) in 0.35-0.36 s at
 * AVX-512 and 0.52 s at AVX2, against 0.58 s for c-blosc (the mappings' page faults in all), and a
 * range of rows needs no window of whole blocks to copy from.
 *
 * <p>The frame's layout (c-blosc's README_CHUNK_FORMAT): a 16-byte header (format version, the
 * compressor's version, flags, type size, then the decoded size, the block size and the frame's
 * size, little-endian), unless the frame is stored whole the offset of each block, and each block
 * as streams of a 4-byte length and that many bytes: a block is split into a stream per byte of
 * the type where c-blosc splits it (not the last, shorter block; not when flagged), and a stream
 * as long as its decoded part is stored, any other LZ4. Every offset and length is checked against
 * the frame before it is read. Other compressors, bit shuffle and other format versions are
 * c-blosc's.
 */
final class BloscFrames {
    /** {@code -Dtessera.blosc.decoder=c-blosc} decodes every frame with c-blosc, so that the two can be compared. */
    static final String DECODER_PROPERTY = "tessera.blosc.decoder";
    private static final boolean ENABLED = !"c-blosc".equals(System.getProperty(DECODER_PROPERTY, "tessera").strip());

    private static final int HEADER_BYTES = 16;
    private static final int FORMAT_VERSION = 2;
    private static final int SHUFFLE = 0x01;
    private static final int STORED_WHOLE = 0x02;
    private static final int BIT_SHUFFLE = 0x04;
    private static final int FUTURE_FLAG = 0x08;
    private static final int DONT_SPLIT = 0x10;
    private static final int LZ4_FORMAT = 1;
    /** c-blosc splits a block into a stream per byte of the type for types of at most this many bytes... */
    private static final int MAX_SPLITS = 16;
    /** ...and at least this many elements per stream. */
    private static final int MIN_SPLIT_ELEMENTS = 128;

    private BloscFrames() {
    }

    /** Whether the frame {@code stored} starts with is one this decoder takes. */
    static boolean decodes(MemorySegment stored) {
        if (!ENABLED || stored.byteSize() < HEADER_BYTES || Byte.toUnsignedInt(stored.get(ValueLayout.JAVA_BYTE, 0)) != FORMAT_VERSION) {
            return false;
        }
        int flags = flags(stored);
        if ((flags & (BIT_SHUFFLE | FUTURE_FLAG)) != 0) {
            return false;
        }
        return (flags & STORED_WHOLE) != 0 || flags >>> 5 == LZ4_FORMAT && Lz4Library.instance().isPresent();
    }

    /**
     * Whether this decoder takes the frame and the range {@code [offset, offset + length)} of its
     * decoded bytes: a shuffled frame's range begins at an element and ends at one or at the end.
     */
    static boolean decodesRange(MemorySegment stored, long decodedSize, long offset, long length) {
        if (!decodes(stored)) {
            return false;
        }
        return !cutsItems(flags(stored), typeSize(stored), offset, length, decodedSize);
    }

    /** Whether {@code [offset, offset + length)} of a frame of these flags and item size cuts a shuffled item: the end may cut the frame's last bytes only. */
    private static boolean cutsItems(int flags, int typeSize, long offset, long length, long decodedSize) {
        return shuffled(flags, typeSize) && (offset % typeSize != 0 || (offset + length) % typeSize != 0 && offset + length != decodedSize);
    }

    private static int flags(MemorySegment stored) {
        return Byte.toUnsignedInt(stored.get(ValueLayout.JAVA_BYTE, 2));
    }

    private static int typeSize(MemorySegment stored) {
        return Byte.toUnsignedInt(stored.get(ValueLayout.JAVA_BYTE, 3));
    }

    private static boolean shuffled(int flags, int typeSize) {
        return (flags & SHUFFLE) != 0 && typeSize > 1;
    }

    /**
     * Decoded bytes {@code [offset, offset + target.byteSize())} of the frame at the start of
     * {@code stored}, which must decode to {@code decodedSize} bytes, into {@code target}. Bytes
     * after the frame are ignored. A frame that is not what its header says is an IOException
     * naming the block and the stream.
     */
    static void decode(MemorySegment stored, long decodedSize, long offset, MemorySegment target) throws IOException {
        try (Streams streams = new Streams()) {
            decode(stored, decodedSize, offset, target, streams);
        }
    }

    /**
     * As {@link #decode(MemorySegment, long, long, MemorySegment)}, keeping what the header says
     * and the last block's streams (LZ4 ones decoded) in {@code streams} for the next range of the
     * same frame.
     */
    static void decode(MemorySegment stored, long decodedSize, long offset, MemorySegment target, Streams streams) throws IOException {
        Layout layout = streams.layout(stored);
        long length = target.byteSize();
        if (layout.decoded != decodedSize) {
            throw new IOException("blosc: the frame decodes to " + layout.decoded + " bytes, but the chunk holds " + decodedSize);
        }
        if (offset < 0 || offset + length > layout.decoded) {
            throw new IOException("blosc: cannot decode bytes " + offset + " to " + (offset + length) + " of a " + layout.decoded + "-byte frame");
        }
        int typeSize = layout.typeSize;
        boolean shuffled = shuffled(layout.flags, typeSize);
        if (cutsItems(layout.flags, typeSize, offset, length, layout.decoded)) {
            throw new IllegalArgumentException("blosc: bytes " + offset + " to " + (offset + length) + " cut " + typeSize + "-byte items of a shuffled frame");
        }
        if (length == 0) {
            return;
        }
        if ((layout.flags & STORED_WHOLE) != 0) {
            MemorySegment.copy(layout.frame, HEADER_BYTES + offset, target, 0, length);
            return;
        }
        for (long block = offset / layout.blockBytes; block * layout.blockBytes < offset + length; block++) {
            long blockStart = block * layout.blockBytes;
            long from = Math.max(offset, blockStart) - blockStart;
            long to = Math.min(offset + length, blockStart + layout.blockBytes) - blockStart;
            Block decoded = streams.block(layout, block);
            long at = blockStart + from - offset;
            if (shuffled) {
                unshuffled(decoded, typeSize, from, to, target, at);
            } else {
                concatenated(decoded.parts, from, to, target, at);
            }
        }
    }

    /**
     * Bytes {@code [from, to)} of a shuffled block: the runs of its whole elements unshuffled, and
     * the bytes of no whole element after them (a block that is one stream) as they are.
     */
    private static void unshuffled(Block block, int typeSize, long from, long to, MemorySegment target, long at) {
        long elements = block.size / typeSize;
        long wholeEnd = Math.min(to, elements * typeSize);
        if (wholeEnd > from) {
            Unshuffle.unshuffle(block.runs, block.plainRuns, from / typeSize, (wholeEnd - from) / typeSize, target, at);
        }
        long restFrom = Math.max(from, elements * typeSize);
        if (to > restFrom) {
            MemorySegment.copy(block.parts[0], restFrom, target, at + restFrom - from, to - restFrom);
        }
    }

    /** Bytes {@code [from, to)} of a block that is its streams one after the other. */
    private static void concatenated(MemorySegment[] parts, long from, long to, MemorySegment target, long at) {
        long partBytes = parts[0].byteSize();
        for (int part = (int) (from / partBytes); part < parts.length && part * partBytes < to; part++) {
            long start = Math.max(from, part * partBytes);
            long end = Math.min(to, (part + 1) * partBytes);
            MemorySegment.copy(parts[part], start - part * partBytes, target, at + start - from, end - start);
        }
    }

    /** What the header says of the frame, checked, and where its streams begin. */
    private record Layout(MemorySegment stored, MemorySegment frame, int flags, int typeSize, long decoded, long blockBytes, long firstStream) {
        static Layout of(MemorySegment stored) throws IOException {
            MemorySegment frame = stored.asSlice(0, Blosc.frameLength(stored));
            int flags = BloscFrames.flags(frame);
            int typeSize = BloscFrames.typeSize(frame);
            long decoded = Integer.toUnsignedLong(frame.get(Blosc.LITTLE_ENDIAN_INT, 4));
            long blockBytes = Integer.toUnsignedLong(frame.get(Blosc.LITTLE_ENDIAN_INT, 8));
            if ((flags & STORED_WHOLE) != 0) {
                if (frame.byteSize() != HEADER_BYTES + decoded) {
                    throw new IOException("blosc: a frame stored whole holds its " + decoded + " bytes after the header, but is " + frame.byteSize()
                            + " bytes");
                }
                return new Layout(stored, frame, flags, typeSize, decoded, blockBytes, HEADER_BYTES);
            }
            if (typeSize == 0 || blockBytes == 0) {
                throw new IOException("blosc: the frame's header gives a type size of " + typeSize + " and a block size of " + blockBytes);
            }
            if (shuffled(flags, typeSize) && blockBytes % typeSize != 0) {
                throw new IOException("blosc: the block size " + blockBytes + " is not a whole number of " + typeSize + "-byte items");
            }
            long blocks = Math.ceilDiv(decoded, blockBytes);
            long firstStream = HEADER_BYTES + 4 * blocks;
            if (firstStream > frame.byteSize()) {
                throw new IOException("blosc: the offsets of the frame's " + blocks + " blocks do not fit in its " + frame.byteSize() + " bytes");
            }
            return new Layout(stored, frame, flags, typeSize, decoded, blockBytes, firstStream);
        }
    }

    /**
     * A block's streams, each its share of the block's {@code size} decoded bytes (a stored stream
     * the frame's own bytes, an LZ4 one decoded), and for a shuffled block the runs of its
     * elements' bytes, with their plain native views ({@link Unshuffle#plainRuns}).
     */
    private record Block(long size, MemorySegment[] parts, MemorySegment[] runs, MemorySegment[] plainRuns) {
    }

    /**
     * What one reader decoded of a frame, kept for its next range of the same frame: the header,
     * and the last block's streams (consecutive slabs of rows share the blocks at their edges),
     * its LZ4 streams decoded into a buffer. Keyed by the stored segment itself; {@link #close}
     * forgets them and gives the buffer back, and a reader closes it whenever its stored bytes
     * change. Not for use by two threads at once.
     */
    static final class Streams implements ByteCodec.RangeState {
        /**
         * Buffers of closed readers, kept for the next. Native, as the frames they are read beside
         * are mapped: the unshuffle's loads see one kind of memory.
         */
        private static final ConcurrentLinkedDeque<MemorySegment> IDLE = new ConcurrentLinkedDeque<>();
        private static final int IDLE_LIMIT = 16 * Runtime.getRuntime().availableProcessors();

        private Layout layout;
        private long blockIndex = -1;
        private Block block;
        private MemorySegment buffer = MemorySegment.NULL;

        private Layout layout(MemorySegment stored) throws IOException {
            if (layout == null || layout.stored != stored) {
                layout = null;
                blockIndex = -1;
                block = null;
                layout = Layout.of(stored);
            }
            return layout;
        }

        private Block block(Layout layout, long index) throws IOException {
            if (index != blockIndex) {
                blockIndex = -1;
                block = read(layout, index);
                blockIndex = index;
            }
            return block;
        }

        /** The block's streams, after checking each offset and length against the frame. */
        private Block read(Layout layout, long index) throws IOException {
            MemorySegment frame = layout.frame;
            int typeSize = layout.typeSize;
            long size = Math.min(layout.blockBytes, layout.decoded - index * layout.blockBytes);
            boolean last = size < layout.blockBytes;
            int splits = !last && (layout.flags & DONT_SPLIT) == 0 && typeSize <= MAX_SPLITS && size / typeSize >= MIN_SPLIT_ELEMENTS ? typeSize : 1;
            if (size % splits != 0) {
                throw new IOException("blosc: block " + index + " of " + size + " bytes does not split into " + splits + " streams");
            }
            long streamBytes = size / splits;
            MemorySegment[] parts = new MemorySegment[splits];
            long position = Integer.toUnsignedLong(frame.get(Blosc.LITTLE_ENDIAN_INT, HEADER_BYTES + 4 * index));
            for (int stream = 0; stream < splits; stream++) {
                if (position < layout.firstStream || position > frame.byteSize() - 4) {
                    throw new IOException("blosc: stream " + stream + " of block " + index + " starts at byte " + position + ", outside the frame's "
                            + layout.firstStream + " to " + frame.byteSize());
                }
                long compressed = frame.get(Blosc.LITTLE_ENDIAN_INT, position);
                position += 4;
                if (compressed <= 0 || compressed > frame.byteSize() - position) {
                    throw new IOException("blosc: stream " + stream + " of block " + index + " claims " + compressed + " bytes at byte " + position
                            + " of a " + frame.byteSize() + "-byte frame");
                }
                MemorySegment bytes = frame.asSlice(position, compressed);
                parts[stream] = compressed == streamBytes ? bytes : lz4(index, stream, bytes, streamBytes, layout.blockBytes);
                position += compressed;
            }
            if (!shuffled(layout.flags, typeSize)) {
                return new Block(size, parts, null, null);
            }
            MemorySegment[] runs = parts;
            if (splits == 1) {
                long elements = size / typeSize;
                runs = new MemorySegment[typeSize];
                for (int run = 0; run < typeSize; run++) {
                    runs[run] = parts[0].asSlice(run * elements, elements);
                }
            }
            return new Block(size, parts, runs, Unshuffle.plainRuns(runs));
        }

        /** Stream {@code stream} of the block, decoded from {@code compressed} into its place in the buffer. */
        private MemorySegment lz4(long index, int stream, MemorySegment compressed, long streamBytes, long blockBytes) throws IOException {
            if (buffer.byteSize() < blockBytes) {
                giveBack();
                buffer = borrow(blockBytes);
            }
            MemorySegment into = buffer.asSlice(stream * streamBytes, streamBytes);
            try {
                Lz4Library.instance().orElseThrow(() -> new IOException("an LZ4 stream, and no system liblz4")).decode(compressed, into);
            } catch (IOException corrupt) {
                throw new IOException("blosc: stream " + stream + " of block " + index + ": " + corrupt.getMessage(), corrupt);
            }
            return into;
        }

        @Override
        public void close() {
            layout = null;
            blockIndex = -1;
            block = null;
            giveBack();
        }

        private static MemorySegment borrow(long byteSize) {
            MemorySegment idle = IDLE.pollFirst();
            if (idle != null && idle.byteSize() >= byteSize) {
                return idle;
            }
            // Freed by the collector once no reader holds it and the pool has let it go.
            return Arena.ofAuto().allocate(byteSize, 64);
        }

        private void giveBack() {
            if (buffer.byteSize() > 0 && IDLE.size() < IDLE_LIMIT) {
                IDLE.offerFirst(buffer);
            }
            buffer = MemorySegment.NULL;
        }
    }
}

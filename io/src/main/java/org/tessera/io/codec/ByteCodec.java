package org.tessera.io.codec;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * A transformation of a chunk's bytes and its inverse: the compressors of Zarr v2 and the
 * bytes-to-bytes codecs of Zarr v3. A closed set: each format maps its JSON to one of these
 * records, and every record says in its name and parameters what a reader of the metadata sees.
 */
public sealed interface ByteCodec extends java.io.Serializable permits Gzip, Zlib, Zstd, Blosc, Crc32c {

    /** The encoded bytes; {@code itemSize} is the element size of the array, which Blosc shuffles by. */
    byte[] encode(byte[] data, int itemSize) throws IOException;

    /** The decoded bytes; corrupt input is an IOException naming the codec. */
    byte[] decode(byte[] data) throws IOException;

    /** Whether {@link #decodeInto} can decode straight into memory here (Blosc with a system c-blosc). */
    default boolean decodesInto() {
        return false;
    }

    /**
     * Decodes {@code data} straight into {@code target}, which must be exactly the decoded size,
     * without going through byte arrays; only where {@link #decodesInto()} says so. Corrupt input
     * is an IOException naming the codec.
     */
    default void decodeInto(MemorySegment data, MemorySegment target) throws IOException {
        throw new UnsupportedOperationException(this + " decodes through byte arrays only");
    }

    /** Whether {@link #encodeInto} encodes memory into native memory here (Blosc with a system c-blosc). */
    default boolean encodesInto() {
        return false;
    }

    /**
     * Encodes {@code data} (native memory or a heap array's) into the start of {@code target},
     * native memory of at least {@link #encodedBound} bytes, and returns the encoded length: no byte
     * arrays, so a chunk written from pooled memory allocates nothing on the heap. Only where
     * {@link #encodesInto()} says so; {@code itemSize} as for {@link #encode}.
     */
    default long encodeInto(MemorySegment data, int itemSize, MemorySegment target) throws IOException {
        throw new UnsupportedOperationException(this + " encodes through byte arrays only");
    }

    /** The most bytes {@link #encodeInto} writes for {@code size} bytes of data. */
    default long encodedBound(long size) {
        throw new UnsupportedOperationException(this + " encodes through byte arrays only");
    }

    /**
     * Whether {@link #decodeRangeInto} decodes part of a frame here at a cost in proportion to the
     * part (Blosc's internal blocks decode on their own, through a system c-blosc); a deflate or
     * zstd stream decodes only whole.
     */
    default boolean decodesRanges() {
        return false;
    }

    /**
     * The size of the pieces of {@code data}'s decoded bytes that decode independently (a Blosc
     * frame's internal blocks): a range that starts and ends on them decodes nothing twice. Only
     * where {@link #decodesRanges()} says so. Corrupt input is an IOException naming the codec.
     */
    default long rangeUnitBytes(MemorySegment data) throws IOException {
        throw new UnsupportedOperationException(this + " decodes whole frames only");
    }

    /**
     * Decodes the decoded bytes {@code [offset, offset + target.byteSize())} of {@code data}, a frame
     * that must decode to {@code decodedSize} bytes in all, straight into {@code target}; only where
     * {@link #decodesRanges()} says so, with {@code offset} and the size whole multiples of the frame's
     * item size. Corrupt input is an IOException naming the codec.
     */
    default void decodeRangeInto(MemorySegment data, long decodedSize, long offset, MemorySegment target) throws IOException {
        throw new UnsupportedOperationException(this + " decodes whole frames only");
    }

    /**
     * What decoding a range in place keeps for the next range of the same frame (the decoded
     * streams of the block the range ended in). One reader's; closing it forgets the frame and
     * gives its memory back, and the reader closes it whenever the stored bytes it decodes change.
     */
    interface RangeState extends AutoCloseable {
        @Override
        void close();
    }

    /** A state for {@link #decodeRangeInPlace}; a codec that keeps nothing between ranges hands one that holds nothing. */
    default RangeState rangeState() {
        return () -> {
        };
    }

    /**
     * Decodes the decoded bytes {@code [offset, offset + target.byteSize())} of {@code data}, a
     * frame that must decode to {@code decodedSize} bytes in all, straight into {@code target},
     * whatever pieces the range cuts, keeping in {@code state} what the next range of the same
     * frame can use; false, with nothing done, where this frame's ranges must be whole pieces
     * ({@link #decodeRangeInto} into a window). Corrupt input is an IOException naming the codec.
     */
    default boolean decodeRangeInPlace(MemorySegment data, long decodedSize, long offset, MemorySegment target, RangeState state) throws IOException {
        return false;
    }
}

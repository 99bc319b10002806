package org.tessera.io.codec;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Locale;

/**
 * Blosc 1 frames: a shuffle filter, then an inner compressor, over blocks of the chunk. Encoding
 * and decoding run c-blosc 1.21 through the JNI library {@code com.scalableminds:blosc-java}, which
 * bundles it for Linux x86-64, macOS and Windows; on other platforms using this codec is an
 * UnsupportedOperationException naming the platform.
 *
 * @param compressorName the inner compressor: lz4, lz4hc, blosclz, zstd or zlib (c-blosc's names;
 *                       snappy is not built into the bundled library)
 * @param level          0 (no compression) to 9
 * @param shuffle        the filter applied before compressing
 * @param typeSize       bytes per element for shuffling, or 0 to shuffle by the array's item size
 * @param blockSize      bytes per block, or 0 to let Blosc choose
 */
public record Blosc(String compressorName, int level, Shuffle shuffle, int typeSize, int blockSize) implements ByteCodec {
    static final ValueLayout.OfInt LITTLE_ENDIAN_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Blosc's filters; numcodecs numbers them -1 (auto), 0, 1 and 2. */
    public enum Shuffle {
        /** Bit shuffle for 1-byte items, byte shuffle otherwise (numcodecs' AUTOSHUFFLE, -1). */
        AUTO(-1),
        NONE(0),
        BYTE(1),
        BIT(2);

        private final int code;

        Shuffle(int code) {
            this.code = code;
        }

        /** numcodecs' number for the filter, as Zarr v2 metadata stores it. */
        public int code() {
            return code;
        }

        public static Shuffle fromCode(int code) {
            for (Shuffle shuffle : values()) {
                if (shuffle.code == code) {
                    return shuffle;
                }
            }
            throw new IllegalArgumentException("blosc: unknown shuffle " + code + " (expected -1, 0, 1 or 2)");
        }
    }

    public Blosc {
        compressorName = compressorName.toLowerCase(Locale.ROOT);
        if (!java.util.List.of("lz4", "lz4hc", "blosclz", "zstd", "zlib").contains(compressorName)) {
            throw new IllegalArgumentException("blosc: compressor '" + compressorName + "' is not supported (expected lz4, lz4hc, blosclz, zstd or zlib)");
        }
        if (level < 0 || level > 9) {
            throw new IllegalArgumentException("blosc: level must be between 0 and 9, got " + level);
        }
        if (typeSize < 0 || blockSize < 0) {
            throw new IllegalArgumentException("blosc: type size " + typeSize + " and block size " + blockSize + " must not be negative");
        }
    }

    /** numcodecs' default: lz4 at level 5 with byte shuffle. */
    public static Blosc defaults() {
        return new Blosc("lz4", 5, Shuffle.BYTE, 0, 0);
    }

    @Override
    public byte[] encode(byte[] data, int itemSize) throws IOException {
        int elementSize = elementSize(itemSize);
        Shuffle effective = effectiveShuffle(elementSize);
        Native.require();
        try {
            return com.scalableminds.bloscjava.Blosc.compress(data, elementSize, com.scalableminds.bloscjava.Blosc.Compressor.fromString(compressorName),
                    level, com.scalableminds.bloscjava.Blosc.Shuffle.fromInt(effective.code()), blockSize, 1);
        } catch (RuntimeException failure) {
            throw new IOException("blosc (" + compressorName + ", " + effective + " shuffle): cannot encode " + data.length + " bytes: " + failure.getMessage(), failure);
        }
    }

    @Override
    public byte[] decode(byte[] data) throws IOException {
        long frameLength = frameLength(MemorySegment.ofArray(data));
        byte[] frame = frameLength == data.length ? data : Arrays.copyOf(data, (int) frameLength);
        Native.require();
        try {
            return com.scalableminds.bloscjava.Blosc.decompress(frame, 1);
        } catch (RuntimeException failure) {
            throw new IOException("blosc: cannot decode " + data.length + " bytes: " + failure.getMessage(), failure);
        }
    }

    /** The size shuffling works in: the codec's own type size, else the array's item size. */
    private int elementSize(int itemSize) {
        return typeSize > 0 ? typeSize : Math.max(itemSize, 1);
    }

    /** numcodecs' AUTO: bit shuffle for 1-byte elements, byte shuffle otherwise. */
    private Shuffle effectiveShuffle(int elementSize) {
        return shuffle == Shuffle.AUTO ? (elementSize == 1 ? Shuffle.BIT : Shuffle.BYTE) : shuffle;
    }

    /** Where a system c-blosc with {@code blosc_compress_ctx} loads. */
    @Override
    public boolean encodesInto() {
        return BloscLibrary.instance().filter(BloscLibrary::encodes).isPresent();
    }

    /** Through the system c-blosc, from native or heap memory into native memory. */
    @Override
    public long encodeInto(MemorySegment data, int itemSize, MemorySegment target) throws IOException {
        int elementSize = elementSize(itemSize);
        return library().encode(level, effectiveShuffle(elementSize).code(), elementSize, compressorName, blockSize, data, target);
    }

    @Override
    public long encodedBound(long size) {
        return size + BloscLibrary.MAX_OVERHEAD;
    }

    /** Where a system c-blosc loads ({@link BloscLibrary}). */
    @Override
    public boolean decodesInto() {
        return BloscLibrary.instance().isPresent();
    }

    /**
     * Straight into {@code target}: LZ4 frames by {@link BloscFrames}, others by the system c-blosc;
     * no byte arrays, no copies; bytes after the frame are ignored.
     */
    @Override
    public void decodeInto(MemorySegment data, MemorySegment target) throws IOException {
        if (BloscFrames.decodes(data)) {
            BloscFrames.decode(data, target.byteSize(), 0, target);
            return;
        }
        library().decode(data, target);
    }

    /** Through the system c-blosc, where one loads: a frame's internal blocks decode on their own. */
    @Override
    public boolean decodesRanges() {
        return BloscLibrary.instance().isPresent();
    }

    @Override
    public long rangeUnitBytes(MemorySegment data) throws IOException {
        return BloscLibrary.blockBytes(data);
    }

    @Override
    public void decodeRangeInto(MemorySegment data, long decodedSize, long offset, MemorySegment target) throws IOException {
        if (BloscFrames.decodesRange(data, decodedSize, offset, target.byteSize())) {
            BloscFrames.decode(data, decodedSize, offset, target);
            return;
        }
        library().decodeRange(data, decodedSize, offset, target);
    }

    /** The LZ4 streams of the block a range ended in, for the next range of the same frame. */
    @Override
    public RangeState rangeState() {
        return new BloscFrames.Streams();
    }

    /** Frames {@link BloscFrames} decodes, any range (a shuffled frame's from item to item). */
    @Override
    public boolean decodeRangeInPlace(MemorySegment data, long decodedSize, long offset, MemorySegment target, RangeState state) throws IOException {
        if (!BloscFrames.decodesRange(data, decodedSize, offset, target.byteSize())) {
            return false;
        }
        if (!(state instanceof BloscFrames.Streams streams)) {
            throw new IllegalArgumentException("blosc: decodes ranges with the state of its own rangeState(), not " + state);
        }
        BloscFrames.decode(data, decodedSize, offset, target, streams);
        return true;
    }

    private static BloscLibrary library() {
        return BloscLibrary.instance().orElseThrow(() -> new UnsupportedOperationException("blosc: no system c-blosc (libblosc1) was found"));
    }

    /**
     * The length of the frame that {@code stored} starts with, as its header states it: bytes
     * 12..15 hold the frame's compressed length, header included (little-endian), and the frame
     * ends there. z5 (z5py) cuts the zero-filled buffer it compressed into to the frame's length
     * plus 16 bytes (BLOSC_MAX_OVERHEAD) and stores all of it, so 16 zero bytes follow the frame;
     * c-blosc and zarr-python read the frame and ignore what follows it, and so do both decoders
     * here. A frame longer than the stored bytes is truncated, an IOException.
     */
    static long frameLength(MemorySegment stored) throws IOException {
        if (stored.byteSize() < 16) {
            throw new IOException("blosc: " + stored.byteSize() + " bytes are too few for the 16-byte Blosc header");
        }
        long frameLength = Integer.toUnsignedLong(stored.get(LITTLE_ENDIAN_INT, 12));
        if (frameLength < 16 || frameLength > stored.byteSize()) {
            throw new IOException("blosc: the header states a frame of " + frameLength + " bytes, but "
                    + (frameLength < 16 ? "a frame holds at least its 16-byte header" : "only " + stored.byteSize() + " bytes are stored (truncated)"));
        }
        return frameLength;
    }

    /** Loads the JNI library once, and turns a platform without it into a clear error. */
    private static final class Native {
        private static final Throwable LOAD_FAILURE = load();

        private static Throwable load() {
            try {
                Class.forName("com.scalableminds.bloscjava.Blosc", true, Blosc.class.getClassLoader());
                return null;
            } catch (ClassNotFoundException | LinkageError | RuntimeException failure) {
                return failure;
            }
        }

        static void require() {
            if (LOAD_FAILURE != null) {
                throw new UnsupportedOperationException("blosc: the native c-blosc library of com.scalableminds:blosc-java cannot be loaded on "
                        + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ": " + LOAD_FAILURE, LOAD_FAILURE);
            }
        }
    }
}

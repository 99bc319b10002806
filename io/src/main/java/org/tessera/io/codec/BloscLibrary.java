package org.tessera.io.codec;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A system c-blosc 1 (Debian's {@code libblosc1}) called through the FFM API, which decodes a frame
 * straight into the memory of the array that holds the chunk: the JNI library behind
 * {@link Blosc#decode} takes and returns Java byte arrays, so a chunk read through it is copied
 * from the store into an array, decoded into a second one, and copied into the block.
 *
 * <p>The calls are critical downcalls, which may read and write heap arrays in place and hold off
 * the JVM's safepoints while they run. A chunk is compressed by one {@code blosc_compress_ctx} call
 * from wherever its values are, the heap included, so that it need not be copied to native memory
 * first (a 32 MB chunk of uniform float64 takes 17-20 ms on one core of the AMD EPYC, which a
 * safepoint then waits at most). A frame of at most {@link #WHOLE_FRAME_BYTES} decoded bytes is
 * decoded by one {@code blosc_decompress_ctx} call (a 32 MB chunk takes about 8 ms here); a
 * larger one in pieces of {@link #PIECE_BYTES} ({@code blosc_getitem} decodes only the internal
 * blocks a piece covers, through a scratch block of its own: 3.3 GB/s on one core of this AMD EPYC
 * against 4.3 GB/s for the whole call), so no call holds off a safepoint for long. Before anything
 * is decoded, the frame is
 * checked by {@code blosc_cbuffer_validate} against the bytes actually present, so a header that
 * claims more than is there never makes c-blosc read past them. The header decides the frame's
 * length: bytes after it (z5 writes its whole output buffer) are ignored, as c-blosc and
 * zarr-python ignore them.
 *
 * <p>{@code -Dtessera.blosc.library=PATH} names the library; {@code -Dtessera.blosc.library=none}
 * turns this path off, so that the JNI path can be compared with it.
 */
final class BloscLibrary {
    static final String LIBRARY_PROPERTY = "tessera.blosc.library";
    /** The largest frame decoded by one call. */
    static final long WHOLE_FRAME_BYTES = 64L << 20;
    /** The most decoded bytes one call produces for a larger frame. */
    static final int PIECE_BYTES = 1 << 22;

    private static final List<String> LOADER_NAMES = List.of("libblosc.so.1", "libblosc.so", "libblosc.1.dylib", "libblosc.dylib");
    private static final Optional<BloscLibrary> FOUND = find();

    private final String location;
    private final MethodHandle validate;
    private final MethodHandle getItem;
    private final MethodHandle decompress;
    /** {@code blosc_compress_ctx}, or null where the library lacks it. */
    private final MethodHandle compress;
    /** Compressor names as C strings, made once each. */
    private final java.util.Map<String, MemorySegment> compressorNames = new java.util.concurrent.ConcurrentHashMap<>();

    private BloscLibrary(String location, SymbolLookup lookup) {
        this.location = location;
        Linker linker = Linker.nativeLinker();
        Linker.Option critical = Linker.Option.critical(true);
        // int blosc_cbuffer_validate(const void *cbuffer, size_t cbytes, size_t *nbytes)
        validate = linker.downcallHandle(lookup.find("blosc_cbuffer_validate").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS), critical);
        // int blosc_getitem(const void *src, int start, int nitems, void *dest)
        getItem = linker.downcallHandle(lookup.find("blosc_getitem").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS), critical);
        // int blosc_decompress_ctx(const void *src, void *dest, size_t destsize, int numinternalthreads)
        decompress = linker.downcallHandle(lookup.find("blosc_decompress_ctx").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT), critical);
        // int blosc_compress_ctx(int clevel, int doshuffle, size_t typesize, size_t nbytes, const void *src, void *dest,
        //                        size_t destsize, const char *compressor, size_t blocksize, int numinternalthreads)
        // Critical, so that a chunk on the heap is compressed where it is rather than copied to native memory first.
        compress = lookup.find("blosc_compress_ctx").map(symbol -> linker.downcallHandle(symbol, FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT), critical)).orElse(null);
    }

    /** The library in use, if one loads. */
    static Optional<BloscLibrary> instance() {
        return FOUND;
    }

    String location() {
        return location;
    }

    private static Optional<BloscLibrary> find() {
        String requested = System.getProperty(LIBRARY_PROPERTY, "").strip();
        if (requested.equals("none")) {
            return Optional.empty();
        }
        for (String location : requested.isEmpty() ? LOADER_NAMES : List.of(requested)) {
            try {
                SymbolLookup lookup = location.contains("/") ? SymbolLookup.libraryLookup(Path.of(location), Arena.global())
                        : SymbolLookup.libraryLookup(location, Arena.global());
                if (Stream.of("blosc_cbuffer_validate", "blosc_getitem", "blosc_decompress_ctx").allMatch(name -> lookup.find(name).isPresent())) {
                    return Optional.of(new BloscLibrary(location, lookup));
                }
            } catch (IllegalArgumentException | IllegalCallerException | UnsupportedOperationException notLoadable) {
                // The next name, or the JNI library.
            }
        }
        return Optional.empty();
    }

    /** Whether {@link #encode} is there: the library has {@code blosc_compress_ctx}. */
    boolean encodes() {
        return compress != null;
    }

    /**
     * Compresses {@code source} (native memory or a heap array's) into a frame at the start of
     * {@code target} and returns the frame's length; {@code target} is native memory at least
     * {@link #MAX_OVERHEAD} bytes longer than {@code source}, so that any input fits.
     */
    int encode(int level, int shuffle, int typeSize, String compressor, int blockSize, MemorySegment source, MemorySegment target)
            throws IOException {
        if (!target.isNative() || target.byteSize() < source.byteSize() + MAX_OVERHEAD) {
            throw new IllegalArgumentException("blosc: compresses into native memory at least " + MAX_OVERHEAD + " bytes longer than its input; got "
                    + source + " into " + target);
        }
        MemorySegment name = compressorNames.computeIfAbsent(compressor, given -> Arena.global().allocateFrom(given));
        int written;
        try {
            // One internal thread: the scheduler already runs one task per core.
            written = (int) compress.invokeExact(level, shuffle, (long) typeSize, source.byteSize(), source, target, target.byteSize(), name,
                    (long) blockSize, 1);
        } catch (Throwable unexpected) {
            throw new IllegalStateException("blosc_compress_ctx of " + location + " failed", unexpected);
        }
        if (written <= 0) {
            throw new IOException("blosc (" + compressor + "): cannot encode " + source.byteSize() + " bytes (c-blosc returned " + written + ")");
        }
        return written;
    }

    /** What a frame may add to the bytes it holds (c-blosc's BLOSC_MAX_OVERHEAD). */
    static final int MAX_OVERHEAD = 16;

    /**
     * Decodes the frame at the start of {@code frame} into {@code target}, whose size must be the
     * frame's decoded size. Corrupt or truncated input is an IOException; nothing past the frame's
     * stated length is read.
     */
    void decode(MemorySegment frame, MemorySegment target) throws IOException {
        long decodedSize = validatedSize(frame);
        if (decodedSize != target.byteSize()) {
            throw new IOException("blosc: the frame decodes to " + decodedSize + " bytes, but the chunk holds " + target.byteSize());
        }
        int itemSize = itemSize(frame);
        if (decodedSize % itemSize != 0) {
            throw new IOException("blosc: " + decodedSize + " decoded bytes are not a whole number of " + itemSize + "-byte items");
        }
        if (decodedSize <= WHOLE_FRAME_BYTES) {
            int written;
            try {
                // One internal thread: the scheduler already runs one task per core.
                written = (int) decompress.invokeExact(frame, target, decodedSize, 1);
            } catch (Throwable unexpected) {
                throw new IllegalStateException("blosc_decompress_ctx of " + location + " failed", unexpected);
            }
            if (written != decodedSize) {
                throw new IOException("blosc: cannot decode the " + decodedSize + "-byte frame (c-blosc returned " + written + ")");
            }
            NativeHeapTrim.decoded(decodedSize);
            return;
        }
        decodePieces(frame, 0, itemSize, target);
    }

    /**
     * Decodes the decoded bytes {@code [offset, offset + target.byteSize())} of the frame, which must
     * decode to {@code expectedSize} bytes, into {@code target}: {@code blosc_getitem} decodes only
     * the internal blocks the range meets. The frame is validated first, as for a whole decode.
     */
    void decodeRange(MemorySegment frame, long expectedSize, long offset, MemorySegment target) throws IOException {
        long decodedSize = validatedSize(frame);
        if (decodedSize != expectedSize) {
            throw new IOException("blosc: the frame decodes to " + decodedSize + " bytes, but the chunk holds " + expectedSize);
        }
        int itemSize = itemSize(frame);
        if (offset < 0 || offset + target.byteSize() > decodedSize || offset % itemSize != 0 || target.byteSize() % itemSize != 0) {
            throw new IOException("blosc: cannot decode bytes " + offset + " to " + (offset + target.byteSize()) + " of a " + decodedSize
                    + "-byte frame of " + itemSize + "-byte items");
        }
        decodePieces(frame, offset / itemSize, itemSize, target);
    }

    /** The frame's item size (header byte 3), which c-blosc's item positions count in. */
    private static int itemSize(MemorySegment frame) throws IOException {
        int itemSize = Byte.toUnsignedInt(frame.get(ValueLayout.JAVA_BYTE, 3));
        if (itemSize == 0) {
            throw new IOException("blosc: the frame's header gives an item size of 0");
        }
        return itemSize;
    }

    /** The size of the frame's internal blocks, each decoded on its own (header bytes 8..11), after checking the header is there. */
    static long blockBytes(MemorySegment frame) throws IOException {
        Blosc.frameLength(frame);
        long blockBytes = Integer.toUnsignedLong(frame.get(Blosc.LITTLE_ENDIAN_INT, 8));
        if (blockBytes == 0) {
            throw new IOException("blosc: the frame's header gives a block size of 0");
        }
        return blockBytes;
    }

    /** {@code target.byteSize()} decoded bytes from item {@code firstItem} on, in calls of at most {@link #PIECE_BYTES}. */
    private void decodePieces(MemorySegment frame, long firstItem, int itemSize, MemorySegment target) throws IOException {
        long items = target.byteSize() / itemSize;
        long piece = Math.max(1, PIECE_BYTES / itemSize);
        for (long start = 0; start < items; start += piece) {
            int count = (int) Math.min(piece, items - start);
            int written;
            try {
                written = (int) getItem.invokeExact(frame, (int) (firstItem + start), count, target.asSlice(start * itemSize, (long) count * itemSize));
            } catch (Throwable unexpected) {
                throw new IllegalStateException("blosc_getitem of " + location + " failed", unexpected);
            }
            if (written != count * itemSize) {
                throw new IOException("blosc: cannot decode items " + (firstItem + start) + " to " + (firstItem + start + count)
                        + " of the frame (c-blosc returned " + written + ")");
            }
            NativeHeapTrim.decoded(written);
        }
    }

    /** The decoded size the frame's header states, after c-blosc checked the frame against the bytes present. */
    private long validatedSize(MemorySegment frame) throws IOException {
        long stated = Blosc.frameLength(frame);
        long[] size = new long[1];
        int status;
        try {
            status = (int) validate.invokeExact(frame, stated, MemorySegment.ofArray(size));
        } catch (Throwable unexpected) {
            throw new IllegalStateException("blosc_cbuffer_validate of " + location + " failed", unexpected);
        }
        if (status < 0) {
            throw new IOException("blosc: the " + stated + "-byte frame is not valid Blosc data");
        }
        return size[0];
    }
}

package org.tessera.io.codec;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.Optional;

/**
 * The system liblz4 through FFM: LZ4 blocks (the format c-blosc's LZ4 and LZ4HC streams are in)
 * decoded into memory the caller gives, native or a heap array's. Every c-blosc 1 of a Linux
 * distribution links it, so it is there where {@code libblosc1} is.
 */
final class Lz4Library {
    private static final List<String> LOADER_NAMES = List.of("liblz4.so.1", "liblz4.so", "liblz4.1.dylib", "liblz4.dylib");
    private static final Optional<Lz4Library> FOUND = find();

    private final String location;
    private final MethodHandle decompressSafe;

    private Lz4Library(String location, SymbolLookup lookup) {
        this.location = location;
        // int LZ4_decompress_safe(const char *src, char *dst, int compressedSize, int dstCapacity): critical, so that
        // a stream is decoded into a heap array in place; a block's stream takes tens of microseconds.
        decompressSafe = Linker.nativeLinker().downcallHandle(lookup.find("LZ4_decompress_safe").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
                Linker.Option.critical(true));
    }

    /** The library, if one loads. */
    static Optional<Lz4Library> instance() {
        return FOUND;
    }

    private static Optional<Lz4Library> find() {
        for (String location : LOADER_NAMES) {
            try {
                SymbolLookup lookup = SymbolLookup.libraryLookup(location, Arena.global());
                if (lookup.find("LZ4_decompress_safe").isPresent()) {
                    return Optional.of(new Lz4Library(location, lookup));
                }
            } catch (IllegalArgumentException | IllegalCallerException | UnsupportedOperationException notLoadable) {
                // The next name.
            }
        }
        return Optional.empty();
    }

    /**
     * Decodes the LZ4 block {@code source} into {@code target}, which it must fill exactly; liblz4's
     * safe decoder never reads or writes outside the two, so corrupt input is an IOException.
     */
    void decode(MemorySegment source, MemorySegment target) throws IOException {
        if (source.byteSize() > Integer.MAX_VALUE || target.byteSize() > Integer.MAX_VALUE) {
            throw new IOException("lz4: a block of " + source.byteSize() + " bytes into " + target.byteSize() + " is past LZ4's 2 GB");
        }
        int written;
        try {
            written = (int) decompressSafe.invokeExact(source, target, (int) source.byteSize(), (int) target.byteSize());
        } catch (Throwable unexpected) {
            throw new IllegalStateException("LZ4_decompress_safe of " + location + " failed", unexpected);
        }
        if (written != target.byteSize()) {
            throw new IOException("lz4: " + source.byteSize() + " bytes do not decode to " + target.byteSize()
                    + (written < 0 ? " (corrupt data, liblz4 returned " + written + ")" : " but to " + written));
        }
    }
}

package org.tessera.array;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.tessera.array.chunks.Chunks;
import org.tessera.ndarray.NDArray;

/**
 * Deterministic names, as Dask's {@code tokenize}: the same operation on the same inputs gets the
 * same name, so building an expression twice gives the same graph keys (and a shared sub-expression
 * is computed once). A token is a 64-bit hash printed as 16 hex digits.
 */
public final class Tokens {
    private static final long PRIME = 0x100000001b3L;

    private Tokens() {
    }

    /** {@code prefix-token}, e.g. {@code add-3f2a...}. */
    public static String name(String prefix, Object... parts) {
        return prefix + "-" + token(parts);
    }

    public static String token(Object... parts) {
        Hasher hasher = new Hasher();
        for (Object part : parts) {
            hasher.add(part);
        }
        return HexFormat.of().toHexDigits(hasher.hash);
    }

    /** FNV-1a over a canonical reading of each value, with a final mix. */
    private static final class Hasher {
        long hash = 0xcbf29ce484222325L;

        void addLong(long value) {
            hash = (hash ^ value) * PRIME;
            hash ^= hash >>> 29;
        }

        void addString(String text) {
            addLong(text.length());
            for (byte character : text.getBytes(StandardCharsets.UTF_8)) {
                addLong(character);
            }
        }

        void add(Object part) {
            switch (part) {
                case null -> addLong(0x5eed);
                case String text -> addString(text);
                case Number number -> addString(number.getClass().getSimpleName() + ":" + number);
                case long[] longs -> {
                    for (long value : longs) {
                        addLong(value);
                    }
                }
                case int[] ints -> {
                    for (int value : ints) {
                        addLong(value);
                    }
                }
                case Chunks chunks -> addChunks(chunks);
                case NDArray array -> addArray(array);
                case List<?> list -> {
                    addLong(list.size());
                    list.forEach(this::add);
                }
                case Map<?, ?> map -> map.forEach((key, value) -> {
                    add(key);
                    add(value);
                });
                case Object[] array -> Arrays.stream(array).forEach(this::add);
                default -> addString(part.getClass().getName() + ":" + part);
            }
        }

        /** Hashes the block lengths themselves: 100,000 blocks formatted as text cost more than building their graph. */
        private void addChunks(Chunks chunks) {
            addString("chunks");
            addLong(chunks.ndim());
            for (int axis = 0; axis < chunks.ndim(); axis++) {
                long[] lengths = chunks.axis(axis);
                addLong(lengths.length);
                for (long length : lengths) {
                    addLong(length);
                }
            }
        }

        /** Hashes dtype, shape and contents: two arrays with equal data get the same token. */
        private void addArray(NDArray array) {
            addString(array.dtype().numpyName());
            addLong(array.ndim());
            Arrays.stream(array.shape()).forEach(this::addLong);
            NDArray contiguous = array.ascontiguousarray();
            MemorySegment segment = contiguous.segment().asSlice(contiguous.byteOffset(), contiguous.byteSize());
            long bytes = segment.byteSize();
            long words = bytes / 8;
            long wordHash = hash;
            for (long word = 0; word < words; word++) {
                // The shift after each product, as in addLong: without it a word's top bit reaches only the product's
                // top bit, and the next word's top bit cancels it, so [a, b] and [-a, -b] (a complex and its
                // negation) had one token, one name, and a stack of the two computed the first twice.
                wordHash = (wordHash ^ segment.get(ValueLayout.JAVA_LONG_UNALIGNED, word * 8)) * PRIME;
                wordHash ^= wordHash >>> 29;
            }
            hash = wordHash;
            for (long rest = words * 8; rest < bytes; rest++) {
                addLong(segment.get(ValueLayout.JAVA_BYTE, rest));
            }
        }
    }
}

package org.tessera.ndarray.simd;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.Objects;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The byte unshuffle of 2-, 4- and 8-byte elements on the Vector API: a vector of each run's next
 * bytes, then rounds of interleaving pairs of vectors (bytes, then pairs of bytes, then fours), as
 * many as the element has powers of two, leave whole elements in order. Each interleave selects
 * from two vectors taken as one table of twice the lanes ({@code selectFrom(v1, v2)}, one permute
 * instruction with AVX-512 VBMI). On one core of the AMD EPYC (Zen 4), 8-byte elements from runs in
 * cache take 0.19 ns each at AVX-512 and 1.0 ns at AVX2, against 1.47 ns for the scalar transpose of
 * eight words; below 512-bit vectors they are therefore made by widening each run's bytes to ints
 * instead ({@link #widenedEights}, 0.47 ns at AVX2). A two-vector {@code rearrange} of shuffles with exceptional indices ran at 0.22 and
 * 0.84 ns, but C2 took 0.55 s to compile this loop that way against 0.24 s, and until C2 has
 * compiled it the loop runs the Vector API's Java fallback, a vector allocated per operation: the
 * first pass over a store took 1.5-2.2 s instead of 0.9 s, and the R workloads' peaks were 30-60 MB
 * higher.
 *
 * <p>The form is what C2 compiles well at both levels, found by trying: an int loop over elements
 * with the loads written out, and one class of segment at each load and store (see {@link #plain}).
 * A long loop index had its hoisted range checks deoptimised again and again; a reinterpretation
 * through a species the vector derives (bytes as shorts) did not fold at AVX2 and ran the Java
 * fallback; one-vector rearranges and a blend ran at half the speed; the loop body as a method of
 * its own, at two thirds.
 */
final class ByteUnshuffle {
    private static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final ByteVector SINGLES_LOW = interleave(1, false);
    private static final ByteVector SINGLES_HIGH = interleave(1, true);
    private static final ByteVector PAIRS_LOW = interleave(2, false);
    private static final ByteVector PAIRS_HIGH = interleave(2, true);
    private static final ByteVector QUADS_LOW = interleave(4, false);
    private static final ByteVector QUADS_HIGH = interleave(4, true);
    /** The widening loop's elements per round: as many as a vector of ints has lanes, each run's next bytes a vector of that many lanes. */
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Byte> INT_LANES_OF_BYTES = VectorSpecies.of(byte.class, VectorShape.forBitSize(INTS.length() * Byte.SIZE));
    private static final IntVector WORDS_LOW = IntVector.fromArray(INTS, interleaveIndices(INTS.length(), 1, false), 0);
    private static final IntVector WORDS_HIGH = IntVector.fromArray(INTS, interleaveIndices(INTS.length(), 1, true), 0);
    /**
     * Whether 8-byte elements go to the widening loop: below 512-bit vectors a byte selection from
     * two vectors has no one instruction (AVX2 has no cross-lane byte permute), and on the AMD EPYC
     * at AVX2 the widening loop takes 0.47 ns an element against the selecting loop's 1.0 (scalar
     * transpose 1.47); at AVX-512 the selecting loop's 0.19 ns beats the widening loop's 0.26.
     * 4-byte elements widened the same way took 0.38-0.40 ns at AVX2 against the selecting loop's
     * 0.34, so they do not widen.
     */
    private static final boolean WIDENS_EIGHTS = BYTES.vectorBitSize() < 512;

    private ByteUnshuffle() {
    }

    /** The vector's bits, for the benchmark's kernel widths. */
    static int bits() {
        return BYTES.vectorBitSize();
    }

    /** Elements a loop takes at a time for elements of {@code size} bytes: a call does a whole number of these. */
    static int width(int size) {
        return widens(size) ? INTS.length() : BYTES.length();
    }

    /** Whether elements of {@code size} bytes go to the widening loop. */
    private static boolean widens(int size) {
        return size == Long.BYTES && WIDENS_EIGHTS;
    }

    private static ByteVector interleave(int group, boolean high) {
        int[] indices = interleaveIndices(BYTES.length(), group, high);
        byte[] lanes = new byte[indices.length];
        for (int lane = 0; lane < lanes.length; lane++) {
            lanes[lane] = (byte) indices[lane];
        }
        return ByteVector.fromArray(BYTES, lanes, 0);
    }

    /**
     * The indices, into two vectors of {@code length} lanes taken as one table of twice the lanes,
     * of an interleave of groups of {@code group} lanes of their first (or second) halves: group
     * {@code 2k} of the result is group {@code k} of the first vector, group {@code 2k + 1} group
     * {@code k} of the second (lane {@code length + i} of the table).
     */
    static int[] interleaveIndices(int length, int group, boolean high) {
        int[] lanes = new int[length];
        for (int lane = 0; lane < length; lane++) {
            int pair = lane / (2 * group);
            int within = lane % (2 * group);
            int source = pair * group + within % group + (high ? length / 2 : 0);
            lanes[lane] = within < group ? source : source + length;
        }
        return lanes;
    }

    /**
     * See {@code VectorMath.unshuffle}: whole vectors of elements only, none where an element is not
     * 2, 4 or 8 bytes, where a run is on the heap, or where the output is on the heap other than in
     * whole words of a {@code long[]} (the arrays behind Tessera's blocks).
     */
    static long unshuffle(MemorySegment[] runs, long first, long count, MemorySegment output, long outputOffset) {
        int size = runs.length;
        int width = width(size);
        // Under 2 GB of output a call, so that the loops count in ints.
        int elements = (int) Math.min(count - count % width, Integer.MAX_VALUE / 8 / width * width);
        long[] words = wordsOf(output, outputOffset);
        if (elements == 0 || size != 2 && size != 4 && size != 8 || !output.isNative() && words == null) {
            return 0;
        }
        MemorySegment[] plain = new MemorySegment[size];
        for (int run = 0; run < size; run++) {
            if (!runs[run].isNative()) {
                return 0;
            }
            plain[run] = plain(runs[run]).asSlice(first, elements);
        }
        Objects.checkFromIndexSize(outputOffset, (long) elements * size, output.byteSize());
        // A heap output is written through its array, a native one through a plain segment: each store sees one kind of memory.
        MemorySegment target = words == null ? plain(output).asSlice(outputOffset, (long) elements * size) : null;
        int word = words == null ? 0 : Math.toIntExact((output.address() + outputOffset) / Long.BYTES);
        switch (size) {
            case 2 -> twos(plain[0], plain[1], elements, target, words, word);
            case 4 -> fours(plain[0], plain[1], plain[2], plain[3], elements, target, words, word);
            default -> {
                if (widens(size)) {
                    widenedEights(plain[0], plain[1], plain[2], plain[3], plain[4], plain[5], plain[6], plain[7], elements, target, words, word);
                } else {
                    eights(plain[0], plain[1], plain[2], plain[3], plain[4], plain[5], plain[6], plain[7], elements, target, words, word);
                }
            }
        }
        return elements;
    }

    /** The {@code long[]} behind a heap output whose bytes from {@code offset} start at a whole word of it; null otherwise. */
    private static long[] wordsOf(MemorySegment output, long offset) {
        return !output.isNative() && output.heapBase().orElse(null) instanceof long[] words && (output.address() + offset) % Long.BYTES == 0
                ? words : null;
    }

    /**
     * Stores {@code vector} at byte {@code at} of the output: of {@code output}, or where it is null
     * of {@code words} from word {@code word}. The loops pass the same kind of output on every
     * iteration, so C2 splits each loop in two, and no store site sees two kinds of memory.
     */
    private static void put(ByteVector vector, MemorySegment output, long[] words, int word, long at) {
        if (output != null) {
            vector.intoMemorySegment(output, at, ORDER);
        } else {
            vector.reinterpretAsLongs().intoArray(words, word + (int) (at >>> 3));
        }
    }

    /** {@link #put(ByteVector, MemorySegment, long[], int, long)} for the widening loop's vectors of ints. */
    private static void put(IntVector vector, MemorySegment output, long[] words, int word, long at) {
        if (output != null) {
            vector.intoMemorySegment(output, at, ORDER);
        } else {
            vector.reinterpretAsLongs().intoArray(words, word + (int) (at >>> 3));
        }
    }

    /**
     * The same memory as a native segment of the global scope: every load and store then sees one
     * class of segment whatever the caller's were (a file's mapping beside an arena's buffer), which
     * C2 compiles to plain vector instructions; a load that had seen two classes was deoptimised
     * again and again, at a twentieth of the speed. The caller keeps the memory alive.
     */
    private static MemorySegment plain(MemorySegment segment) {
        return MemorySegment.ofAddress(segment.address()).reinterpret(segment.byteSize());
    }

    private static void twos(MemorySegment r0, MemorySegment r1, int elements, MemorySegment output, long[] words, int word) {
        int width = BYTES.length();
        long step = BYTES.vectorByteSize();
        for (int element = 0; element + width <= elements; element += width) {
            ByteVector v0 = ByteVector.fromMemorySegment(BYTES, r0, element, ORDER);
            ByteVector v1 = ByteVector.fromMemorySegment(BYTES, r1, element, ORDER);
            long at = (long) element * 2;
            put(SINGLES_LOW.selectFrom(v0, v1), output, words, word, at);
            put(SINGLES_HIGH.selectFrom(v0, v1), output, words, word, at + step);
        }
    }

    private static void fours(MemorySegment r0, MemorySegment r1, MemorySegment r2, MemorySegment r3, int elements, MemorySegment output,
            long[] words, int word) {
        int width = BYTES.length();
        long step = BYTES.vectorByteSize();
        for (int element = 0; element + width <= elements; element += width) {
            ByteVector v0 = ByteVector.fromMemorySegment(BYTES, r0, element, ORDER);
            ByteVector v1 = ByteVector.fromMemorySegment(BYTES, r1, element, ORDER);
            ByteVector v2 = ByteVector.fromMemorySegment(BYTES, r2, element, ORDER);
            ByteVector v3 = ByteVector.fromMemorySegment(BYTES, r3, element, ORDER);
            ByteVector low01 = SINGLES_LOW.selectFrom(v0, v1);
            ByteVector high01 = SINGLES_HIGH.selectFrom(v0, v1);
            ByteVector low23 = SINGLES_LOW.selectFrom(v2, v3);
            ByteVector high23 = SINGLES_HIGH.selectFrom(v2, v3);
            long at = (long) element * 4;
            put(PAIRS_LOW.selectFrom(low01, low23), output, words, word, at);
            put(PAIRS_HIGH.selectFrom(low01, low23), output, words, word, at + step);
            put(PAIRS_LOW.selectFrom(high01, high23), output, words, word, at + 2 * step);
            put(PAIRS_HIGH.selectFrom(high01, high23), output, words, word, at + 3 * step);
        }
    }

    private static void eights(MemorySegment r0, MemorySegment r1, MemorySegment r2, MemorySegment r3, MemorySegment r4, MemorySegment r5,
            MemorySegment r6, MemorySegment r7, int elements, MemorySegment output, long[] words, int word) {
        int width = BYTES.length();
        long step = BYTES.vectorByteSize();
        for (int element = 0; element + width <= elements; element += width) {
            ByteVector v0 = ByteVector.fromMemorySegment(BYTES, r0, element, ORDER);
            ByteVector v1 = ByteVector.fromMemorySegment(BYTES, r1, element, ORDER);
            ByteVector v2 = ByteVector.fromMemorySegment(BYTES, r2, element, ORDER);
            ByteVector v3 = ByteVector.fromMemorySegment(BYTES, r3, element, ORDER);
            ByteVector v4 = ByteVector.fromMemorySegment(BYTES, r4, element, ORDER);
            ByteVector v5 = ByteVector.fromMemorySegment(BYTES, r5, element, ORDER);
            ByteVector v6 = ByteVector.fromMemorySegment(BYTES, r6, element, ORDER);
            ByteVector v7 = ByteVector.fromMemorySegment(BYTES, r7, element, ORDER);
            // Pairs of bytes (runs 0-1, 2-3, 4-5, 6-7), each over the first and the second half of the elements.
            ByteVector low01 = SINGLES_LOW.selectFrom(v0, v1);
            ByteVector high01 = SINGLES_HIGH.selectFrom(v0, v1);
            ByteVector low23 = SINGLES_LOW.selectFrom(v2, v3);
            ByteVector high23 = SINGLES_HIGH.selectFrom(v2, v3);
            ByteVector low45 = SINGLES_LOW.selectFrom(v4, v5);
            ByteVector high45 = SINGLES_HIGH.selectFrom(v4, v5);
            ByteVector low67 = SINGLES_LOW.selectFrom(v6, v7);
            ByteVector high67 = SINGLES_HIGH.selectFrom(v6, v7);
            // Fours of bytes (0-3 and 4-7), each over a quarter of the elements.
            ByteVector a0 = PAIRS_LOW.selectFrom(low01, low23);
            ByteVector a1 = PAIRS_HIGH.selectFrom(low01, low23);
            ByteVector a2 = PAIRS_LOW.selectFrom(high01, high23);
            ByteVector a3 = PAIRS_HIGH.selectFrom(high01, high23);
            ByteVector b0 = PAIRS_LOW.selectFrom(low45, low67);
            ByteVector b1 = PAIRS_HIGH.selectFrom(low45, low67);
            ByteVector b2 = PAIRS_LOW.selectFrom(high45, high67);
            ByteVector b3 = PAIRS_HIGH.selectFrom(high45, high67);
            long at = (long) element * 8;
            put(QUADS_LOW.selectFrom(a0, b0), output, words, word, at);
            put(QUADS_HIGH.selectFrom(a0, b0), output, words, word, at + step);
            put(QUADS_LOW.selectFrom(a1, b1), output, words, word, at + 2 * step);
            put(QUADS_HIGH.selectFrom(a1, b1), output, words, word, at + 3 * step);
            put(QUADS_LOW.selectFrom(a2, b2), output, words, word, at + 4 * step);
            put(QUADS_HIGH.selectFrom(a2, b2), output, words, word, at + 5 * step);
            put(QUADS_LOW.selectFrom(a3, b3), output, words, word, at + 6 * step);
            put(QUADS_HIGH.selectFrom(a3, b3), output, words, word, at + 7 * step);
        }
    }

    /**
     * 8-byte elements by widening: each run's next bytes, zero-extended to ints, shifted to their
     * place and or-ed, give the low four bytes of each element in one vector of ints and the high
     * four in another; interleaving the two gives the elements.
     */
    private static void widenedEights(MemorySegment r0, MemorySegment r1, MemorySegment r2, MemorySegment r3, MemorySegment r4, MemorySegment r5,
            MemorySegment r6, MemorySegment r7, int elements, MemorySegment output, long[] words, int word) {
        int width = INTS.length();
        long step = INTS.vectorByteSize();
        for (int element = 0; element + width <= elements; element += width) {
            IntVector low = widened(r0, element).or(widened(r1, element).lanewise(VectorOperators.LSHL, 8))
                    .or(widened(r2, element).lanewise(VectorOperators.LSHL, 16)).or(widened(r3, element).lanewise(VectorOperators.LSHL, 24));
            IntVector high = widened(r4, element).or(widened(r5, element).lanewise(VectorOperators.LSHL, 8))
                    .or(widened(r6, element).lanewise(VectorOperators.LSHL, 16)).or(widened(r7, element).lanewise(VectorOperators.LSHL, 24));
            long at = (long) element * 8;
            put(WORDS_LOW.selectFrom(low, high), output, words, word, at);
            put(WORDS_HIGH.selectFrom(low, high), output, words, word, at + step);
        }
    }

    /** The run's bytes from {@code element}, as many as a vector of ints has lanes, zero-extended to ints. */
    private static IntVector widened(MemorySegment run, int element) {
        return (IntVector) ByteVector.fromMemorySegment(INT_LANES_OF_BYTES, run, element, ORDER).convertShape(VectorOperators.ZERO_EXTEND_B2I, INTS, 0);
    }
}

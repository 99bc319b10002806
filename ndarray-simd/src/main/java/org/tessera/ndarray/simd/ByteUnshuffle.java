package org.tessera.ndarray.simd;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The byte unshuffle of 2-, 4- and 8-byte elements on the Vector API: a vector of each run's next
 * bytes, then rounds of interleaving pairs of vectors (bytes, then pairs of bytes, then fours), as
 * many as the element has powers of two, leave whole elements in order. Each interleave is a
 * two-vector rearrange (one permute instruction with AVX-512 VBMI, a few with AVX2). On one core of
 * the AMD EPYC (Zen 4), 8-byte elements from runs in cache take 0.22 ns each at AVX-512 and 0.84 ns
 * at AVX2, against 1.47 ns for the scalar transpose of eight words.
 *
 * <p>The form is what C2 compiles well at both levels, found by trying: an int loop over elements
 * with the loads written out, and one class of segment at each load and store (see {@link #plain}).
 * A long loop index had its hoisted range checks deoptimised again and again; a reinterpretation
 * through a species the vector derives (bytes as shorts) did not fold at AVX2 and ran the Java
 * fallback; a blend of two one-vector rearranges ran at half the speed; the loop body as a method
 * of its own, at two thirds. Until C2 has compiled it, the loop runs that fallback, which allocates
 * a vector per operation: the first few hundred MB of a process's unshuffles leave garbage.
 */
final class ByteUnshuffle {
    private static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Short> SHORTS = VectorSpecies.of(short.class, BYTES.vectorShape());
    private static final VectorSpecies<Integer> INTS = VectorSpecies.of(int.class, BYTES.vectorShape());
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    private static final VectorShuffle<Byte> BYTES_LOW = interleave(BYTES, false);
    private static final VectorShuffle<Byte> BYTES_HIGH = interleave(BYTES, true);
    private static final VectorShuffle<Short> SHORTS_LOW = interleave(SHORTS, false);
    private static final VectorShuffle<Short> SHORTS_HIGH = interleave(SHORTS, true);
    private static final VectorShuffle<Integer> INTS_LOW = interleave(INTS, false);
    private static final VectorShuffle<Integer> INTS_HIGH = interleave(INTS, true);

    private ByteUnshuffle() {
    }

    /** The vector's bits, for the benchmark's kernel widths. */
    static int bits() {
        return BYTES.vectorBitSize();
    }

    /**
     * The lanes of the first (or second) halves of two vectors, alternating: lane {@code 2k} is
     * lane {@code k} of the first vector, lane {@code 2k + 1} lane {@code k} of the second, which a
     * two-vector rearrange names by the exceptional index {@code k - length}.
     */
    private static <E> VectorShuffle<E> interleave(VectorSpecies<E> species, boolean high) {
        int length = species.length();
        int[] lanes = new int[length];
        for (int lane = 0; lane < length; lane++) {
            int source = lane / 2 + (high ? length / 2 : 0);
            lanes[lane] = lane % 2 == 0 ? source : source - length;
        }
        return VectorShuffle.fromArray(species, lanes, 0);
    }

    /**
     * See {@code VectorMath.unshuffle}: whole vectors of elements only, none where an element is not
     * 2, 4 or 8 bytes or where a run or the output is on the heap.
     */
    static long unshuffle(MemorySegment[] runs, long first, long count, MemorySegment output, long outputOffset) {
        int width = BYTES.length();
        // Under 2 GB of output a call, so that the loops count in ints.
        int elements = (int) Math.min(count - count % width, Integer.MAX_VALUE / 8 / width * width);
        int size = runs.length;
        if (elements == 0 || size != 2 && size != 4 && size != 8 || !output.isNative()) {
            return 0;
        }
        MemorySegment[] plain = new MemorySegment[size];
        for (int run = 0; run < size; run++) {
            if (!runs[run].isNative()) {
                return 0;
            }
            plain[run] = plain(runs[run]).asSlice(first, elements);
        }
        MemorySegment target = plain(output).asSlice(outputOffset, (long) elements * size);
        switch (size) {
            case 2 -> twos(plain[0], plain[1], elements, target);
            case 4 -> fours(plain[0], plain[1], plain[2], plain[3], elements, target);
            default -> eights(plain[0], plain[1], plain[2], plain[3], plain[4], plain[5], plain[6], plain[7], elements, target);
        }
        return elements;
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

    private static void twos(MemorySegment r0, MemorySegment r1, int elements, MemorySegment output) {
        int width = BYTES.length();
        long step = BYTES.vectorByteSize();
        for (int element = 0; element + width <= elements; element += width) {
            ByteVector v0 = ByteVector.fromMemorySegment(BYTES, r0, element, ORDER);
            ByteVector v1 = ByteVector.fromMemorySegment(BYTES, r1, element, ORDER);
            long at = (long) element * 2;
            v0.rearrange(BYTES_LOW, v1).intoMemorySegment(output, at, ORDER);
            v0.rearrange(BYTES_HIGH, v1).intoMemorySegment(output, at + step, ORDER);
        }
    }

    private static void fours(MemorySegment r0, MemorySegment r1, MemorySegment r2, MemorySegment r3, int elements, MemorySegment output) {
        int width = BYTES.length();
        long step = BYTES.vectorByteSize();
        for (int element = 0; element + width <= elements; element += width) {
            ByteVector v0 = ByteVector.fromMemorySegment(BYTES, r0, element, ORDER);
            ByteVector v1 = ByteVector.fromMemorySegment(BYTES, r1, element, ORDER);
            ByteVector v2 = ByteVector.fromMemorySegment(BYTES, r2, element, ORDER);
            ByteVector v3 = ByteVector.fromMemorySegment(BYTES, r3, element, ORDER);
            ShortVector low01 = v0.rearrange(BYTES_LOW, v1).reinterpretAsShorts();
            ShortVector high01 = v0.rearrange(BYTES_HIGH, v1).reinterpretAsShorts();
            ShortVector low23 = v2.rearrange(BYTES_LOW, v3).reinterpretAsShorts();
            ShortVector high23 = v2.rearrange(BYTES_HIGH, v3).reinterpretAsShorts();
            long at = (long) element * 4;
            low01.rearrange(SHORTS_LOW, low23).intoMemorySegment(output, at, ORDER);
            low01.rearrange(SHORTS_HIGH, low23).intoMemorySegment(output, at + step, ORDER);
            high01.rearrange(SHORTS_LOW, high23).intoMemorySegment(output, at + 2 * step, ORDER);
            high01.rearrange(SHORTS_HIGH, high23).intoMemorySegment(output, at + 3 * step, ORDER);
        }
    }

    private static void eights(MemorySegment r0, MemorySegment r1, MemorySegment r2, MemorySegment r3, MemorySegment r4, MemorySegment r5,
            MemorySegment r6, MemorySegment r7, int elements, MemorySegment output) {
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
            ShortVector low01 = v0.rearrange(BYTES_LOW, v1).reinterpretAsShorts();
            ShortVector high01 = v0.rearrange(BYTES_HIGH, v1).reinterpretAsShorts();
            ShortVector low23 = v2.rearrange(BYTES_LOW, v3).reinterpretAsShorts();
            ShortVector high23 = v2.rearrange(BYTES_HIGH, v3).reinterpretAsShorts();
            ShortVector low45 = v4.rearrange(BYTES_LOW, v5).reinterpretAsShorts();
            ShortVector high45 = v4.rearrange(BYTES_HIGH, v5).reinterpretAsShorts();
            ShortVector low67 = v6.rearrange(BYTES_LOW, v7).reinterpretAsShorts();
            ShortVector high67 = v6.rearrange(BYTES_HIGH, v7).reinterpretAsShorts();
            // Fours of bytes (0-3 and 4-7), each over a quarter of the elements.
            IntVector a0 = low01.rearrange(SHORTS_LOW, low23).reinterpretAsInts();
            IntVector a1 = low01.rearrange(SHORTS_HIGH, low23).reinterpretAsInts();
            IntVector a2 = high01.rearrange(SHORTS_LOW, high23).reinterpretAsInts();
            IntVector a3 = high01.rearrange(SHORTS_HIGH, high23).reinterpretAsInts();
            IntVector b0 = low45.rearrange(SHORTS_LOW, low67).reinterpretAsInts();
            IntVector b1 = low45.rearrange(SHORTS_HIGH, low67).reinterpretAsInts();
            IntVector b2 = high45.rearrange(SHORTS_LOW, high67).reinterpretAsInts();
            IntVector b3 = high45.rearrange(SHORTS_HIGH, high67).reinterpretAsInts();
            long at = (long) element * 8;
            a0.rearrange(INTS_LOW, b0).intoMemorySegment(output, at, ORDER);
            a0.rearrange(INTS_HIGH, b0).intoMemorySegment(output, at + step, ORDER);
            a1.rearrange(INTS_LOW, b1).intoMemorySegment(output, at + 2 * step, ORDER);
            a1.rearrange(INTS_HIGH, b1).intoMemorySegment(output, at + 3 * step, ORDER);
            a2.rearrange(INTS_LOW, b2).intoMemorySegment(output, at + 4 * step, ORDER);
            a2.rearrange(INTS_HIGH, b2).intoMemorySegment(output, at + 5 * step, ORDER);
            a3.rearrange(INTS_LOW, b3).intoMemorySegment(output, at + 6 * step, ORDER);
            a3.rearrange(INTS_HIGH, b3).intoMemorySegment(output, at + 7 * step, ORDER);
        }
    }
}

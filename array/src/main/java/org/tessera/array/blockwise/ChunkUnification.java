package org.tessera.array.blockwise;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.chunks.Chunks;
import org.tessera.array.chunks.UnknownChunksException;

/**
 * Dask's {@code common_blockdim}: the block lengths that several arrays share along one index.
 * Length-1 axes (broadcast) do not count once another array has more; one non-trivial chunking
 * wins over single blocks; several are merged at every boundary any of them has, so every input is
 * only split, never merged (a cheap rechunk).
 */
public final class ChunkUnification {
    private ChunkUnification() {
    }

    /** The common chunking of {@code candidates} (block lengths of the same axis in several arrays). */
    public static long[] common(List<long[]> candidates) {
        if (candidates.stream().map(ChunkUnification::total).distinct().count() > 1) {
            // Lengths differ, so an axis of length 1 broadcasts, as one block: (0, 1) counts as (1,).
            candidates = candidates.stream().map(candidate -> total(candidate) == 1 ? new long[] {1} : candidate).toList();
        }
        List<long[]> distinct = new ArrayList<>();
        for (long[] candidate : candidates) {
            if (distinct.stream().noneMatch(known -> Arrays.equals(known, candidate))) {
                distinct.add(candidate);
            }
        }
        if (distinct.size() > 1) {
            distinct.removeIf(candidate -> candidate.length == 1 && candidate[0] == 1);
        }
        if (distinct.size() == 1) {
            return distinct.getFirst();
        }
        List<long[]> nonTrivial = distinct.stream().filter(candidate -> candidate.length > 1).toList();
        if (nonTrivial.size() == 1) {
            return nonTrivial.getFirst();
        }
        if (nonTrivial.isEmpty()) {
            // Single blocks of different lengths: the largest (Dask takes the largest first block).
            return distinct.stream().max((left, right) -> Long.compare(left[0], right[0])).orElseThrow();
        }
        for (long[] candidate : nonTrivial) {
            if (Arrays.stream(candidate).anyMatch(length -> length == Chunks.UNKNOWN)) {
                throw new UnknownChunksException("arrays with chunks " + describe(nonTrivial) + " cannot be aligned");
            }
        }
        long total = Arrays.stream(nonTrivial.getFirst()).sum();
        for (long[] candidate : nonTrivial) {
            if (Arrays.stream(candidate).sum() != total) {
                throw new IllegalArgumentException("chunks " + describe(nonTrivial) + " do not add up to the same length");
            }
        }
        return merged(nonTrivial, total);
    }

    /** The axis length a chunking covers; {@link Chunks#UNKNOWN} when a length is unknown. */
    private static long total(long[] lengths) {
        return Arrays.stream(lengths).anyMatch(length -> length == Chunks.UNKNOWN) ? Chunks.UNKNOWN : Arrays.stream(lengths).sum();
    }

    /** Block lengths ending at every boundary of every chunking. */
    private static long[] merged(List<long[]> chunkings, long total) {
        java.util.TreeSet<Long> boundaries = new java.util.TreeSet<>();
        for (long[] chunking : chunkings) {
            long position = 0;
            for (long length : chunking) {
                position += length;
                boundaries.add(position);
            }
        }
        long[] lengths = new long[boundaries.size()];
        long previous = 0;
        int block = 0;
        for (long boundary : boundaries) {
            lengths[block++] = boundary - previous;
            previous = boundary;
        }
        if (previous != total) {
            throw new IllegalStateException("merged boundaries end at " + previous + ", not " + total);
        }
        // Zero-length blocks appear only as a lone (0,); drop repeats that merging may create, and
        // keep that one block where the axis has no elements (chunkings (0, 0) and (0, 0, 0)).
        long[] nonEmpty = Arrays.stream(lengths).filter(length -> length > 0).toArray();
        return nonEmpty.length == 0 ? new long[] {0} : nonEmpty;
    }

    private static String describe(List<long[]> chunkings) {
        return String.join(" and ", chunkings.stream().map(Arrays::toString).toList());
    }
}

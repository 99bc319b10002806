package org.tessera.array.chunks;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * How a user asks for chunks, in every form Dask's {@code normalize_chunks} accepts: one block length
 * for every axis, "auto" (blocks near a byte limit), the whole axis (Dask's -1 or None), a byte size
 * ("64MiB", an auto with that limit), explicit block lengths, or one spec per axis as a list or as a
 * map from axis to spec. {@link ChunkNormalization} turns a spec into {@link Chunks}.
 */
public sealed interface ChunkSpec {

    /** Blocks of this length (the last one shorter). */
    record Size(long length) implements ChunkSpec {
        public Size {
            if (length < 0) {
                throw new IllegalArgumentException("a block length must be >= 0 (or use ChunkSpec.whole()), got " + length);
            }
        }
    }

    /** Block lengths chosen to keep blocks near the byte limit. */
    record Auto() implements ChunkSpec {
    }

    /** One block for the whole axis. */
    record Whole() implements ChunkSpec {
    }

    /** Auto with this byte limit. */
    record Bytes(long bytes) implements ChunkSpec {
    }

    /** These block lengths, for one axis. */
    record Explicit(long[] lengths) implements ChunkSpec {
        public Explicit {
            lengths = lengths.clone();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Explicit explicit && Arrays.equals(lengths, explicit.lengths);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(lengths);
        }

        @Override
        public String toString() {
            return Arrays.toString(lengths);
        }
    }

    /** One spec per axis. */
    record PerAxis(List<ChunkSpec> axes) implements ChunkSpec {
        public PerAxis {
            axes = List.copyOf(axes);
        }
    }

    /** Specs for some axes; the others are whole. */
    record ByAxis(Map<Integer, ChunkSpec> axes) implements ChunkSpec {
        public ByAxis {
            axes = Map.copyOf(axes);
        }
    }

    static ChunkSpec size(long length) {
        return new Size(length);
    }

    static ChunkSpec auto() {
        return new Auto();
    }

    static ChunkSpec whole() {
        return new Whole();
    }

    /** Auto with a limit written as Dask writes byte sizes: "128MiB", "100 MB", "1e6", "512". */
    static ChunkSpec bytes(String size) {
        return new Bytes(ByteSizes.parse(size));
    }

    /** One block length per axis, -1 for the whole axis (as Dask's {@code chunks=(1000, -1)}). */
    static ChunkSpec of(long... lengths) {
        return new PerAxis(Arrays.stream(lengths).mapToObj(length -> length == -1 ? whole() : size(length)).toList());
    }

    static ChunkSpec perAxis(ChunkSpec... axes) {
        return new PerAxis(List.of(axes));
    }

    static ChunkSpec byAxis(Map<Integer, ChunkSpec> axes) {
        return new ByAxis(axes);
    }

    /** Explicit block lengths for every axis, as Dask's tuple of tuples. */
    static ChunkSpec explicit(long[]... lengthsPerAxis) {
        return new PerAxis(Arrays.stream(lengthsPerAxis).map(lengths -> (ChunkSpec) new Explicit(lengths)).toList());
    }
}

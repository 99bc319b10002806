package org.tessera.graph;

import java.io.Serial;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;

/**
 * The name of one task: a layer name, optionally with a block index, as {@code ("x", 0, 1)} in Dask.
 * Keys are immutable and hash once, because schedulers look them up millions of times.
 */
public final class Key implements Comparable<Key>, Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String name;
    private final int[] index;
    private final int hash;

    private Key(String name, int[] index) {
        this.name = Objects.requireNonNull(name, "a key needs a name");
        for (int position : index) {
            if (position < 0) {
                throw new IllegalArgumentException("key " + name + Arrays.toString(index) + ": block indices must be >= 0");
            }
        }
        this.index = index;
        this.hash = 31 * name.hashCode() + Arrays.hashCode(index);
    }

    /** A key with a name and a block index, possibly empty ({@code key("x")} is a plain name). */
    public static Key of(String name, int... index) {
        return new Key(name, index.clone());
    }

    public String name() {
        return name;
    }

    /** The number of block-index positions (0 for a plain name). */
    public int rank() {
        return index.length;
    }

    public int index(int position) {
        return index[position];
    }

    public int[] index() {
        return index.clone();
    }

    /** The same block index under another name: what a layer that maps blocks one-to-one needs. */
    public Key withName(String newName) {
        return new Key(newName, index);
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof Key key) || hash != key.hash || index.length != key.index.length) {
            return false;
        }
        // A plain loop: Arrays.equals calls the vectorised mismatch stub, whose set-up dominates for
        // block indices of one to three positions, and schedulers compare keys millions of times.
        for (int position = 0; position < index.length; position++) {
            if (index[position] != key.index[position]) {
                return false;
            }
        }
        return name.equals(key.name);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** By name, then block index in order, so sorted keys list blocks in C order. */
    @Override
    public int compareTo(Key other) {
        int byName = name.compareTo(other.name);
        return byName != 0 ? byName : Arrays.compare(index, other.index);
    }

    /** {@code x} for a plain name, {@code ('x', 0, 1)} for a block, as Dask prints keys. */
    @Override
    public String toString() {
        if (index.length == 0) {
            return name;
        }
        StringBuilder text = new StringBuilder("('").append(name).append('\'');
        for (int position : index) {
            text.append(", ").append(position);
        }
        return text.append(')').toString();
    }
}

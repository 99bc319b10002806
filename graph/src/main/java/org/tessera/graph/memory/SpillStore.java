package org.tessera.graph.memory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;

import org.tessera.graph.Key;

/**
 * Task results moved out of memory: one file per key in a temporary directory that {@link #close()}
 * deletes with everything in it. Not thread-safe; the scheduler calls it under its lock.
 */
public final class SpillStore implements AutoCloseable {
    private final Path directory;
    private final List<SpillCodec> codecs;
    private final Map<Key, Path> files = new HashMap<>();
    private long bytesWritten;
    private int spillCount;

    private SpillStore(Path directory, List<SpillCodec> codecs) {
        this.directory = directory;
        this.codecs = codecs;
    }

    /** A store in a new temporary directory under {@code parent} (the system temporary directory if null). */
    public static SpillStore create(Path parent) {
        try {
            Path directory = parent == null ? Files.createTempDirectory("tessera-spill-") : Files.createTempDirectory(Files.createDirectories(parent), "tessera-spill-");
            List<SpillCodec> codecs = new ArrayList<>();
            ServiceLoader.load(SpillCodec.class).forEach(codecs::add);
            codecs.add(new SerializationCodec());
            return new SpillStore(directory, List.copyOf(codecs));
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot create a spill directory under " + (parent == null ? "the temporary directory" : parent), failure);
        }
    }

    public Path directory() {
        return directory;
    }

    /** Writes {@code value} for {@code key}; returns the bytes written. */
    public long write(Key key, Object value) {
        SpillCodec codec = codecs.stream().filter(candidate -> candidate.accepts(value)).findFirst()
                .orElseThrow(() -> new UncheckedIOException(new NotSerializableException(
                        "the result of " + key + " (" + value.getClass().getName() + ") has no spill codec and is not Serializable")));
        Path file = directory.resolve("block-" + spillCount++);
        try (DataOutputStream output = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
            output.writeUTF(codec.name());
            codec.write(value, output);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot spill the result of " + key + " to " + file, failure);
        }
        files.put(key, file);
        try {
            long size = Files.size(file);
            bytesWritten += size;
            return size;
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read the size of " + file, failure);
        }
    }

    public boolean contains(Key key) {
        return files.containsKey(key);
    }

    /** Reads back the value of {@code key} and deletes its file. */
    public Object take(Key key) {
        Path file = files.remove(key);
        if (file == null) {
            throw new IllegalStateException("nothing was spilled for " + key);
        }
        try (DataInputStream input = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            String name = input.readUTF();
            SpillCodec codec = codecs.stream().filter(candidate -> candidate.name().equals(name)).findFirst()
                    .orElseThrow(() -> new IOException("no spill codec named " + name + " for " + key));
            Object value = codec.read(input);
            Files.delete(file);
            return value;
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read back the spilled result of " + key + " from " + file, failure);
        }
    }

    /** Forgets a spilled value that no task needs any more. */
    public void discard(Key key) {
        Path file = files.remove(key);
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException failure) {
                throw new UncheckedIOException("cannot delete spill file " + file, failure);
            }
        }
    }

    /** Total bytes written to disk so far. */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** How many values were spilled so far. */
    public int spillCount() {
        return spillCount;
    }

    /** Deletes the directory and every file in it. */
    @Override
    public void close() {
        files.clear();
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot delete spill directory " + directory, failure);
        }
    }
}

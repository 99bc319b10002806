package org.tessera.io.store;

import java.io.IOException;
import java.io.Serial;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import org.tessera.graph.metrics.StoreTraffic;

/**
 * A store in a directory of the local file system: key {@code a/b/0.1} is the file
 * {@code root/a/b/0.1}, the layout zarr-python's DirectoryStore and NestedDirectoryStore use.
 *
 * <p>Atomic writes: a value is written to a temporary file in the key's own directory, named
 * {@code .<name>.<random>.partial}, and renamed over the key with an atomic move. A reader therefore
 * sees the old file or the new one, and a writer killed mid-write leaves at most a {@code .partial}
 * file, which {@link #list} never reports and {@link #deletePartialWrites} removes. The rename makes
 * the write atomic against the death of the process; surviving a power loss as well would also need
 * the file and directory synced, which this store does not do (zarr-python does not either).
 */
public final class DirectoryStore implements Store {
    @Serial
    private static final long serialVersionUID = 1L;

    private static final String PARTIAL_SUFFIX = ".partial";

    /** A string, not a Path, because Path is not serializable. */
    private final String root;

    private DirectoryStore(Path root) {
        this.root = root.toAbsolutePath().normalize().toString();
    }

    /** A store over {@code root}, which is created when a first value is written. */
    public static DirectoryStore open(Path root) {
        return new DirectoryStore(root);
    }

    public Path root() {
        return Path.of(root);
    }

    private Path file(String key) {
        return Path.of(root, StoreKeys.validate(key).split("/"));
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        Optional<byte[]> value = readFile(key, "read", Files::readAllBytes);
        value.ifPresent(bytes -> StoreTraffic.read(bytes.length));
        return value;
    }

    @Override
    public Optional<MemorySegment> map(String key, Arena arena) throws IOException {
        return readFile(key, "map", file -> {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                StoreTraffic.read(channel.size());
                return channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            }
        });
    }

    /** How a value is taken from its file. */
    @FunctionalInterface
    private interface FileReader<T> {
        T read(Path file) throws IOException;
    }

    /** The value of {@code key} read from its file; empty when there is no file, or a directory (a prefix of keys). */
    private <T> Optional<T> readFile(String key, String verb, FileReader<T> reader) throws IOException {
        Path file = file(key);
        try {
            return Optional.of(reader.read(file));
        } catch (NoSuchFileException missing) {
            return Optional.empty();
        } catch (IOException failure) {
            if (Files.isDirectory(file)) {
                return Optional.empty();
            }
            throw new IOException("cannot " + verb + " key " + key + " from " + file + ": " + failure.getMessage(), failure);
        }
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        Path file = file(key);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            if (offset < 0 || length < 0 || offset + length > channel.size()) {
                throw new IOException("byte range [" + offset + ", " + (offset + length) + ") is outside the " + channel.size()
                        + " bytes of key " + key + " (" + file + ")");
            }
            ByteBuffer buffer = ByteBuffer.allocate(length);
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, offset + buffer.position()) < 0) {
                    throw new IOException(file + " ended while reading bytes [" + offset + ", " + (offset + length) + ")");
                }
            }
            StoreTraffic.read(length);
            return Optional.of(buffer.array());
        }
    }

    @Override
    public java.util.OptionalLong size(String key) throws IOException {
        Path file = file(key);
        try {
            return Files.isRegularFile(file) ? java.util.OptionalLong.of(Files.size(file)) : java.util.OptionalLong.empty();
        } catch (NoSuchFileException deletedMeanwhile) {
            return java.util.OptionalLong.empty();
        }
    }

    @Override
    public void set(String key, byte[] value) throws IOException {
        write(key, partial -> Files.write(partial, value, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), value.length);
    }

    /** From native memory (or a byte array's) straight into the file; other heap segments through a copy. */
    @Override
    public void set(String key, MemorySegment value) throws IOException {
        if (!value.isNative() && !(value.heapBase().orElse(null) instanceof byte[])) {
            set(key, value.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
            return;
        }
        write(key, partial -> {
            try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer bytes = value.asByteBuffer();
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
            }
        }, value.byteSize());
    }

    /** What writes a value into the temporary file it is given. */
    @FunctionalInterface
    private interface PartialWrite {
        void to(Path partial) throws IOException;
    }

    /** Writes {@code byteSize} bytes to a temporary file beside the key's and renames it into place. */
    private void write(String key, PartialWrite partialWrite, long byteSize) throws IOException {
        Path target = file(key);
        Path directory = target.getParent();
        Files.createDirectories(directory);
        Path partial = directory.resolve("." + target.getFileName() + "." + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + PARTIAL_SUFFIX);
        try {
            partialWrite.to(partial);
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            StoreTraffic.written(byteSize);
        } catch (AtomicMoveNotSupportedException unsupported) {
            throw new IOException("the file system of " + directory + " cannot rename atomically, so key " + key + " cannot be written safely", unsupported);
        } catch (IOException failure) {
            // A full disk fails the write of the temporary file with only "No space left on device":
            // name the file. The key keeps its old value (or stays absent); the finally removes the rest.
            String reason = failure instanceof java.nio.file.FileSystemException system && system.getReason() != null ? system.getReason() : failure.getMessage();
            throw new IOException(partial + ": " + reason, failure);
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    @Override
    public boolean contains(String key) {
        return Files.isRegularFile(file(key));
    }

    @Override
    public void delete(String key) throws IOException {
        Path file = file(key);
        if (!Files.isDirectory(file)) {
            Files.deleteIfExists(file);
        }
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        // Walk only the deepest directory the prefix names completely.
        int lastSlash = prefix.lastIndexOf('/');
        Path start = lastSlash < 0 ? Path.of(root) : Path.of(root, prefix.substring(0, lastSlash).split("/"));
        if (!Files.isDirectory(start)) {
            return List.of();
        }
        Path rootPath = Path.of(root);
        List<String> keys = new ArrayList<>();
        try (Stream<Path> files = Files.walk(start)) {
            files.filter(Files::isRegularFile).filter(file -> !isPartial(file)).forEach(file -> {
                String key = rootPath.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
                if (key.startsWith(prefix)) {
                    keys.add(key);
                }
            });
        }
        return keys;
    }

    /** Removes the temporary files that writers killed mid-write left under {@code prefix}; returns how many. */
    public int deletePartialWrites(String prefix) throws IOException {
        Path start = prefix.isEmpty() ? Path.of(root) : file(prefix);
        if (!Files.isDirectory(start)) {
            return 0;
        }
        int deleted = 0;
        try (Stream<Path> files = Files.walk(start)) {
            for (Path file : files.filter(Files::isRegularFile).filter(DirectoryStore::isPartial).toList()) {
                Files.deleteIfExists(file);
                deleted++;
            }
        }
        return deleted;
    }

    private static boolean isPartial(Path file) {
        String name = file.getFileName().toString();
        return name.startsWith(".") && name.endsWith(PARTIAL_SUFFIX);
    }

    @Override
    public String describe() {
        return "directory " + root;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DirectoryStore store && root.equals(store.root);
    }

    @Override
    public int hashCode() {
        return root.hashCode();
    }

    @Override
    public String toString() {
        return "DirectoryStore[" + root + "]";
    }
}

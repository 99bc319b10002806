package org.tessera.array.sorting;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The scratch files of an out-of-core sort. Every sort graph has a directory of its own under the
 * scratch root ({@code tessera-sort-TOKEN}); each run task writes its run there under a fresh name,
 * so computations of one graph never share a file. A run's last readers delete it: a quantile's
 * selection reads its group's runs alone and deletes them; the k merges of a group each leave a
 * marker named after the group's run files (unique to this computation) and the one that finds all
 * k deletes the runs and the markers, then the directory if it is empty. Markers are files, so
 * this works wherever the tasks run as long as they share the file system (Spark executors on one
 * machine, or a shared disk). What a failed or partial computation leaves goes when the JVM that
 * wrote it exits.
 */
final class ScratchSession {
    private static final Set<Path> WRITTEN = ConcurrentHashMap.newKeySet();
    private static volatile boolean hookAdded;
    /** Guards the making and removing of scratch directories against each other. */
    private static final Object DIRECTORIES = new Object();

    private ScratchSession() {
    }

    /** The directory of the sort graph named by {@code token} under {@code root}. */
    static String directory(String root, String token) {
        return Path.of(root, "tessera-sort-" + token).toString();
    }

    /** Makes the directory (again, after an earlier computation removed it) and has it removed at exit. */
    static Path prepare(String directory) {
        Path path = Path.of(directory);
        try {
            Files.createDirectories(path);
        } catch (IOException failure) {
            throw new UncheckedIOException("sort: cannot create the scratch directory " + directory + ": " + failure.getMessage(), failure);
        }
        if (WRITTEN.add(path)) {
            addHook();
        }
        return path;
    }

    private static synchronized void addHook() {
        if (!hookAdded) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> WRITTEN.forEach(ScratchSession::deleteTree), "tessera-sort-scratch-cleanup"));
            hookAdded = true;
        }
    }

    /** A selection, the runs' only reader, is done with them. */
    static void release(SortedRun[] runs) {
        if (runs.length == 0 || runs[0].inMemory()) {
            return;
        }
        for (SortedRun run : runs) {
            run.delete();
        }
        deleteIfEmpty(Path.of(runs[0].file).getParent());
    }

    /** Merge {@code reader} of the group's {@code readers} merges is done with the group's runs; the last one deletes them. */
    static void finished(SortedRun[] runs, int reader, int readers) {
        if (runs.length == 0 || runs[0].inMemory()) {
            return;
        }
        Path directory = Path.of(runs[0].file).getParent();
        String prefix = "done-" + groupId(runs) + "-";
        try {
            Files.createFile(directory.resolve(prefix + reader));
        } catch (FileAlreadyExistsException again) {
            // A task run twice (a retry) marks once.
        } catch (NoSuchFileException gone) {
            return;
        } catch (IOException failure) {
            throw new UncheckedIOException("sort: cannot leave a marker in " + directory + ": " + failure.getMessage(), failure);
        }
        int done = 0;
        try (DirectoryStream<Path> markers = Files.newDirectoryStream(directory, prefix + "*")) {
            for (Path ignored : markers) {
                done++;
            }
        } catch (IOException failure) {
            return;
        }
        if (done < readers) {
            return;
        }
        for (SortedRun run : runs) {
            run.delete();
        }
        for (int other = 0; other < readers; other++) {
            try {
                Files.deleteIfExists(directory.resolve(prefix + other));
            } catch (IOException ignored) {
                // Left for the JVM's exit.
            }
        }
        deleteIfEmpty(directory);
    }

    /** A name for this computation's runs of one group: a hash of their file names, which are unique. */
    private static String groupId(SortedRun[] runs) {
        long hash = 0xcbf29ce484222325L;
        for (SortedRun run : runs) {
            for (int i = 0; i < run.file.length(); i++) {
                hash = (hash ^ run.file.charAt(i)) * 0x100000001b3L;
            }
        }
        return HexFormat.of().toHexDigits(hash);
    }

    /**
     * Creates a new run file, making its directory first. Creating a file and removing an empty
     * directory exclude each other in this JVM: otherwise the last reader of one group could remove
     * the directory between another group's task making it and creating its file (across JVMs the
     * writer's retry covers it).
     */
    static FileChannel createFile(String directory, Path file) throws IOException {
        synchronized (DIRECTORIES) {
            prepare(directory);
            return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }
    }

    private static void deleteIfEmpty(Path directory) {
        synchronized (DIRECTORIES) {
            deleteIfStillEmpty(directory);
        }
    }

    private static void deleteIfStillEmpty(Path directory) {
        try {
            Files.deleteIfExists(directory);
            WRITTEN.remove(directory);
        } catch (DirectoryNotEmptyException stillUsed) {
            // Another group or computation still has files here.
        } catch (IOException ignored) {
            // Left for the JVM's exit.
        }
    }

    private static void deleteTree(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | UncheckedIOException ignored) {
            // The JVM is exiting; nothing more can be done.
        }
    }
}

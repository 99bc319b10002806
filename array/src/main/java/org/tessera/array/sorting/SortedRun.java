package org.tessera.array.sorting;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;

import org.tessera.graph.memory.Sized;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.npy.Npy;

/**
 * One block sorted along the sort axis: {@code lines} lanes (every position of the block's other
 * axes, in C order) of {@code length} elements each, every lane in NumPy's order with ties in input
 * order, and, for argsort, each element's position along the whole axis. It lives in memory (a
 * {@code (lines, length)} C-ordered array) or in a scratch file (values, then positions, little
 * endian), with the key of every {@value #PAGE}-th element of each lane kept here, so that a search
 * reads one page of the file.
 */
final class SortedRun implements Serializable, Sized {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Elements per page of a file run: the unit of a search's read and of the sample spacing. */
    static final int PAGE = 4096;

    final DType dtype;
    final int lines;
    final long length;
    final boolean withPositions;
    /** The scratch file, or null for a run in memory. */
    final String file;
    /** File runs: the keys at positions {@code s * PAGE} of each lane, lane by lane. */
    final long[] samples;
    private transient NDArray values;
    private transient NDArray positions;

    private SortedRun(DType dtype, int lines, long length, boolean withPositions, String file, long[] samples, NDArray values, NDArray positions) {
        this.dtype = dtype;
        this.lines = lines;
        this.length = length;
        this.withPositions = withPositions;
        this.file = file;
        this.samples = samples;
        this.values = values;
        this.positions = positions;
    }

    /** A run held in memory: {@code values} (and {@code positions}, or null) C-ordered of shape (lines, length). */
    static SortedRun inMemory(NDArray values, NDArray positions) {
        return new SortedRun(values.dtype(), Math.toIntExact(values.shape(0)), values.shape(1), positions != null, null, null, values, positions);
    }

    /** Writes the run to a new file in {@code directory} and returns its handle (the arrays are not kept). */
    static SortedRun toFile(NDArray values, NDArray positions, String directoryName, String name) {
        int lines = Math.toIntExact(values.shape(0));
        long length = values.shape(1);
        // The directory is made with the file, under the lock of ScratchSession.createFile.
        Path directory = Path.of(directoryName);
        Path target = directory.resolve(name + "-" + java.util.UUID.randomUUID() + ".run");
        Path partial = directory.resolve(target.getFileName() + ".partial");
        for (int attempt = 0; ; attempt++) {
            try (FileChannel channel = ScratchSession.createFile(directoryName, partial)) {
                write(channel, values);
                if (positions != null) {
                    write(channel, positions);
                }
                break;
            } catch (java.nio.file.NoSuchFileException removed) {
                // A last reader in another JVM (a Spark executor) removed the empty directory just now: make it again, once.
                if (attempt > 0) {
                    throw new UncheckedIOException("sort: the scratch directory " + directory + " keeps disappearing", removed);
                }
            } catch (IOException failure) {
                throw new UncheckedIOException("sort: cannot write the sorted run " + partial + ": " + failure.getMessage(), failure);
            }
        }
        try {
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException failure) {
            throw new UncheckedIOException("sort: cannot move the sorted run into place at " + target + ": " + failure.getMessage(), failure);
        }
        return new SortedRun(values.dtype(), lines, length, positions != null, target.toString(), samples(values), null, null);
    }

    private static void write(FileChannel channel, NDArray array) throws IOException {
        NDArray contiguous = array.isCContiguous() ? array : array.copy();
        MemorySegment source = contiguous.segment();
        long start = contiguous.byteOffset();
        long total = contiguous.byteSize();
        byte[] bytes = new byte[WRITE_BUFFER_BYTES];
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        MemorySegment window = MemorySegment.ofArray(bytes);
        for (long done = 0; done < total; ) {
            int count = (int) Math.min(buffer.capacity(), total - done);
            MemorySegment.copy(source, start + done, window, 0, count);
            buffer.clear().limit(count);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            done += count;
        }
    }

    private static long[] samples(NDArray values) {
        int lines = Math.toIntExact(values.shape(0));
        long length = values.shape(1);
        int perLine = samplesPerLine(length);
        long[] samples = new long[Math.multiplyExact(lines, perLine)];
        OrderKeys.KeyReader keys = OrderKeys.reader(values.dtype());
        long itemSize = values.dtype().byteSize();
        for (int line = 0; line < lines; line++) {
            for (int sample = 0; sample < perLine; sample++) {
                samples[line * perLine + sample] = keys.key(values.segment(), values.byteOffset() + (line * length + (long) sample * PAGE) * itemSize);
            }
        }
        return samples;
    }

    static int samplesPerLine(long length) {
        return Math.toIntExact((length + PAGE - 1) / PAGE);
    }

    /**
     * What reading a file run holds at most: its page buffer and the keys of the pages it caches
     * (Java arrays, which the ndarray core does not count, but memory all the same).
     */
    static long readerBytes(DType dtype) {
        return (long) PAGE * dtype.byteSize() + (long) FileReader.CACHED_PAGES * PAGE * Long.BYTES;
    }

    /** What a file run's handle holds: the samples of its lanes and its path. */
    static long fileHandleBytes(long lines, long length, String directory) {
        return 256 + 8L * lines * samplesPerLine(length) + 2L * (directory.length() + 128);
    }

    /** The buffer through which a run is written to its file. */
    static final int WRITE_BUFFER_BYTES = 1 << 20;

    boolean inMemory() {
        return file == null;
    }

    @Override
    public long byteSize() {
        if (file == null) {
            return values.byteSize() + (positions == null ? 0 : positions.byteSize()) + 256;
        }
        return 256 + 8L * samples.length + 2L * file.length();
    }

    /** A reader of this run; close it to close the file of a file run. */
    Reader open() {
        return file == null ? new MemoryReader(this) : new FileReader(this);
    }

    /** Deletes the file of a file run (nothing for a run in memory). */
    void delete() {
        if (file != null) {
            try {
                Files.deleteIfExists(Path.of(file));
            } catch (IOException ignored) {
                // The session directory goes as a whole later.
            }
        }
    }

    @Serial
    private void writeObject(ObjectOutputStream output) throws IOException {
        output.defaultWriteObject();
        if (file == null) {
            writeArray(output, values);
            output.writeBoolean(positions != null);
            if (positions != null) {
                writeArray(output, positions);
            }
        }
    }

    @Serial
    private void readObject(ObjectInputStream input) throws IOException, ClassNotFoundException {
        input.defaultReadObject();
        if (file == null) {
            values = readArray(input);
            positions = input.readBoolean() ? readArray(input) : null;
        }
    }

    private static void writeArray(ObjectOutputStream output, NDArray array) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Npy.writeTo(bytes, array, ByteOrder.LITTLE_ENDIAN);
        output.writeInt(bytes.size());
        bytes.writeTo(output);
    }

    private static NDArray readArray(ObjectInputStream input) throws IOException {
        byte[] bytes = new byte[input.readInt()];
        input.readFully(bytes);
        return Npy.readFrom(new ByteArrayInputStream(bytes), "a sorted run");
    }

    /**
     * Reads a run: the key of any element, searches for a key within a range of a lane, and the
     * values and positions of a range as a segment (element 0 at offset 0).
     */
    abstract static sealed class Reader implements AutoCloseable permits MemoryReader, FileReader {
        final SortedRun run;
        final OrderKeys.KeyReader keys;
        final int itemSize;

        Reader(SortedRun run) {
            this.run = run;
            this.keys = OrderKeys.reader(run.dtype);
            this.itemSize = run.dtype.byteSize();
        }

        long length() {
            return run.length;
        }

        abstract long key(int line, long position);

        /**
         * The first position in {@code [from, to)} of the lane whose key is at least {@code key}
         * ({@code upper}: greater than it), or {@code to}; the lane is sorted, so the positions before
         * it hold smaller keys (not greater).
         */
        abstract long search(int line, long key, long from, long to, boolean upper);

        /** The values of {@code [position, position + count)}: a view of the run, or {@code scratch} filled. */
        abstract MemorySegment values(int line, long position, int count, MemorySegment scratch, ByteBuffer scratchBuffer);

        /** The int64 positions along the axis of {@code [position, position + count)}. */
        abstract MemorySegment positions(int line, long position, int count, MemorySegment scratch, ByteBuffer scratchBuffer);

        @Override
        public void close() {
        }

        static boolean goesRight(long candidate, long key, boolean upper) {
            return upper ? candidate <= key : candidate < key;
        }
    }

    private static final class MemoryReader extends Reader {
        private final MemorySegment values;
        private final long base;
        private final MemorySegment positions;
        private final long positionBase;

        MemoryReader(SortedRun run) {
            super(run);
            this.values = run.values.segment();
            this.base = run.values.byteOffset();
            this.positions = run.positions == null ? null : run.positions.segment();
            this.positionBase = run.positions == null ? 0 : run.positions.byteOffset();
        }

        @Override
        long key(int line, long position) {
            return keys.key(values, base + (line * run.length + position) * itemSize);
        }

        @Override
        long search(int line, long key, long from, long to, boolean upper) {
            long low = from;
            long high = to;
            long lineBase = base + line * run.length * itemSize;
            while (low < high) {
                long middle = (low + high) >>> 1;
                if (goesRight(keys.key(values, lineBase + middle * itemSize), key, upper)) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            return low;
        }

        @Override
        MemorySegment values(int line, long position, int count, MemorySegment scratch, ByteBuffer scratchBuffer) {
            return values.asSlice(base + (line * run.length + position) * itemSize, (long) count * itemSize);
        }

        @Override
        MemorySegment positions(int line, long position, int count, MemorySegment scratch, ByteBuffer scratchBuffer) {
            return positions.asSlice(positionBase + (line * run.length + position) * Long.BYTES, (long) count * Long.BYTES);
        }
    }

    /** Positional reads of a run file, with a few pages of keys cached for the searches. */
    private static final class FileReader extends Reader {
        private static final int CACHED_PAGES = 8;
        private final FileChannel channel;
        private final int samplesPerLine;
        private final Map<Long, long[]> pages = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, long[]> eldest) {
                return size() > CACHED_PAGES;
            }
        };
        private ByteBuffer pageBuffer;

        FileReader(SortedRun run) {
            super(run);
            this.samplesPerLine = samplesPerLine(run.length);
            try {
                this.channel = FileChannel.open(Path.of(run.file), StandardOpenOption.READ);
            } catch (IOException failure) {
                throw new UncheckedIOException("sort: cannot open the sorted run " + run.file + " (scratch files live until the sort's last"
                        + " block is made; was the computation run again after it finished?): " + failure.getMessage(), failure);
            }
        }

        @Override
        long key(int line, long position) {
            long page = position / PAGE;
            return page(line, page)[(int) (position - page * PAGE)];
        }

        @Override
        long search(int line, long key, long from, long to, boolean upper) {
            long low = from;
            long high = to;
            if (low >= high) {
                return low;
            }
            // Pages whose first element lies in (low, high): their samples narrow the range to one page.
            long firstPage = low / PAGE + 1;
            long lastPage = (high - 1) / PAGE;
            long a = firstPage;
            long b = lastPage + 1;
            int base = line * samplesPerLine;
            while (a < b) {
                long middle = (a + b) >>> 1;
                if (goesRight(run.samples[base + (int) middle], key, upper)) {
                    a = middle + 1;
                } else {
                    b = middle;
                }
            }
            if (a > firstPage) {
                low = Math.max(low, (a - 1) * PAGE + 1);
            }
            if (a <= lastPage) {
                high = Math.min(high, a * PAGE);
            }
            if (low >= high) {
                return low;
            }
            long page = low / PAGE;
            long[] pageKeys = page(line, page);
            long offset = page * PAGE;
            while (low < high) {
                long middle = (low + high) >>> 1;
                if (goesRight(pageKeys[(int) (middle - offset)], key, upper)) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            return low;
        }

        private long[] page(int line, long page) {
            long id = (long) line * samplesPerLine + page;
            long[] cached = pages.get(id);
            if (cached != null) {
                return cached;
            }
            int count = (int) Math.min(PAGE, run.length - page * PAGE);
            if (pageBuffer == null) {
                pageBuffer = ByteBuffer.allocate(PAGE * itemSize).order(ByteOrder.LITTLE_ENDIAN);
            }
            MemorySegment segment = read(valueOffset(line, page * PAGE), (long) count * itemSize, MemorySegment.ofArray(pageBuffer.array()), pageBuffer);
            long[] pageKeys = new long[count];
            for (int i = 0; i < count; i++) {
                pageKeys[i] = keys.key(segment, (long) i * itemSize);
            }
            pages.put(id, pageKeys);
            return pageKeys;
        }

        private long valueOffset(int line, long position) {
            return (line * run.length + position) * itemSize;
        }

        @Override
        MemorySegment values(int line, long position, int count, MemorySegment scratch, ByteBuffer scratchBuffer) {
            return read(valueOffset(line, position), (long) count * itemSize, scratch, scratchBuffer);
        }

        @Override
        MemorySegment positions(int line, long position, int count, MemorySegment scratch, ByteBuffer scratchBuffer) {
            long start = run.lines * run.length * itemSize + (line * run.length + position) * Long.BYTES;
            return read(start, (long) count * Long.BYTES, scratch, scratchBuffer);
        }

        /** Reads {@code byteCount} bytes at {@code fileOffset} into the buffer behind {@code scratch}. */
        private MemorySegment read(long fileOffset, long byteCount, MemorySegment scratch, ByteBuffer buffer) {
            buffer.clear().limit((int) byteCount);
            try {
                long at = fileOffset;
                while (buffer.hasRemaining()) {
                    int read = channel.read(buffer, at);
                    if (read < 0) {
                        throw new IOException("the file ends at byte " + at + ", before " + (fileOffset + byteCount));
                    }
                    at += read;
                }
            } catch (IOException failure) {
                throw new UncheckedIOException("sort: cannot read the sorted run " + run.file + ": " + failure.getMessage(), failure);
            }
            return scratch.asSlice(0, byteCount);
        }

        @Override
        public void close() {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Read-only: nothing is lost.
            }
        }
    }
}

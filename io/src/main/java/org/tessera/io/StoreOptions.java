package org.tessera.io;

import java.util.Objects;

import org.tessera.array.ChunkedArray;
import org.tessera.graph.schedule.Scheduler;

/**
 * How {@link ChunkedStore#store} runs.
 *
 * @param scheduler  runs the writing graph; a ThreadedScheduler with a memory budget bounds memory
 *                   and lets the report give the peak bytes held
 * @param resume     write only the chunks the sink lacks, as after an interrupted store; chunk
 *                   writes are atomic, so a chunk that is present is complete
 * @param misaligned what to do when blocks of the array do not cover whole chunks of the sink
 */
public record StoreOptions(Scheduler scheduler, boolean resume, Misaligned misaligned) {
    public StoreOptions {
        Objects.requireNonNull(scheduler);
        Objects.requireNonNull(misaligned);
    }

    /** Options that lock regions where blocks and chunks do not align. */
    public StoreOptions(Scheduler scheduler, boolean resume) {
        this(scheduler, resume, Misaligned.LOCK_REGIONS);
    }

    /** When a block boundary of the array falls inside a chunk of the sink, so chunks have several writers. */
    public enum Misaligned {
        /**
         * Each block writes its part of the chunks it overlaps under the chunk's lock; a chunk is
         * gathered in memory until its last part arrives, then written once (as Dask's
         * {@code store(lock=True)}, but never writing a half-filled chunk). Needs every writer in
         * one process: with a scheduler that may run tasks elsewhere
         * ({@link Scheduler#runsTasksInThisProcess()} false, as Spark), the store rechunks instead.
         */
        LOCK_REGIONS,
        /** The array is rechunked to the sink's chunks first, so each chunk has one writer. */
        RECHUNK
    }

    /** The default scheduler of chunked arrays, every chunk written, regions locked where blocks and chunks differ. */
    public static StoreOptions defaults() {
        return new StoreOptions(ChunkedArray.defaultScheduler(), false);
    }

    public StoreOptions withScheduler(Scheduler newScheduler) {
        return new StoreOptions(newScheduler, resume, misaligned);
    }

    public StoreOptions withResume(boolean newResume) {
        return new StoreOptions(scheduler, newResume, misaligned);
    }

    public StoreOptions withMisaligned(Misaligned newMisaligned) {
        return new StoreOptions(scheduler, resume, newMisaligned);
    }
}

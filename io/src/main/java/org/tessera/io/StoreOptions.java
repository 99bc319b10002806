package org.tessera.io;

import java.util.Objects;

import org.tessera.array.ChunkedArray;
import org.tessera.graph.schedule.Scheduler;

/**
 * How {@link ChunkedStore#store} runs.
 *
 * @param scheduler runs the writing graph; a ThreadedScheduler with a memory budget bounds memory
 *                  and lets the report give the peak bytes held
 * @param resume    write only the chunks the sink lacks, as after an interrupted store; chunk
 *                  writes are atomic, so a chunk that is present is complete
 */
public record StoreOptions(Scheduler scheduler, boolean resume) {
    public StoreOptions {
        Objects.requireNonNull(scheduler);
    }

    /** The default scheduler of chunked arrays, every chunk written. */
    public static StoreOptions defaults() {
        return new StoreOptions(ChunkedArray.defaultScheduler(), false);
    }

    public StoreOptions withScheduler(Scheduler newScheduler) {
        return new StoreOptions(newScheduler, resume);
    }

    public StoreOptions withResume(boolean newResume) {
        return new StoreOptions(scheduler, newResume);
    }
}

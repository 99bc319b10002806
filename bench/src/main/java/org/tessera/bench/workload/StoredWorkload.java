package org.tessera.bench.workload;

import java.io.IOException;

/** A workload over a stored array (R1-R7, H1), which also reports its floor and may have written its input. */
interface StoredWorkload extends Workload {

    /** Seconds to read and decode every chunk of the input on all cores with no array work, measured now. */
    double floorSeconds() throws IOException, InterruptedException;

    /** Seconds to read every chunk in slabs of a strip's rows, each into reused scratch memory, on all cores with no array work. */
    double slabFloorSeconds() throws IOException, InterruptedException;

    /** Deletes the input this workload wrote itself; an input given with --store stays. */
    void close() throws IOException;
}

package org.tessera.array.memory;

import java.util.function.LongSupplier;

import org.tessera.graph.memory.AllocationMeter;
import org.tessera.ndarray.memory.Allocations;

/** Gives the graph's schedulers the ndarray core's count of the bytes each thread allocates for arrays. */
public final class NDArrayAllocationMeter implements AllocationMeter {
    @Override
    public LongSupplier ofCurrentThread() {
        Allocations.Counter counter = Allocations.ofCurrentThread();
        return counter::bytes;
    }
}

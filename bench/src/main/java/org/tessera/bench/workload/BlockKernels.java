package org.tessera.bench.workload;

import org.tessera.ndarray.NDArray;

/** The two per-block operations of W5 on 1-D float64 blocks. */
final class BlockKernels {
    private BlockKernels() {
    }

    static NDArray plus(NDArray block, double addend) {
        NDArray result = NDArray.zeros(block.dtype(), block.shape());
        for (long position = 0; position < block.size(); position++) {
            result.setDouble(block.getDouble(position) + addend, position);
        }
        return result;
    }

    static double sum(NDArray block) {
        double total = 0;
        for (long position = 0; position < block.size(); position++) {
            total += block.getDouble(position);
        }
        return total;
    }
}

package org.tessera.ndarray.ufunc;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Optional;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * A binary ufunc's contiguous loop run in place over consecutive elements of one dtype: the
 * target holds one operand, the values given hold the other, and the result replaces the target.
 * A producer that makes an operand run by run (a random block) combines each run into the other
 * operand while the run is in cache, so the operand is never made whole and the ufunc never reads
 * it back. Each element goes through the loop {@code ufunc(a, b)} itself would use, so the result
 * is the same bit for bit.
 */
public final class RunCombiner {
    private final ContiguousKernel kernel;
    private final DType dtype;
    private final boolean valuesFirst;

    private RunCombiner(ContiguousKernel kernel, DType dtype, boolean valuesFirst) {
        this.kernel = kernel;
        this.dtype = dtype;
        this.valuesFirst = valuesFirst;
    }

    /**
     * The combiner for {@code ufunc} on two operands of {@code dtype} whose result has that dtype
     * too, the produced values being the first operand when {@code valuesFirst}; empty where the
     * ufunc is not binary with one output, or the loop it resolves to for two such operands casts
     * or has no contiguous kernel.
     */
    public static Optional<RunCombiner> of(Ufunc ufunc, DType dtype, boolean valuesFirst) {
        if (ufunc.nin() != 2 || ufunc.nout() != 1) {
            return Optional.empty();
        }
        Loop loop = TypeResolution.resolve(ufunc, new Object[] {NDArray.empty(dtype, 0), NDArray.empty(dtype, 0)}).loop();
        if (loop.contiguous() == null || !loop.inputs().equals(List.of(dtype, dtype)) || !loop.outputs().equals(List.of(dtype))) {
            return Optional.empty();
        }
        return Optional.of(new RunCombiner(loop.contiguous(), dtype, valuesFirst));
    }

    /** The dtype of both operands and the result. */
    public DType dtype() {
        return dtype;
    }

    /**
     * Replaces {@code count} elements of {@code target} from {@code targetOffset} (bytes) by the
     * ufunc of them and the values from {@code valuesOffset}, in the operand order this was made for.
     */
    public void combine(MemorySegment values, long valuesOffset, MemorySegment target, long targetOffset, long count) {
        // The output is the target itself, element for element: each is read before it is written.
        MemorySegment[] segments = valuesFirst ? new MemorySegment[] {values, target, target} : new MemorySegment[] {target, values, target};
        long[] offsets = valuesFirst ? new long[] {valuesOffset, targetOffset, targetOffset} : new long[] {targetOffset, valuesOffset, targetOffset};
        kernel.run(segments, offsets, count);
    }
}

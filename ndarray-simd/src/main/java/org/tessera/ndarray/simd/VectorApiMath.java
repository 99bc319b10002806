package org.tessera.ndarray.simd;

import java.lang.foreign.MemorySegment;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import org.tessera.ndarray.kernel.VectorMath;

/**
 * {@link VectorMath} on the Vector API: on x86 HotSpot compiles these lane-wise operations to the
 * SVML routines it ships (eight float64 lanes per AVX-512 instruction), which NumPy's own SIMD loops
 * match in speed. The tail shorter than one vector runs the scalar definition.
 */
public final class VectorApiMath implements VectorMath {
    private static final VectorSpecies<Double> SPECIES = DoubleVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Long> LONG_SPECIES = LongVector.SPECIES_PREFERRED;

    @Override
    public String name() {
        return "vector-api-" + SPECIES.vectorBitSize();
    }

    @Override
    public void apply(Function function, double[] input, double[] output, int count) {
        // One loop per operator: the lane-wise operation is compiled to its SVML stub only when the
        // operator is a constant at the call site.
        int vectorEnd = count - count % SPECIES.length();
        switch (function) {
            case EXP -> {
                for (int i = 0; i < vectorEnd; i += SPECIES.length()) {
                    DoubleVector.fromArray(SPECIES, input, i).lanewise(VectorOperators.EXP).intoArray(output, i);
                }
            }
            case LOG -> {
                for (int i = 0; i < vectorEnd; i += SPECIES.length()) {
                    DoubleVector.fromArray(SPECIES, input, i).lanewise(VectorOperators.LOG).intoArray(output, i);
                }
            }
        }
        for (int i = vectorEnd; i < count; i++) {
            output[i] = function.applyAsDouble(input[i]);
        }
    }

    /**
     * Heap arrays of Tessera are {@code long[]}-backed: the vectors are read from and written to that
     * array and reinterpreted as doubles, which costs nothing, where the Vector API's loads from a
     * memory segment are not compiled to the SVML stubs (0.055 s against 0.006 s for exp of 10^7).
     * Native, read-only or misaligned memory is declined and goes through lane buffers.
     */
    @Override
    public boolean applyContiguous(Function function, MemorySegment input, long inputOffset, MemorySegment output, long outputOffset, long count) {
        if (!(input.heapBase().orElse(null) instanceof long[] in) || !(output.heapBase().orElse(null) instanceof long[] out)) {
            return false;
        }
        long inputByte = input.address() + inputOffset;
        long outputByte = output.address() + outputOffset;
        if (inputByte % Long.BYTES != 0 || outputByte % Long.BYTES != 0 || count > Integer.MAX_VALUE) {
            return false;
        }
        int from = (int) (inputByte / Long.BYTES);
        int to = (int) (outputByte / Long.BYTES);
        int vectorEnd = (int) count - (int) count % LONG_SPECIES.length();
        switch (function) {
            case EXP -> {
                for (int i = 0; i < vectorEnd; i += LONG_SPECIES.length()) {
                    LongVector.fromArray(LONG_SPECIES, in, from + i).reinterpretAsDoubles().lanewise(VectorOperators.EXP)
                            .reinterpretAsLongs().intoArray(out, to + i);
                }
            }
            case LOG -> {
                for (int i = 0; i < vectorEnd; i += LONG_SPECIES.length()) {
                    LongVector.fromArray(LONG_SPECIES, in, from + i).reinterpretAsDoubles().lanewise(VectorOperators.LOG)
                            .reinterpretAsLongs().intoArray(out, to + i);
                }
            }
        }
        for (int i = vectorEnd; i < count; i++) {
            out[to + i] = Double.doubleToRawLongBits(function.applyAsDouble(Double.longBitsToDouble(in[from + i])));
        }
        return true;
    }
}

package org.tessera.ndarray.simd;

import jdk.incubator.vector.DoubleVector;
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
}

package org.tessera.ndarray.ufunc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;

/**
 * A run combined into memory in place holds what the ufunc gives for the two operands in the order
 * the combiner was made for, bit for bit, over lengths on both sides of a vector's width.
 */
class RunCombinerTest {

    @Test
    void aCombinedRunIsTheUfuncOfTheTargetAndTheValuesInTheirOrder() {
        SplittableRandom random = new SplittableRandom(3);
        for (Ufunc ufunc : List.of(Ufuncs.ADD, Ufuncs.SUBTRACT, Ufuncs.MULTIPLY, Ufuncs.TRUE_DIVIDE)) {
            for (boolean valuesFirst : new boolean[] {false, true}) {
                RunCombiner combiner = RunCombiner.of(ufunc, DType.FLOAT64, valuesFirst).orElseThrow();
                for (int length : new int[] {1, 3, 8, 37, 1000}) {
                    double[] held = random.doubles(length + 5, -2, 2).toArray();
                    double[] made = random.doubles(length + 2, -2, 2).toArray();
                    NDArray target = NDArrays.array(held);
                    NDArray values = NDArrays.array(made);
                    NDArray targetRun = target.slice(0, 5, 1, length);
                    NDArray valuesRun = values.slice(0, 2, 1, length);
                    NDArray expected = valuesFirst ? ufunc.apply(valuesRun, targetRun) : ufunc.apply(targetRun, valuesRun);
                    combiner.combine(values.segment(), valuesRun.byteOffset(), target.segment(), targetRun.byteOffset(), length);
                    String where = ufunc.name() + (valuesFirst ? "(values, target)" : "(target, values)") + " over " + length;
                    for (int i = 0; i < length; i++) {
                        assertEquals(Double.doubleToRawLongBits(expected.getDouble(i)), Double.doubleToRawLongBits(targetRun.getDouble(i)), where + " at " + i);
                    }
                    for (int i = 0; i < 5; i++) {
                        assertEquals(held[i], target.getDouble(i), where + ": the target before the run was written at " + i);
                    }
                }
            }
        }
    }

    @Test
    void ufuncsThatCastOrAreNotBinaryHaveNoCombiner() {
        assertTrue(RunCombiner.of(Ufuncs.GREATER, DType.FLOAT64, false).isEmpty(), "a comparison gives bool");
        assertTrue(RunCombiner.of(Ufuncs.NEGATIVE, DType.FLOAT64, false).isEmpty(), "negative has one input");
        assertTrue(RunCombiner.of(Ufuncs.DIVMOD, DType.FLOAT64, false).isEmpty(), "divmod has two outputs");
        assertTrue(RunCombiner.of(Ufuncs.TRUE_DIVIDE, DType.INT32, false).isEmpty(), "int32 / int32 is float64");
        assertEquals(DType.FLOAT64, RunCombiner.of(Ufuncs.ADD, DType.FLOAT64, true).orElseThrow().dtype());
    }
}

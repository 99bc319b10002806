package org.tessera.ndarray.ufunc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.Casting;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.CastingException;
import org.tessera.ndarray.error.ShapeMismatchException;

class UfuncTest {

    private static NDArray[] call(Ufunc ufunc, Object[] inputs, NDArray out, NDArray where) {
        return ufunc.apply(inputs, new NDArray[] {out}, where, Casting.SAME_KIND);
    }

    @Nested
    class TypeResolution {
        @Test
        void sqrtOfIntegersPicksTheSmallestSafeFloat() {
            assertEquals(DType.FLOAT16, Ufuncs.SQRT.apply(NDArrays.array(new byte[] {4})).dtype());
            assertEquals(DType.FLOAT32, Ufuncs.SQRT.apply(NDArrays.array(new short[] {4})).dtype());
            assertEquals(DType.FLOAT64, Ufuncs.SQRT.apply(NDArrays.array(4, 9)).dtype());
            assertEquals(DType.FLOAT64, Ufuncs.SQRT.apply(NDArrays.array(4L, 9L)).dtype());
        }

        @Test
        void trueDivideOfIntegersIsFloat64() {
            NDArray quotient = Ufuncs.TRUE_DIVIDE.apply(NDArrays.array(new byte[] {1, 3}), NDArrays.array(new byte[] {2, 4}));
            assertEquals(DType.FLOAT64, quotient.dtype());
            assertArrayEquals(new double[] {0.5, 0.75}, Flat.doubles(quotient));
        }

        @Test
        void comparisonsAndLogicalFunctionsGiveBool() {
            assertEquals(DType.BOOL, Ufuncs.LESS.apply(NDArrays.array(1.0, 2.0), 1.5).dtype());
            assertEquals(DType.BOOL, Ufuncs.LOGICAL_AND.apply(NDArrays.array(1.0, 0.0), NDArrays.array(3, 4)).dtype());
        }

        @Test
        void weakScalarsTakeTheArrayType() {
            assertEquals(DType.INT8, Ufuncs.ADD.apply(NDArrays.array(new byte[] {1}), 5).dtype());
            assertEquals(DType.FLOAT64, Ufuncs.ADD.apply(NDArrays.array(new byte[] {1}), 0.5).dtype());
            assertEquals(DType.FLOAT32, Ufuncs.ADD.apply(NDArrays.array(1f), 1e300).dtype());
        }

        @Test
        void aJavaIntegerOutsideTheArrayTypeIsAnOverflow() {
            ArithmeticException thrown = assertThrows(ArithmeticException.class,
                    () -> Ufuncs.ADD.apply(NDArrays.array(new byte[] {1}), 300));
            assertTrue(thrown.getMessage().contains("300") && thrown.getMessage().contains("int8"), thrown.getMessage());
        }

        @Test
        void aComparisonWithAnOutOfRangeIntegerComparesValues() {
            NDArray unsigned = NDArrays.array(new byte[] {5}).astype(DType.UINT8);
            assertTrue(Ufuncs.GREATER.apply(unsigned, -1).getBoolean(0));
        }

        @Test
        void noLoopIsATypeErrorNamingTheDtypes() {
            CastingException thrown = assertThrows(CastingException.class,
                    () -> Ufuncs.BITWISE_AND.apply(NDArrays.array(1.0), NDArrays.array(1)));
            assertTrue(thrown.getMessage().contains("bitwise_and") && thrown.getMessage().contains("float64"), thrown.getMessage());
        }

        @Test
        void loopTableListsSignatures() {
            assertTrue(Ufuncs.ADD.types().containsAll(java.util.List.of("??->?", "bb->b", "LL->L", "ee->e", "dd->d")));
            assertEquals(java.util.List.of("??->?"), Ufuncs.LOGICAL_OR.types());
        }
    }

    @Nested
    class Semantics {
        @Test
        void integerArithmeticWraps() {
            NDArray bytes = NDArrays.array(new byte[] {127, -128});
            assertArrayEquals(new double[] {-128, 127}, Flat.doubles(Ufuncs.ADD.apply(bytes, NDArrays.array(new byte[] {1, -1}))));
        }

        @Test
        void integerDivisionByZeroGivesZero() {
            NDArray result = Ufuncs.FLOOR_DIVIDE.apply(NDArrays.array(7L, -7L), NDArrays.array(0L, 2L));
            assertArrayEquals(new double[] {0, -4}, Flat.doubles(result));
            assertArrayEquals(new double[] {0, 1}, Flat.doubles(Ufuncs.REMAINDER.apply(NDArrays.array(7L, -7L), NDArrays.array(0L, 2L))));
        }

        @Test
        void integerPowerWithANegativeExponentIsAValueError() {
            IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
                    () -> Ufuncs.POWER.apply(NDArrays.array(2L), NDArrays.array(-1L)));
            assertTrue(thrown.getMessage().contains("negative"), thrown.getMessage());
        }

        @Test
        void floatEdgeCasesFollowIeee() {
            NDArray result = Ufuncs.TRUE_DIVIDE.apply(NDArrays.array(1.0, -1.0, 0.0), NDArrays.array(0.0, 0.0, 0.0));
            double[] quotients = Flat.doubles(result);
            assertEquals(Double.POSITIVE_INFINITY, quotients[0]);
            assertEquals(Double.NEGATIVE_INFINITY, quotients[1]);
            assertTrue(Double.isNaN(quotients[2]));
            assertTrue(Double.isNaN(Ufuncs.MAXIMUM.apply(NDArrays.array(Double.NaN), 1.0).getDouble(0)));
            assertEquals(1.0, Ufuncs.FMAX.apply(NDArrays.array(Double.NaN), 1.0).getDouble(0));
            assertTrue(Ufuncs.SIGNBIT.apply(NDArrays.array(-0.0)).getBoolean(0));
        }

        @Test
        void divmodHasTwoOutputs() {
            NDArray[] outputs = Ufuncs.DIVMOD.applyAll(NDArrays.array(-7.0, 7.5), 2.0);
            assertArrayEquals(new double[] {-4, 3}, Flat.doubles(outputs[0]));
            assertArrayEquals(new double[] {1, 1.5}, Flat.doubles(outputs[1]));
        }

        @Test
        void float32TranscendentalsRoundOnceFromDouble() {
            NDArray result = Ufuncs.EXP.apply(NDArrays.array(1f));
            assertEquals(DType.FLOAT32, result.dtype());
            assertEquals((float) Math.E, (float) result.getDouble(0));
        }

        @Test
        void clipAndWhereAreTernary() {
            assertArrayEquals(new double[] {1, 2, 3}, Flat.doubles(NDArrays.clip(NDArrays.array(0L, 2L, 9L), 1L, 3L)));
            NDArray chosen = NDArrays.where(NDArrays.array(true, false), NDArrays.array(1.0, 2.0), -1.0);
            assertArrayEquals(new double[] {1, -1}, Flat.doubles(chosen));
        }
    }

    @Nested
    class OutAndWhere {
        @Test
        void unselectedOutputElementsKeepTheirValues() {
            NDArray out = NDArrays.full(DType.FLOAT64, 7, 4);
            NDArray mask = NDArrays.array(true, false, true, false);
            call(Ufuncs.ADD, new Object[] {NDArrays.array(1.0, 2.0, 3.0, 4.0), 10.0}, out, mask);
            assertArrayEquals(new double[] {11, 7, 13, 7}, Flat.doubles(out));
        }

        @Test
        void aBroadcastMaskSelectsColumns() {
            NDArray out = NDArrays.zeros(DType.INT64, 2, 3);
            call(Ufuncs.ADD, new Object[] {NDArrays.arange(6).reshape(2, 3), 1L}, out, NDArrays.array(true, false, true));
            assertArrayEquals(new double[] {1, 0, 3, 4, 0, 6}, Flat.doubles(out));
        }

        @Test
        void anOutputTheResultCannotBeCastToIsATypeError() {
            NDArray out = NDArrays.zeros(DType.INT32, 2);
            CastingException thrown = assertThrows(CastingException.class,
                    () -> call(Ufuncs.ADD, new Object[] {NDArrays.array(1.0, 2.0), 1.0}, out, null));
            assertTrue(thrown.getMessage().contains("float64") && thrown.getMessage().contains("int32")
                    && thrown.getMessage().contains("same_kind"), thrown.getMessage());
        }

        @Test
        void unsafeCastingAllowsTheNarrowingOutput() {
            NDArray out = NDArrays.zeros(DType.INT32, 2);
            Ufuncs.ADD.apply(new Object[] {NDArrays.array(1.5, 2.5), 1.0}, new NDArray[] {out}, null, Casting.UNSAFE);
            assertArrayEquals(new double[] {2, 3}, Flat.doubles(out));
        }

        @Test
        void anOutputOfTheWrongShapeIsAValueErrorNamingTheShapes() {
            NDArray out = NDArrays.zeros(DType.FLOAT64, 3);
            ShapeMismatchException thrown = assertThrows(ShapeMismatchException.class,
                    () -> call(Ufuncs.ADD, new Object[] {NDArrays.array(1.0, 2.0), 1.0}, out, null));
            assertTrue(thrown.getMessage().contains("(3,)") && thrown.getMessage().contains("(2,)"), thrown.getMessage());
        }

        @Test
        void operandsThatDoNotBroadcastNameTheirShapes() {
            ShapeMismatchException thrown = assertThrows(ShapeMismatchException.class,
                    () -> Ufuncs.ADD.apply(NDArrays.zeros(DType.FLOAT64, 2, 3), NDArrays.zeros(DType.FLOAT64, 4)));
            assertTrue(thrown.getMessage().contains("(2,3)") && thrown.getMessage().contains("(4,)"), thrown.getMessage());
        }

        @Test
        void anOverlappingShiftedOutputSeesTheOriginalInput() {
            NDArray x = NDArrays.array(1.0, 2.0, 3.0, 4.0);
            NDArray tail = x.slice(0, 1, 1, 3);
            NDArray head = x.slice(0, 0, 1, 3);
            call(Ufuncs.ADD, new Object[] {head, tail}, tail, null);
            assertArrayEquals(new double[] {1, 3, 5, 7}, Flat.doubles(x));
        }
    }

    @Nested
    class Paths {
        @Test
        void broadcastingAColumnAgainstARow() {
            NDArray column = NDArrays.array(0.0, 10.0, 20.0).reshape(3, 1);
            NDArray row = NDArrays.array(1.0, 2.0, 3.0, 4.0);
            NDArray sum = Ufuncs.ADD.apply(column, row);
            assertArrayEquals(new long[] {3, 4}, sum.shape());
            assertEquals(23.0, sum.getDouble(2, 2));
        }

        @Test
        void bufferedPathCastsInt32AndFloat32IntoAFloat64Output() {
            int count = 3 * Elementwise.BLOCK + 17;
            NDArray ints = NDArrays.arange(count).astype(DType.INT32);
            NDArray floats = NDArrays.full(DType.FLOAT32, 0.25, count);
            NDArray out = NDArrays.zeros(DType.FLOAT64, count);
            call(Ufuncs.ADD, new Object[] {ints, floats}, out, null);
            assertEquals(DType.FLOAT64, Ufuncs.ADD.apply(ints, floats).dtype());
            assertEquals(count - 1 + 0.25, out.getDouble(count - 1));
            assertEquals(Elementwise.BLOCK + 0.25, out.getDouble(Elementwise.BLOCK));
        }

        @Test
        void misalignedStridedViewsGiveTheSameResults() {
            MemorySegment bytes = MemorySegment.ofArray(new byte[8 * 40 + 1]);
            NDArray misaligned = NDArray.wrap(bytes, 1, new long[] {20}, new long[] {16}, DType.FLOAT64, true);
            for (int i = 0; i < 20; i++) {
                misaligned.setDouble(i, i);
            }
            assertFalse(misaligned.isAligned());
            NDArray squares = Ufuncs.MULTIPLY.apply(misaligned, misaligned);
            assertEquals(361.0, squares.getDouble(19));
            assertEquals(19.0, bytes.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 1 + 19 * 16));
        }

        @Test
        void transposedOperandsTakeTheStridedPath() {
            NDArray grid = NDArrays.arange(12).reshape(3, 4).astype(DType.FLOAT64);
            NDArray sum = Ufuncs.ADD.apply(grid.transpose(), grid.transpose());
            assertArrayEquals(new long[] {4, 3}, sum.shape());
            assertEquals(2 * 11.0, sum.getDouble(3, 2));
        }

        @Test
        void contiguousFloat64AddMatchesTheBlockPath() {
            NDArray x = NDArrays.linspace(0, 1, 1000);
            NDArray fast = Ufuncs.ADD.apply(x, x);
            NDArray viaBlocks = Ufuncs.ADD.apply(x, NDArrays.linspace(0, 1, 1000).astype(DType.FLOAT32).astype(DType.FLOAT64));
            assertEquals(2.0, fast.getDouble(999));
            assertEquals(2.0, viaBlocks.getDouble(999));
        }

        @Test
        void outerCombinesEveryPair() {
            NDArray table = NDArrays.outer(Ufuncs.MULTIPLY, NDArrays.array(1L, 2L, 3L), NDArrays.array(10L, 100L));
            assertArrayEquals(new long[] {3, 2}, table.shape());
            assertEquals(300L, table.getLong(2, 1));
        }
    }
}

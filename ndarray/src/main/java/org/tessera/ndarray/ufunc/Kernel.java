package org.tessera.ndarray.ufunc;

import java.util.function.DoubleBinaryOperator;
import java.util.function.DoublePredicate;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;

import org.tessera.ndarray.kernel.VectorMath;

/**
 * The computation of one output of a loop, written once per loop kind over the computing lanes
 * ({@code double[]} for floats, {@code long[]} for bool and integers, bools as 0/1, interleaved
 * {@code double[]} pairs for complex). A kernel sees
 * lane buffers, never dtypes: the loads before it and the store after it do the widths, the
 * signedness and the casts, so one scalar function serves every dtype of its lane.
 */
sealed interface Kernel {

    /** Computes {@code count} results from the input lanes into the output lane. */
    void apply(Object[] inputs, Object output, int count);

    /** d->d */
    record DoubleUnary(DoubleUnaryOperator function) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            double[] x = (double[]) inputs[0];
            double[] result = (double[]) output;
            for (int i = 0; i < count; i++) {
                result[i] = function.applyAsDouble(x[i]);
            }
        }
    }

    /** d->d over whole lanes through {@link VectorMath}: vectorised where a provider is present. */
    record DoubleLanes(VectorMath.Function function) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            VectorMath.selected().apply(function, (double[]) inputs[0], (double[]) output, count);
        }
    }

    /** dd->d */
    record DoubleBinary(DoubleBinaryOperator function) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            double[] x = (double[]) inputs[0];
            double[] y = (double[]) inputs[1];
            double[] result = (double[]) output;
            for (int i = 0; i < count; i++) {
                result[i] = function.applyAsDouble(x[i], y[i]);
            }
        }
    }

    /** l->l */
    record LongUnary(LongUnaryOperator function) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            long[] x = (long[]) inputs[0];
            long[] result = (long[]) output;
            for (int i = 0; i < count; i++) {
                result[i] = function.applyAsLong(x[i]);
            }
        }
    }

    /** ll->l */
    record LongBinary(LongBinaryOperator function) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            long[] x = (long[]) inputs[0];
            long[] y = (long[]) inputs[1];
            long[] result = (long[]) output;
            for (int i = 0; i < count; i++) {
                result[i] = function.applyAsLong(x[i], y[i]);
            }
        }
    }

    /** dd->d for the four arithmetic operators, without a call per element. */
    record DoubleArithmetic(Arithmetic operator) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            operator.apply((double[]) inputs[0], (double[]) inputs[1], (double[]) output, count);
        }
    }

    /** d->d for negative, absolute, square and sqrt, without a call per element. */
    record DoubleUnaryArithmetic(UnaryArithmetic operator) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            operator.apply((double[]) inputs[0], (double[]) output, count);
        }
    }

    /** ll->l for add, subtract and multiply, without a call per element. */
    record LongArithmetic(Arithmetic operator) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            operator.apply((long[]) inputs[0], (long[]) inputs[1], (long[]) output, count);
        }
    }

    /** d->? */
    record DoubleTest(DoublePredicate test) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            double[] x = (double[]) inputs[0];
            long[] result = (long[]) output;
            for (int i = 0; i < count; i++) {
                result[i] = test.test(x[i]) ? 1 : 0;
            }
        }
    }

    /** A relation between two doubles. */
    @FunctionalInterface
    interface DoubleRelation {
        boolean test(double x, double y);
    }

    /** A relation between two long-lane values. */
    @FunctionalInterface
    interface LongRelation {
        boolean test(long x, long y);
    }

    /** dd->? */
    record DoubleCompare(DoubleRelation relation) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            double[] x = (double[]) inputs[0];
            double[] y = (double[]) inputs[1];
            long[] result = (long[]) output;
            for (int i = 0; i < count; i++) {
                result[i] = relation.test(x[i], y[i]) ? 1 : 0;
            }
        }
    }

    /** ll->? */
    record LongCompare(LongRelation relation) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            long[] x = (long[]) inputs[0];
            long[] y = (long[]) inputs[1];
            long[] result = (long[]) output;
            for (int i = 0; i < count; i++) {
                result[i] = relation.test(x[i], y[i]) ? 1 : 0;
            }
        }
    }

    /** Three doubles to one, as clip needs. */
    @FunctionalInterface
    interface DoubleTernaryOperator {
        double apply(double x, double y, double z);
    }

    /** Three long-lane values to one. */
    @FunctionalInterface
    interface LongTernaryOperator {
        long apply(long x, long y, long z);
    }

    /** ddd->d */
    record DoubleTernary(DoubleTernaryOperator function) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            double[] x = (double[]) inputs[0];
            double[] y = (double[]) inputs[1];
            double[] z = (double[]) inputs[2];
            double[] result = (double[]) output;
            for (int i = 0; i < count; i++) {
                result[i] = function.apply(x[i], y[i], z[i]);
            }
        }
    }

    /** lll->l */
    record LongTernary(LongTernaryOperator function) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            long[] x = (long[]) inputs[0];
            long[] y = (long[]) inputs[1];
            long[] z = (long[]) inputs[2];
            long[] result = (long[]) output;
            for (int i = 0; i < count; i++) {
                result[i] = function.apply(x[i], y[i], z[i]);
            }
        }
    }

    /**
     * ?xx->x: the second input where the condition holds, else the third; {@code width} doubles
     * per element in the double lanes (2 for complex).
     */
    record Select(int width) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            long[] condition = (long[]) inputs[0];
            if (output instanceof long[] result) {
                long[] x = (long[]) inputs[1];
                long[] y = (long[]) inputs[2];
                for (int i = 0; i < count; i++) {
                    result[i] = condition[i] != 0 ? x[i] : y[i];
                }
                return;
            }
            double[] x = (double[]) inputs[1];
            double[] y = (double[]) inputs[2];
            double[] result = (double[]) output;
            for (int i = 0; i < count; i++) {
                double[] chosen = condition[i] != 0 ? x : y;
                for (int part = 0; part < width; part++) {
                    result[i * width + part] = chosen[i * width + part];
                }
            }
        }
    }

    /** One complex result from one complex value, written at {@code result[at]} (real) and {@code result[at + 1]}. */
    @FunctionalInterface
    interface ComplexUnaryOperator {
        void apply(double real, double imag, double[] result, int at);
    }

    /** One complex result from two complex values. */
    @FunctionalInterface
    interface ComplexBinaryOperator {
        void apply(double real, double imag, double otherReal, double otherImag, double[] result, int at);
    }

    /** A real result from a complex value (absolute). */
    @FunctionalInterface
    interface ComplexToDouble {
        double apply(double real, double imag);
    }

    /** D->D over interleaved lanes. */
    record ComplexUnary(ComplexUnaryOperator function) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            double[] x = (double[]) inputs[0];
            double[] result = (double[]) output;
            for (int i = 0; i < 2 * count; i += 2) {
                function.apply(x[i], x[i + 1], result, i);
            }
        }
    }

    /** DD->D over interleaved lanes. */
    record ComplexBinary(ComplexBinaryOperator function) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            double[] x = (double[]) inputs[0];
            double[] y = (double[]) inputs[1];
            double[] result = (double[]) output;
            for (int i = 0; i < 2 * count; i += 2) {
                function.apply(x[i], x[i + 1], y[i], y[i + 1], result, i);
            }
        }
    }

    /** D->d */
    record ComplexReal(ComplexToDouble function) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            double[] x = (double[]) inputs[0];
            double[] result = (double[]) output;
            for (int i = 0; i < count; i++) {
                result[i] = function.apply(x[2 * i], x[2 * i + 1]);
            }
        }
    }

    /** DD->? : both parts compared. */
    record ComplexEquality(boolean equal) implements Kernel {
        public void apply(Object[] inputs, Object output, int count) {
            double[] x = (double[]) inputs[0];
            double[] y = (double[]) inputs[1];
            long[] result = (long[]) output;
            for (int i = 0; i < count; i++) {
                boolean same = x[2 * i] == y[2 * i] && x[2 * i + 1] == y[2 * i + 1];
                result[i] = same == equal ? 1 : 0;
            }
        }
    }
}

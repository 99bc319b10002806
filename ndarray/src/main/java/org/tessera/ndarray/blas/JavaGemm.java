package org.tessera.ndarray.blas;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.kernel.Elements;

/**
 * The pure-Java provider: floats and complex numbers through {@link BlockedProduct} in double
 * precision (float32 and float16 results are rounded once at the end), integers and bool through
 * {@link ExactIntegerProduct}. A complex product is four real ones:
 * {@code re = ar·br − ai·bi}, {@code im = ar·bi + ai·br}.
 */
public final class JavaGemm implements Gemm {
    static final JavaGemm INSTANCE = new JavaGemm();

    /**
     * Multiply-adds up to which a product runs as a plain triple loop; below it, packing, task
     * set-up and (for OpenBLAS) a native call cost more than the arithmetic (a 16³ product).
     */
    static final long SMALL_PRODUCT_WORK = 4096;

    private JavaGemm() {}

    @Override
    public String name() { return "java"; }

    @Override
    public void multiply(Matrix a, Matrix b, Matrix out) {
        Gemm.checkOperands(a, b, out);
        if (out.rowCount() == 0 || out.columnCount() == 0) {
            return;
        }
        if (Math.max(Math.max(a.rowCount(), a.columnCount()), b.columnCount()) > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("gemm: a dimension of " + a.describe() + " × " + b.describe()
                    + " exceeds the Java kernel's int range");
        }
        switch (out.dtype().kind()) {
            case BOOL, SIGNED, UNSIGNED -> ExactIntegerProduct.multiply(a, b, out);
            case FLOAT -> store(product(a, b), out);
            case COMPLEX -> {
                Matrix aReal = a.part(0), aImag = a.part(1), bReal = b.part(0), bImag = b.part(1);
                double[][] real = product(aReal, bReal);
                BlockedProduct.multiplyAdd(aImag, bImag, -1.0, real);
                double[][] imag = product(aReal, bImag);
                BlockedProduct.multiplyAdd(aImag, bReal, 1.0, imag);
                store(real, out.part(0));
                store(imag, out.part(1));
            }
        }
    }

    @Override
    public void multiplyAdd(Matrix a, Matrix b, Matrix out) {
        Gemm.checkOperands(a, b, out);
        Gemm.checkAddable(out);
        if (out.rowCount() == 0 || out.columnCount() == 0) {
            return;
        }
        double[][] c = new double[(int) out.rowCount()][(int) out.columnCount()];
        for (int row = 0; row < c.length; row++) {
            long offset = out.byteOffsetOf(row, 0);
            for (int column = 0; column < c[row].length; column++, offset += out.columnByteStride()) {
                c[row][column] = Elements.loadReal(out.dtype(), out.segment(), offset);
            }
        }
        BlockedProduct.multiplyAdd(a, b, 1.0, c);
        store(c, out);
    }

    private static double[][] product(Matrix a, Matrix b) {
        double[][] c = new double[(int) a.rowCount()][(int) b.columnCount()];
        BlockedProduct.multiplyAdd(a, b, 1.0, c);
        return c;
    }

    /** Writes c into a real matrix, rounding to its dtype; contiguous float64 rows are bulk copies. */
    private static void store(double[][] c, Matrix out) {
        DType dtype = out.dtype();
        MemorySegment segment = out.segment();
        for (int row = 0; row < c.length; row++) {
            double[] values = c[row];
            long offset = out.byteOffsetOf(row, 0);
            if (dtype == DType.FLOAT64 && out.columnByteStride() == Double.BYTES) {
                MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_DOUBLE_UNALIGNED, offset, values.length);
                continue;
            }
            for (int j = 0; j < values.length; j++, offset += out.columnByteStride()) {
                Elements.storeReal(dtype, segment, offset, values[j]);
            }
        }
    }
}

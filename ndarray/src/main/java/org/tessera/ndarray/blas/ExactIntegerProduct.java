package org.tessera.ndarray.blas;

import java.util.stream.IntStream;

import org.tessera.ndarray.kernel.Elements;

/**
 * The kernel for bool and integer products: sums of products in {@code long}, which wrap modulo
 * 2^64, so storing the low bits gives exactly NumPy's wrapped result for every narrower integer
 * type. Bool operands carry 0/1 and a bool store keeps "sum != 0", the logical or of ands (a sum of
 * 0/1 products cannot wrap to 0 below 2^64 terms).
 */
final class ExactIntegerProduct {
    private ExactIntegerProduct() {}

    static void multiply(Matrix a, Matrix b, Matrix out) {
        int rowCount = (int) a.rowCount();
        int depth = (int) a.columnCount();
        int columnCount = (int) b.columnCount();
        long[][] packedB = new long[depth][columnCount];
        for (int p = 0; p < depth; p++) {
            for (int j = 0; j < columnCount; j++) {
                packedB[p][j] = Elements.loadLong(b.dtype(), b.segment(), b.byteOffsetOf(p, j));
            }
        }
        IntStream rows = IntStream.range(0, rowCount);
        (rowCount * (long) depth * columnCount > 1 << 16 ? rows.parallel() : rows).forEach(row -> {
            long[] sums = new long[columnCount];
            for (int p = 0; p < depth; p++) {
                long value = Elements.loadLong(a.dtype(), a.segment(), a.byteOffsetOf(row, p));
                long[] bRow = packedB[p];
                for (int j = 0; j < columnCount; j++) {
                    sums[j] += value * bRow[j];
                }
            }
            for (int j = 0; j < columnCount; j++) {
                Elements.storeLong(out.dtype(), out.segment(), out.byteOffsetOf(row, j), sums[j]);
            }
        });
    }
}

package org.tessera.ndarray.blas;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.memory.NativeBuffers;
import org.tessera.ndarray.parallel.Cores;

/**
 * The OpenBLAS provider: {@code cblas_?gemm} for float32, float64, complex64 and complex128, row
 * major, with a transposed operand passed as {@code CblasTrans} rather than copied; a real product
 * of a matrix's transpose with the matrix itself goes to {@code cblas_?syrk}. Everything BLAS
 * has no routine for (integers, bool, float16, a depth of 0, dimensions beyond 32-bit ints) goes
 * to {@link JavaGemm}, and so do products too small to repay a native call.
 *
 * <p>Heap memory: small products read and write heap arrays in place through a critical downcall;
 * large ones copy heap operands to native memory first (and compute the result there), because a
 * critical call holds off every safepoint of the JVM while it runs and a large GEMM runs for seconds.
 * The copies cost O(n²) against the product's O(n³), into native memory kept between calls.
 */
public final class OpenBlasGemm implements Gemm {
    private static final int ROW_MAJOR = 101;
    private static final int NO_TRANSPOSE = 111;
    private static final int TRANSPOSE = 112;
    private static final int UPPER = 121;
    /** Multiply-adds up to which a call may be critical: 128³ takes well under a millisecond. */
    private static final long CRITICAL_WORK_LIMIT = 1L << 21;

    private final OpenBlasLibrary library;

    OpenBlasGemm(OpenBlasLibrary library) {
        this.library = library;
    }

    @Override
    public String name() { return "openblas"; }

    /** The shared library this provider calls. */
    public String libraryLocation() { return library.location(); }

    /** The kernels the library chose for this CPU (OpenBLAS's core name, such as Haswell or SkylakeX), where it says. */
    public Optional<String> coreName() { return library.coreName(); }

    /** How BLAS sees one operand: a pointer to element (0, 0), a transpose flag and a leading dimension. */
    private record BlasOperand(MemorySegment pointer, int transpose, int leadingDimension) {}

    @Override
    public void multiply(Matrix a, Matrix b, Matrix out) {
        Gemm.checkOperands(a, b, out);
        product(a, b, out, false, false);
    }

    @Override
    public void multiplyAdd(Matrix a, Matrix b, Matrix out) {
        Gemm.checkOperands(a, b, out);
        Gemm.checkAddable(out);
        product(a, b, out, true, false);
    }

    /** syrk alone: no look at the lower triangle before, no mirror after. */
    @Override
    public void gramUpper(Matrix b, Matrix out, boolean add) {
        Matrix a = b.transposed();
        Gemm.checkOperands(a, b, out);
        if (add) {
            Gemm.checkAddable(out);
        }
        product(a, b, out, add, true);
    }

    /**
     * {@code out = a × b}, or where {@code add} {@code out += a × b} (BLAS's beta of 1); given
     * {@code upperOnly}, only the elements on and above the diagonal need be right.
     */
    private void product(Matrix a, Matrix b, Matrix out, boolean add, boolean upperOnly) {
        OpenBlasLibrary.Binding binding = library.binding(out.dtype());
        long rowCount = out.rowCount(), columnCount = out.columnCount(), depth = a.columnCount();
        if (binding == null || rowCount == 0 || columnCount == 0 || depth == 0
                || rowCount * columnCount * depth <= JavaGemm.SMALL_PRODUCT_WORK
                || Math.max(Math.max(rowCount, columnCount), depth) > Integer.MAX_VALUE) {
            if (add) {
                JavaGemm.INSTANCE.multiplyAdd(a, b, out);
            } else {
                JavaGemm.INSTANCE.multiply(a, b, out);
            }
            return;
        }
        boolean critical = rowCount * columnCount * depth <= CRITICAL_WORK_LIMIT;
        // b.T @ b (as in A.T @ A) is symmetric: syrk computes one triangle, half the work, as NumPy's matmul does.
        // syrk adds into the upper triangle alone and copies it onto the lower one: an output it adds into must be symmetric already.
        OpenBlasLibrary.Binding symmetric = isTransposeOf(a, b) && (upperOnly || !add || Triangles.isSymmetric(out)) ? library.symmetricBinding(out.dtype()) : null;
        try (Arena arena = Arena.ofConfined(); NativeBuffers.Lease memory = NativeBuffers.lease()) {
            BlasOperand right = operand(b, arena, critical, memory);
            BlasOperand left = symmetric == null ? operand(a, arena, critical, memory) : null;
            BlasOperand outLayout = describe(out);
            boolean rowMajor = outLayout != null && outLayout.transpose() == NO_TRANSPOSE;
            boolean inPlace = rowMajor && (critical || out.segment().isNative());
            long resultBytes = rowCount * columnCount * out.dtype().byteSize();
            // A dense heap result is computed in pooled native memory and copied back in one piece.
            boolean viaScratch = !inPlace && rowMajor && outLayout.leadingDimension() == Math.max(1, columnCount);
            Matrix target = inPlace ? out
                    : viaScratch ? new Matrix(out.dtype(), memory.segment(resultBytes), 0, rowCount, columnCount,
                            columnCount * out.dtype().byteSize(), out.dtype().byteSize())
                    : contiguous(out, arena);
            if (viaScratch && add) {
                copy(out.segment(), out.byteOffset(), target.segment(), 0, resultBytes);
            }
            BlasOperand result = describe(target);
            if (symmetric != null) {
                MethodHandle handle = critical ? symmetric.critical() : symmetric.plain();
                invokeSymmetric(handle, out.dtype(), (int) columnCount, (int) depth, right, result, add);
                if (!upperOnly) {
                    Triangles.mirrorUpper(target);
                }
            } else {
                MethodHandle handle = critical ? binding.critical() : binding.plain();
                invoke(handle, out.dtype(), arena, (int) rowCount, (int) columnCount, (int) depth, left, right, result, add);
            }
            if (viaScratch) {
                copy(target.segment(), 0, out.segment(), out.byteOffset(), resultBytes);
            } else if (target != out) {
                Copies.copy(target, out);
            }
        }
    }

    private static void invoke(MethodHandle handle, DType dtype, Arena arena, int rowCount, int columnCount, int depth,
                               BlasOperand left, BlasOperand right, BlasOperand result, boolean add) {
        double realBeta = add ? 1.0 : 0.0;
        try {
            switch (dtype) {
                case FLOAT32 -> handle.invokeExact(ROW_MAJOR, left.transpose(), right.transpose(), rowCount, columnCount,
                        depth, 1.0f, left.pointer(), left.leadingDimension(), right.pointer(), right.leadingDimension(),
                        (float) realBeta, result.pointer(), result.leadingDimension());
                case FLOAT64 -> handle.invokeExact(ROW_MAJOR, left.transpose(), right.transpose(), rowCount, columnCount,
                        depth, 1.0, left.pointer(), left.leadingDimension(), right.pointer(), right.leadingDimension(),
                        realBeta, result.pointer(), result.leadingDimension());
                default -> {
                    // Complex gemm takes alpha and beta by pointer: alpha = 1 + 0i, beta = 0.
                    MemorySegment alpha = arena.allocate(dtype.byteSize());
                    if (dtype == DType.COMPLEX64) {
                        alpha.set(ValueLayout.JAVA_FLOAT, 0, 1.0f);
                    } else {
                        alpha.set(ValueLayout.JAVA_DOUBLE, 0, 1.0);
                    }
                    MemorySegment beta = arena.allocate(dtype.byteSize());
                    handle.invokeExact(ROW_MAJOR, left.transpose(), right.transpose(), rowCount, columnCount, depth,
                            alpha, left.pointer(), left.leadingDimension(), right.pointer(), right.leadingDimension(),
                            beta, result.pointer(), result.leadingDimension());
                }
            }
        } catch (RuntimeException | Error failure) {
            throw failure;
        } catch (Throwable unexpected) {
            throw new IllegalStateException("cblas gemm for " + dtype + " failed", unexpected);
        }
    }

    /**
     * {@code C = b.T @ b} (or {@code C += b.T @ b} where {@code add}) through syrk, {@code b} being
     * {@code right}: its upper triangle only. A row-major b (depth x n) is syrk's {@code A} with
     * {@code Trans} (A.T A); a column-major b is the transpose of a row-major n x depth matrix M, and
     * b.T @ b = M M.T is {@code NoTrans}.
     */
    private static void invokeSymmetric(MethodHandle handle, DType dtype, int size, int depth, BlasOperand right,
                                        BlasOperand result, boolean add) {
        int transpose = right.transpose() == NO_TRANSPOSE ? TRANSPOSE : NO_TRANSPOSE;
        double beta = add ? 1.0 : 0.0;
        try {
            if (dtype == DType.FLOAT32) {
                handle.invokeExact(ROW_MAJOR, UPPER, transpose, size, depth, 1.0f, right.pointer(), right.leadingDimension(),
                        (float) beta, result.pointer(), result.leadingDimension());
            } else {
                handle.invokeExact(ROW_MAJOR, UPPER, transpose, size, depth, 1.0, right.pointer(), right.leadingDimension(),
                        beta, result.pointer(), result.leadingDimension());
            }
        } catch (RuntimeException | Error failure) {
            throw failure;
        } catch (Throwable unexpected) {
            throw new IllegalStateException("cblas syrk for " + dtype + " failed", unexpected);
        }
    }

    /**
     * Whether {@code a} is the transpose of {@code b}: the same elements of the same memory with rows
     * and columns swapped. Heap memory must be the same array; a read-only heap segment does not
     * reveal its array, so it never matches.
     */
    static boolean isTransposeOf(Matrix a, Matrix b) {
        if (a.rowCount() != b.columnCount() || a.columnCount() != b.rowCount()
                || a.rowByteStride() != b.columnByteStride() || a.columnByteStride() != b.rowByteStride()) {
            return false;
        }
        MemorySegment first = a.segment(), second = b.segment();
        if (first.isNative() != second.isNative()) {
            return false;
        }
        if (!first.isNative()) {
            Object firstArray = first.heapBase().orElse(null);
            if (firstArray == null || firstArray != second.heapBase().orElse(null)) {
                return false;
            }
        }
        return first.address() + a.byteOffset() == second.address() + b.byteOffset();
    }

    /**
     * The operand as BLAS can read it. Native memory is read in place, and so is heap memory in a
     * short critical call. A dense heap operand (row or column major) is copied byte for byte into
     * pooled native memory ({@link NativeBuffers}), keeping its layout: a transposed block (A.T of
     * A.T @ A) is passed as {@code CblasTrans} instead of being transposed element by element. Any
     * other layout is copied to row major.
     */
    private static BlasOperand operand(Matrix matrix, Arena arena, boolean critical, NativeBuffers.Lease memory) {
        BlasOperand described = describe(matrix);
        if (described != null && (critical || matrix.segment().isNative())) {
            return described;
        }
        long lineLength = described == null ? 0 : described.transpose() == NO_TRANSPOSE ? matrix.columnCount() : matrix.rowCount();
        if (described != null && described.leadingDimension() == Math.max(1, lineLength)) {
            long bytes = matrix.rowCount() * matrix.columnCount() * matrix.dtype().byteSize();
            MemorySegment copy = memory.segment(bytes);
            copy(matrix.segment(), matrix.byteOffset(), copy, 0, bytes);
            return new BlasOperand(copy, described.transpose(), described.leadingDimension());
        }
        return describe(contiguous(matrix, arena));
    }

    /** A bulk copy, on every core when it is large (one core moves memory at about half the rate two do). */
    private static void copy(MemorySegment source, long sourceOffset, MemorySegment target, long targetOffset, long bytes) {
        long words = bytes / Long.BYTES;
        Cores.forRanges(words, (from, to) -> MemorySegment.copy(source, sourceOffset + from * Long.BYTES, target,
                targetOffset + from * Long.BYTES, to == words ? bytes - from * Long.BYTES : (to - from) * Long.BYTES));
    }

    /**
     * Row major ({@code NoTrans}) when columns are adjacent, column major ({@code Trans}) when rows
     * are; null for any other layout (broadcast, negative or odd strides, misaligned start).
     */
    private static BlasOperand describe(Matrix matrix) {
        long itemSize = matrix.dtype().byteSize();
        long rows = matrix.rowCount(), columns = matrix.columnCount();
        long rowStride = matrix.rowByteStride(), columnStride = matrix.columnByteStride();
        MemorySegment pointer = matrix.segment().asSlice(matrix.byteOffset());
        if (pointer.address() % matrix.dtype().realType().byteSize() != 0) {
            return null;
        }
        if ((columns <= 1 || columnStride == itemSize) && fitsAsLeading(rowStride, itemSize, columns, rows)) {
            return new BlasOperand(pointer, NO_TRANSPOSE, leading(rowStride, itemSize, columns, rows));
        }
        if ((rows <= 1 || rowStride == itemSize) && fitsAsLeading(columnStride, itemSize, rows, columns)) {
            return new BlasOperand(pointer, TRANSPOSE, leading(columnStride, itemSize, rows, columns));
        }
        return null;
    }

    /** Whether the outer stride is a valid leading dimension for lines of {@code lineLength} elements. */
    private static boolean fitsAsLeading(long outerStride, long itemSize, long lineLength, long lineCount) {
        if (lineCount <= 1) {
            return true;
        }
        return outerStride % itemSize == 0 && outerStride / itemSize >= Math.max(1, lineLength)
                && outerStride / itemSize <= Integer.MAX_VALUE;
    }

    private static int leading(long outerStride, long itemSize, long lineLength, long lineCount) {
        return (int) (lineCount <= 1 ? Math.max(1, lineLength) : outerStride / itemSize);
    }

    /** A row-major native copy of {@code matrix} in {@code arena}. */
    private static Matrix contiguous(Matrix matrix, Arena arena) {
        long itemSize = matrix.dtype().byteSize();
        MemorySegment storage = arena.allocate(Math.max(1, matrix.rowCount() * matrix.columnCount() * itemSize), 64);
        Matrix copy = new Matrix(matrix.dtype(), storage, 0, matrix.rowCount(), matrix.columnCount(),
                matrix.columnCount() * itemSize, itemSize);
        Copies.copy(matrix, copy);
        return copy;
    }
}

package org.tessera.ndarray;

import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.Arrays;

import org.tessera.ndarray.dtype.Casting;
import org.tessera.ndarray.dtype.Complex;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.dtype.Promotion;
import org.tessera.ndarray.error.AxisException;
import org.tessera.ndarray.error.CastingException;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.format.ArrayPrinter;
import org.tessera.ndarray.iteration.Operand;
import org.tessera.ndarray.iteration.StridedIteration;
import org.tessera.ndarray.kernel.Casts;
import org.tessera.ndarray.kernel.Elements;
import org.tessera.ndarray.layout.Order;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.layout.Strides;
import org.tessera.ndarray.memory.Memory;

/**
 * An N-dimensional array in NumPy's memory model: a view of a {@link MemorySegment} given by a
 * byte offset, a shape, byte strides and a dtype, with the flags NumPy keeps (C/F-contiguous,
 * aligned, writeable). Views made here (transpose, broadcast, squeeze, reshape when the strides
 * allow it, slicing, real/imag) share the segment and never copy; methods that copy say so.
 * A 0-d array plays the part of NumPy's array scalar ({@link #item()}).
 *
 * <p>Instances are immutable descriptors; the elements they describe are mutable when the array
 * is writeable, and writing through a view writes the base.
 */
public final class NDArray implements AnyArray<NDArray> {
    private static final int C_CONTIGUOUS = 1;
    private static final int F_CONTIGUOUS = 2;
    private static final int ALIGNED = 4;
    private static final int WRITEABLE = 8;

    private final MemorySegment segment;
    private final long byteOffset;
    private final long[] shape;
    private final long[] byteStrides;
    private final DType dtype;
    private final int flags;
    private final long size;
    private final NDArray base;

    private NDArray(MemorySegment segment, long byteOffset, long[] shape, long[] byteStrides, DType dtype,
                    boolean writeable, NDArray base) {
        this.segment = segment;
        this.byteOffset = byteOffset;
        this.shape = shape;
        this.byteStrides = byteStrides;
        this.dtype = dtype;
        this.size = Shapes.size(shape);
        this.base = base == null ? null : (base.base == null ? base : base.base);
        int computed = 0;
        if (Strides.isCContiguous(shape, byteStrides, dtype.byteSize())) {
            computed |= C_CONTIGUOUS;
        }
        if (Strides.isFContiguous(shape, byteStrides, dtype.byteSize())) {
            computed |= F_CONTIGUOUS;
        }
        if (isAligned(segment, byteOffset, shape, byteStrides, dtype)) {
            computed |= ALIGNED;
        }
        if (writeable && !segment.isReadOnly()) {
            computed |= WRITEABLE;
        }
        this.flags = computed;
    }

    // ---------------------------------------------------------------- creation

    /** A new zero-filled array (false for bool) of {@code shape}, laid out in {@code order}. */
    public static NDArray zeros(DType dtype, Order order, long... shape) {
        return contiguous(dtype, order, shape, Memory::allocate);
    }

    /** A new contiguous array of {@code shape} in {@code order}, its memory from {@code allocator} (given the byte size). */
    private static NDArray contiguous(DType dtype, Order order, long[] shape, java.util.function.LongFunction<MemorySegment> allocator) {
        long[] checkedShape = shape.clone();
        long byteSize = Math.multiplyExact(Shapes.size(checkedShape), (long) dtype.byteSize());
        return new NDArray(allocator.apply(byteSize), 0, checkedShape, Strides.contiguous(checkedShape, dtype.byteSize(), order), dtype, true, null);
    }

    /**
     * A new C-ordered array for a caller that writes every element before anything reads it (NumPy's
     * {@code empty}): zero-filled, except inside a {@link org.tessera.ndarray.memory.Scratch}, where
     * it keeps whatever the scratch held.
     */
    public static NDArray empty(DType dtype, long... shape) {
        return empty(dtype, Order.C, shape);
    }

    /** {@link #empty(DType, long...)} in the given memory order. */
    public static NDArray empty(DType dtype, Order order, long... shape) {
        return contiguous(dtype, order, shape, Memory::allocateForOverwrite);
    }

    /**
     * {@link #empty(DType, Order, long...)} for a block that outlives the task making it (a stored
     * chunk decoded for the tasks that read it): outside a scratch its memory comes from the
     * {@link org.tessera.ndarray.memory.BlockPool}, old bytes and all, and a scheduler may give it
     * back there once nothing it holds shares the memory.
     */
    public static NDArray emptyBlock(DType dtype, Order order, long... shape) {
        return contiguous(dtype, order, shape, Memory::allocateBlock);
    }

    /** A new zero-filled C-ordered array. */
    public static NDArray zeros(DType dtype, long... shape) {
        return zeros(dtype, Order.C, shape);
    }

    /** A new zero-filled C-ordered array in native memory (for arrays beyond the heap's limits). */
    public static NDArray zerosNative(DType dtype, long... shape) {
        return contiguous(dtype, Order.C, shape, Memory::allocateNative);
    }

    /** {@link #wrap(MemorySegment, long, long[], long[], DType, boolean)} of elements laid out contiguously in {@code order} from the segment's start. */
    public static NDArray wrap(MemorySegment segment, long[] shape, DType dtype, Order order, boolean writeable) {
        return wrap(segment, 0, shape, Strides.contiguous(shape, dtype.byteSize(), order), dtype, writeable);
    }

    /**
     * An array over existing memory. The described elements must lie inside {@code segment};
     * a read-only segment gives a read-only array whatever {@code writeable} says.
     */
    public static NDArray wrap(MemorySegment segment, long byteOffset, long[] shape, long[] byteStrides,
                               DType dtype, boolean writeable) {
        long[] checkedShape = shape.clone();
        long[] checkedStrides = byteStrides.clone();
        if (checkedShape.length != checkedStrides.length) {
            throw new IllegalArgumentException("shape " + Shapes.format(checkedShape) + " and strides "
                    + Shapes.format(checkedStrides) + " have different lengths");
        }
        long[] extent = byteExtent(checkedShape, checkedStrides, dtype.byteSize());
        if (Shapes.size(checkedShape) > 0
                && (byteOffset + extent[0] < 0 || byteOffset + extent[1] > segment.byteSize())) {
            throw new IndexOutOfBoundsException("an array of shape " + Shapes.format(checkedShape) + ", strides "
                    + Shapes.format(checkedStrides) + ", dtype " + dtype + " at byte offset " + byteOffset
                    + " reaches bytes [" + (byteOffset + extent[0]) + ", " + (byteOffset + extent[1])
                    + ") outside a segment of " + segment.byteSize() + " bytes");
        }
        return new NDArray(segment, byteOffset, checkedShape, checkedStrides, dtype, writeable, null);
    }

    /** The lowest and one-past-highest byte offsets that the elements reach, relative to the start. */
    private static long[] byteExtent(long[] shape, long[] byteStrides, long itemSize) {
        long low = 0;
        long high = itemSize;
        for (int axis = 0; axis < shape.length; axis++) {
            long reach = byteStrides[axis] * (shape[axis] - 1);
            if (shape[axis] == 0) {
                continue;
            }
            if (reach < 0) {
                low += reach;
            } else {
                high += reach;
            }
        }
        return new long[] {low, high};
    }

    private NDArray view(long newOffset, long[] newShape, long[] newStrides) {
        return new NDArray(segment, newOffset, newShape, newStrides, dtype, isWriteable(), this);
    }

    private NDArray view(long newOffset, long[] newShape, long[] newStrides, DType newDtype, boolean writeable) {
        return new NDArray(segment, newOffset, newShape, newStrides, newDtype, writeable, this);
    }

    // ---------------------------------------------------------------- description

    @Override
    public DType dtype() { return dtype; }

    @Override
    public long[] shape() { return shape.clone(); }

    /**
     * The dense family's functions. Found through {@link ArrayFamilies} (the implementation lives in
     * the facade package, which this core class must not import).
     */
    @Override
    public ArrayNamespace<NDArray> namespace() { return ArrayFamilies.dense(); }

    /** Length of {@code axis} (negative axes count from the end). */
    public long shape(int axis) { return shape[Shapes.normalizeAxis(axis, shape.length)]; }

    @Override
    public int ndim() { return shape.length; }

    /** Number of elements. */
    public long size() { return size; }

    /** Bytes the elements take ({@code size * itemSize}), whatever the strides. */
    @Override
    public long byteSize() { return size * dtype.byteSize(); }

    public long[] byteStrides() { return byteStrides.clone(); }

    public long byteStride(int axis) { return byteStrides[Shapes.normalizeAxis(axis, shape.length)]; }

    /** Offset in bytes of element (0, ..., 0) within {@link #segment()}. */
    public long byteOffset() { return byteOffset; }

    /** The whole storage this array views (not sliced to the view). */
    public MemorySegment segment() { return segment; }

    public boolean isCContiguous() { return (flags & C_CONTIGUOUS) != 0; }

    public boolean isFContiguous() { return (flags & F_CONTIGUOUS) != 0; }

    public boolean isAligned() { return (flags & ALIGNED) != 0; }

    public boolean isWriteable() { return (flags & WRITEABLE) != 0; }

    /** Whether this array allocated or wrapped its memory itself (NumPy's OWNDATA). */
    public boolean ownsData() { return base == null; }

    /** The array whose memory this view shares, or null for an owner. */
    public NDArray base() { return base; }

    /** Whether the bytes of the two arrays may overlap (a cheap, conservative test on their extents). */
    public boolean mayShareMemory(NDArray other) {
        if (size == 0 || other.size == 0) {
            return false;
        }
        long[] extent = byteExtent(shape, byteStrides, dtype.byteSize());
        long[] otherExtent = byteExtent(other.shape, other.byteStrides, other.dtype.byteSize());
        MemorySegment mine = segment.asSlice(byteOffset + extent[0], extent[1] - extent[0]);
        MemorySegment theirs = other.segment.asSlice(other.byteOffset + otherExtent[0], otherExtent[1] - otherExtent[0]);
        return Memory.overlap(mine, theirs);
    }

    /** This array as an iteration operand over its own shape. */
    public Operand operand() {
        return new Operand(dtype, segment, byteOffset, byteStrides);
    }

    /** This array as an iteration operand over {@code targetShape}, to which it must broadcast. */
    public Operand operand(long[] targetShape) {
        return broadcastTo(targetShape).operand();
    }

    private static boolean isAligned(MemorySegment segment, long byteOffset, long[] shape, long[] strides, DType dtype) {
        // Alignments are powers of two: a mask instead of a division, as every new array and view passes here.
        long misalignment = dtype.realType().byteSize() - 1;
        if (((segment.address() + byteOffset) & misalignment) != 0) {
            return false;
        }
        for (int axis = 0; axis < shape.length; axis++) {
            if (shape[axis] > 1 && (strides[axis] & misalignment) != 0) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- elements

    /** Byte offset of the element at {@code index} (negative indices count from the end). */
    public long elementByteOffset(long... index) {
        if (index.length != shape.length) {
            throw new IndexOutOfBoundsException(index.length > shape.length
                    ? "too many indices for array: array is " + shape.length + "-dimensional, but " + index.length + " were indexed"
                    : "element access needs " + shape.length + " indices for an array of shape " + Shapes.format(shape)
                            + ", got " + index.length);
        }
        long offset = byteOffset;
        for (int axis = 0; axis < shape.length; axis++) {
            offset += byteStrides[axis] * checkIndex(index[axis], axis);
        }
        return offset;
    }

    /** {@code index} made non-negative and checked against the length of {@code axis}. */
    public long checkIndex(long index, int axis) {
        long length = shape[axis];
        if (index < -length || index >= length) {
            throw new IndexOutOfBoundsException("index " + index + " is out of bounds for axis " + axis + " with size " + length);
        }
        return index < 0 ? index + length : index;
    }

    /** The element as a double: bool as 0/1, unsigned as unsigned, complex as its real part. */
    public double getDouble(long... index) {
        return toDouble(elementByteOffset(index));
    }

    private double toDouble(long offset) {
        if (dtype.isInexact()) {
            return Elements.loadReal(dtype, segment, offset);
        }
        long value = Elements.loadLong(dtype, segment, offset);
        return dtype == DType.UINT64 && value < 0 ? unsignedToDouble(value) : value;
    }

    private static double unsignedToDouble(long bits) {
        return new BigInteger(Long.toUnsignedString(bits)).doubleValue();
    }

    /** The element as a long: integers exactly (uint64 as its two's complement bits), floats truncated. */
    public long getLong(long... index) {
        long offset = elementByteOffset(index);
        if (dtype.isInexact()) {
            double value = Elements.loadReal(dtype, segment, offset);
            if (Double.isNaN(value) || Double.isInfinite(value)) {
                throw new ArithmeticException("cannot convert float " + value + " to integer");
            }
            return (long) value;
        }
        return Elements.loadLong(dtype, segment, offset);
    }

    /** The element as a boolean (non-zero is true, as NumPy's {@code bool()}). */
    public boolean getBoolean(long... index) {
        long offset = elementByteOffset(index);
        if (dtype.isComplex()) {
            return Elements.loadReal(dtype, segment, offset) != 0 || Elements.loadImag(dtype, segment, offset) != 0;
        }
        return dtype.isFloat() ? Elements.loadReal(dtype, segment, offset) != 0 : Elements.loadLong(dtype, segment, offset) != 0;
    }

    /** The element as a complex value (real types have a zero imaginary part). */
    public Complex getComplex(long... index) {
        long offset = elementByteOffset(index);
        return dtype.isComplex()
                ? new Complex(Elements.loadReal(dtype, segment, offset), Elements.loadImag(dtype, segment, offset))
                : new Complex(toDouble(offset), 0.0);
    }

    /** Writes {@code value} into the element, cast to the dtype as NumPy's unsafe cast does. */
    public void setDouble(double value, long... index) {
        storeScalar(DType.FLOAT64, value, 0.0, 0, index);
    }

    /** Writes {@code value} into the element, cast to the dtype as NumPy's unsafe cast does. */
    public void setLong(long value, long... index) {
        storeScalar(DType.INT64, 0, 0, value, index);
    }

    /** Writes {@code value} into the element. */
    public void setBoolean(boolean value, long... index) {
        storeScalar(DType.BOOL, 0, 0, value ? 1 : 0, index);
    }

    /** Writes {@code value} into the element, dropping the imaginary part for real dtypes. */
    public void setComplex(Complex value, long... index) {
        storeScalar(DType.COMPLEX128, value.real(), value.imag(), 0, index);
    }

    private void storeScalar(DType sourceType, double real, double imag, long integer, long[] index) {
        requireWriteable();
        long offset = elementByteOffset(index);
        if (sourceType.isInexact()) {
            Casts.storeInexact(sourceType, real, imag, dtype, segment, offset);
        } else {
            Casts.storeInteger(sourceType, integer, dtype, segment, offset);
        }
    }

    /**
     * The single element as a Java value (NumPy's {@code item()}): Boolean, Long (BigInteger for
     * uint64 values beyond Long.MAX_VALUE), Double, or {@link Complex}.
     */
    public Object item() {
        if (size != 1) {
            throw new IllegalArgumentException("can only convert an array of size 1 to a Java scalar, not shape " + Shapes.format(shape));
        }
        long offset = byteOffset;
        return switch (dtype.kind()) {
            case BOOL -> Elements.loadLong(dtype, segment, offset) != 0;
            case SIGNED -> Elements.loadLong(dtype, segment, offset);
            case UNSIGNED -> {
                long bits = Elements.loadLong(dtype, segment, offset);
                yield bits < 0 ? new BigInteger(Long.toUnsignedString(bits)) : (Object) bits;
            }
            case FLOAT -> Elements.loadReal(dtype, segment, offset);
            case COMPLEX -> new Complex(Elements.loadReal(dtype, segment, offset), Elements.loadImag(dtype, segment, offset));
        };
    }

    private void requireWriteable() {
        if (!isWriteable()) {
            throw new UnsupportedOperationException("assignment destination is read-only (array of shape "
                    + Shapes.format(shape) + ", dtype " + dtype + ")");
        }
    }

    // ---------------------------------------------------------------- views

    /** Reverses the axes (NumPy's {@code .T}); a view. */
    public NDArray transpose() {
        int[] axes = new int[shape.length];
        for (int axis = 0; axis < axes.length; axis++) {
            axes[axis] = axes.length - 1 - axis;
        }
        return transpose(axes);
    }

    /** Permutes the axes: axis {@code i} of the result is axis {@code axes[i]} of this array; a view. */
    public NDArray transpose(int... axes) {
        if (axes.length != shape.length) {
            throw new IllegalArgumentException("axes don't match array: got " + axes.length + " axes for an array of dimension " + shape.length);
        }
        long[] newShape = new long[axes.length];
        long[] newStrides = new long[axes.length];
        boolean[] seen = new boolean[axes.length];
        for (int i = 0; i < axes.length; i++) {
            int axis = Shapes.normalizeAxis(axes[i], shape.length);
            if (seen[axis]) {
                throw new IllegalArgumentException("repeated axis in transpose: axes " + Arrays.toString(axes));
            }
            seen[axis] = true;
            newShape[i] = shape[axis];
            newStrides[i] = byteStrides[axis];
        }
        return view(byteOffset, newShape, newStrides);
    }

    /** Exchanges two axes; a view. */
    public NDArray swapAxes(int first, int second) {
        int[] axes = identityAxes();
        int a = Shapes.normalizeAxis(first, shape.length);
        int b = Shapes.normalizeAxis(second, shape.length);
        axes[a] = b;
        axes[b] = a;
        return transpose(axes);
    }

    /** Moves axis {@code source} to position {@code destination}, keeping the others in order; a view. */
    public NDArray moveAxis(int source, int destination) {
        int from = Shapes.normalizeAxis(source, shape.length);
        int to = Shapes.normalizeAxis(destination, shape.length);
        int[] order = new int[shape.length];
        int next = 0;
        for (int axis = 0; axis < shape.length; axis++) {
            if (next == to) {
                order[next++] = from;
            }
            if (axis != from) {
                order[next++] = axis;
            }
        }
        if (next == to) {
            order[next] = from;
        }
        return transpose(order);
    }

    private int[] identityAxes() {
        int[] axes = new int[shape.length];
        for (int axis = 0; axis < axes.length; axis++) {
            axes[axis] = axis;
        }
        return axes;
    }

    /**
     * This array broadcast to {@code targetShape} by NumPy's rule: new leading axes and axes of
     * length 1 get stride 0. A read-only view, as NumPy's {@code broadcast_to}.
     */
    public NDArray broadcastTo(long... targetShape) {
        if (targetShape.length < shape.length) {
            throw new ShapeMismatchException("input operand has more dimensions than allowed by the axis remapping: cannot broadcast shape "
                    + Shapes.format(shape) + " to " + Shapes.format(targetShape));
        }
        long[] newShape = targetShape.clone();
        long[] newStrides = new long[targetShape.length];
        int shift = targetShape.length - shape.length;
        for (int axis = 0; axis < shape.length; axis++) {
            long target = targetShape[shift + axis];
            if (shape[axis] == target) {
                newStrides[shift + axis] = byteStrides[axis];
            } else if (shape[axis] == 1) {
                newStrides[shift + axis] = 0;
            } else {
                throw new ShapeMismatchException("operands could not be broadcast together with remapped shapes [original->remapped]: "
                        + Shapes.format(shape) + " and requested shape " + Shapes.format(targetShape));
            }
        }
        if (Arrays.equals(newShape, shape)) {
            return this;
        }
        return view(byteOffset, newShape, newStrides, dtype, false);
    }

    /** Inserts axes of length 1 at the given positions of the result; a view. */
    public NDArray expandDims(int... axes) {
        int newNdim = shape.length + axes.length;
        boolean[] inserted = new boolean[newNdim];
        for (int axis : axes) {
            int normalized = Shapes.normalizeAxis(axis, newNdim);
            if (inserted[normalized]) {
                throw new IllegalArgumentException("repeated axis in expand_dims: axes " + Arrays.toString(axes));
            }
            inserted[normalized] = true;
        }
        long[] newShape = new long[newNdim];
        long[] newStrides = new long[newNdim];
        int source = 0;
        for (int axis = 0; axis < newNdim; axis++) {
            if (inserted[axis]) {
                newShape[axis] = 1;
                newStrides[axis] = 0;
            } else {
                newShape[axis] = shape[source];
                newStrides[axis] = byteStrides[source];
                source++;
            }
        }
        return view(byteOffset, newShape, newStrides);
    }

    /** Removes every axis of length 1; a view. */
    public NDArray squeeze() {
        int count = 0;
        for (long length : shape) {
            if (length == 1) {
                count++;
            }
        }
        int[] axes = new int[count];
        int next = 0;
        for (int axis = 0; axis < shape.length; axis++) {
            if (shape[axis] == 1) {
                axes[next++] = axis;
            }
        }
        return squeeze(axes);
    }

    /** Removes the given axes, each of which must have length 1; a view. */
    public NDArray squeeze(int... axes) {
        boolean[] removed = new boolean[shape.length];
        for (int axis : axes) {
            int normalized = Shapes.normalizeAxis(axis, shape.length);
            if (shape[normalized] != 1) {
                throw new IllegalArgumentException("cannot select an axis to squeeze out which has size not equal to one: axis "
                        + axis + " of shape " + Shapes.format(shape));
            }
            removed[normalized] = true;
        }
        int kept = 0;
        for (boolean isRemoved : removed) {
            if (!isRemoved) {
                kept++;
            }
        }
        long[] newShape = new long[kept];
        long[] newStrides = new long[kept];
        int next = 0;
        for (int axis = 0; axis < shape.length; axis++) {
            if (!removed[axis]) {
                newShape[next] = shape[axis];
                newStrides[next] = byteStrides[axis];
                next++;
            }
        }
        return view(byteOffset, newShape, newStrides);
    }

    /** The main diagonal of the first two axes; a read-only view, as NumPy's. */
    public NDArray diagonal() {
        return diagonal(0, 0, 1);
    }

    /**
     * The diagonal with {@code offset} of the plane ({@code axis1}, {@code axis2}): those axes are
     * removed and the diagonal becomes the last axis. A read-only view, as NumPy's.
     */
    public NDArray diagonal(long offset, int axis1, int axis2) {
        if (shape.length < 2) {
            throw new IllegalArgumentException("diag requires an array of at least two dimensions, got shape " + Shapes.format(shape));
        }
        int first = Shapes.normalizeAxis(axis1, shape.length);
        int second = Shapes.normalizeAxis(axis2, shape.length);
        if (first == second) {
            throw new IllegalArgumentException("axis1 and axis2 cannot be the same (both are axis " + first + ")");
        }
        long start = byteOffset;
        long rows = shape[first];
        long columns = shape[second];
        if (offset >= 0) {
            columns -= offset;
            start += offset * byteStrides[second];
        } else {
            rows += offset;
            start -= offset * byteStrides[first];
        }
        long length = Math.max(0, Math.min(rows, columns));
        if (length == 0) {
            start = byteOffset;
        }
        long[] newShape = new long[shape.length - 1];
        long[] newStrides = new long[shape.length - 1];
        int next = 0;
        for (int axis = 0; axis < shape.length; axis++) {
            if (axis != first && axis != second) {
                newShape[next] = shape[axis];
                newStrides[next] = byteStrides[axis];
                next++;
            }
        }
        newShape[next] = length;
        newStrides[next] = byteStrides[first] + byteStrides[second];
        return view(start, newShape, newStrides, dtype, false);
    }

    /** The real part: a view for complex arrays (writeable if this is), this array otherwise. */
    public NDArray real() {
        if (!dtype.isComplex()) {
            return this;
        }
        return view(byteOffset, shape.clone(), byteStrides.clone(), dtype.realType(), isWriteable());
    }

    /** The imaginary part: a view for complex arrays; a read-only array of zeros otherwise, as NumPy's. */
    public NDArray imag() {
        if (!dtype.isComplex()) {
            NDArray zeros = zeros(dtype, shape);
            return zeros.view(0, zeros.shape.clone(), zeros.byteStrides.clone(), dtype, false);
        }
        return view(byteOffset + dtype.realType().byteSize(), shape.clone(), byteStrides.clone(), dtype.realType(), isWriteable());
    }

    /** A read-only view of this array. */
    public NDArray readOnly() {
        return view(byteOffset, shape.clone(), byteStrides.clone(), dtype, false);
    }

    /**
     * Basic slicing along one axis with already-normalised bounds: elements {@code start},
     * {@code start + step}, ... ({@code length} of them). A view.
     */
    public NDArray slice(int axis, long start, long step, long length) {
        int normalized = Shapes.normalizeAxis(axis, shape.length);
        long[] newShape = shape.clone();
        long[] newStrides = byteStrides.clone();
        newShape[normalized] = length;
        newStrides[normalized] = byteStrides[normalized] * step;
        long newOffset = length == 0 ? byteOffset : byteOffset + start * byteStrides[normalized];
        return view(newOffset, newShape, newStrides);
    }

    /** The sub-array at position {@code index} of {@code axis}, which is removed; a view. */
    public NDArray take(int axis, long index) {
        int normalized = Shapes.normalizeAxis(axis, shape.length);
        long position = checkIndex(index, normalized);
        long[] newShape = new long[shape.length - 1];
        long[] newStrides = new long[shape.length - 1];
        for (int source = 0, target = 0; source < shape.length; source++) {
            if (source != normalized) {
                newShape[target] = shape[source];
                newStrides[target] = byteStrides[source];
                target++;
            }
        }
        return view(byteOffset + position * byteStrides[normalized], newShape, newStrides);
    }

    /**
     * The same elements with another shape, read in C order (one length may be -1). A view when
     * the strides allow it, otherwise a copy, exactly when NumPy copies.
     */
    public NDArray reshape(long... newShape) {
        return reshape(Order.C, newShape);
    }

    /** {@link #reshape(long...)} reading and placing elements in {@code order}. */
    public NDArray reshape(Order order, long... newShape) {
        long[] resolved = Shapes.resolveUnknownLength(size, newShape);
        long[] strides = Strides.reshapeView(shape, byteStrides, resolved, dtype.byteSize(), order);
        if (strides != null) {
            return view(byteOffset, resolved, strides);
        }
        NDArray copy = copy(order);
        return copy.view(copy.byteOffset, resolved, Strides.contiguous(resolved, dtype.byteSize(), order));
    }

    /** A 1-D array of the elements in C order: a view when possible, a copy otherwise. */
    public NDArray ravel() {
        return reshape(Order.C, size);
    }

    // ---------------------------------------------------------------- copies

    /** A C-ordered copy that owns its memory. */
    public NDArray copy() {
        return copy(Order.C);
    }

    /** A copy in {@code order} that owns its memory. */
    public NDArray copy(Order order) {
        return astype(dtype, order);
    }

    /** A C-ordered copy converted to {@code target} with NumPy's unsafe casting. */
    public NDArray astype(DType target) {
        return astype(target, Order.C);
    }

    /** A copy converted to {@code target}; fails unless the cast is allowed by {@code casting}. */
    public NDArray astype(DType target, Casting casting) {
        if (!Promotion.canCast(dtype, target, casting)) {
            throw new CastingException("Cannot cast array data from dtype('" + dtype + "') to dtype('" + target
                    + "') according to the rule '" + casting.name().toLowerCase(java.util.Locale.ROOT) + "'");
        }
        return astype(target);
    }

    private NDArray astype(DType target, Order order) {
        NDArray result = zeros(target, order, shape);
        result.assign(this);
        return result;
    }

    /** This array if it is C-contiguous, otherwise a C-ordered copy. */
    public NDArray ascontiguousarray() {
        return isCContiguous() ? this : copy(Order.C);
    }

    /** This array if it is F-contiguous, otherwise an F-ordered copy. */
    public NDArray asfortranarray() {
        return isFContiguous() ? this : copy(Order.F);
    }

    /**
     * Copies {@code source}, broadcast to this array's shape and cast with NumPy's unsafe rule (as
     * setitem casts), into this array. Overlapping source memory is copied out first.
     */
    public void assign(NDArray source) {
        requireWriteable();
        NDArray value = source.mayShareMemory(this) && source != this ? source.copy() : source;
        // As NumPy, a value with more axes than this array loses its leading axes of length 1.
        int extra = 0;
        while (value.shape.length - extra > shape.length && value.shape[extra] == 1) {
            extra++;
        }
        if (extra > 0) {
            value = value.reshape(Arrays.copyOfRange(value.shape, extra, value.shape.length));
        }
        if (value.shape.length > shape.length || !Arrays.equals(Shapes.broadcast(value.shape, shape), shape)) {
            throw new ShapeMismatchException("could not broadcast input array from shape " + Shapes.format(source.shape)
                    + " into shape " + Shapes.format(shape));
        }
        DType from = value.dtype;
        MemorySegment sourceSegment = value.segment;
        long elements = Shapes.size(shape);
        if (Shapes.size(value.shape) == 1 && elements > 1 && isCContiguous()) {
            // A fill: one element cast as usual, then doubled by bulk copies, with no iteration set up
            // (creation functions fill every block of a chunked array this way).
            Casts.copy(from, sourceSegment, value.byteOffset, 0, dtype, segment, byteOffset, 0, 1);
            repeatFirstElement();
            return;
        }
        NDArray broadcast = value.broadcastTo(shape);
        StridedIteration.forEachRunTiled(shape, new Operand[] {broadcast.operand(), operand()},
                (offsets, strides, count) -> Casts.copy(from, sourceSegment, offsets[0], strides[0],
                        dtype, segment, offsets[1], strides[1], count));
    }

    /** Copies the first element over all the others of this C-contiguous array, doubling the filled part each time. */
    private void repeatFirstElement() {
        long total = size * dtype.byteSize();
        for (long filled = dtype.byteSize(); filled < total; filled += Math.min(filled, total - filled)) {
            MemorySegment.copy(segment, byteOffset, segment, byteOffset + filled, Math.min(filled, total - filled));
        }
    }

    /** Sets every element to {@code value} (cast to the dtype). */
    public void fill(double value) {
        // Contiguous arrays (every full, ones, ...) take the value straight from the Java double:
        // a 0-d source array would cost more than filling a small array does.
        if (isCContiguous() && size > 0) {
            requireWriteable();
            Casts.storeInexact(DType.FLOAT64, value, 0.0, dtype, segment, byteOffset);
            repeatFirstElement();
            return;
        }
        assign(scalar(value));
    }

    /** Sets every element to {@code value} (cast to the dtype). */
    public void fill(long value) {
        if (isCContiguous() && size > 0) {
            requireWriteable();
            Casts.storeInteger(DType.INT64, value, dtype, segment, byteOffset);
            repeatFirstElement();
            return;
        }
        assign(scalar(value));
    }

    /** A 0-d float64 array. */
    public static NDArray scalar(double value) {
        NDArray result = zeros(DType.FLOAT64);
        result.setDouble(value);
        return result;
    }

    /** A 0-d int64 array. */
    public static NDArray scalar(long value) {
        NDArray result = zeros(DType.INT64);
        result.setLong(value);
        return result;
    }

    /** A 0-d bool array. */
    public static NDArray scalar(boolean value) {
        NDArray result = zeros(DType.BOOL);
        result.setBoolean(value);
        return result;
    }

    // ---------------------------------------------------------------- printing

    /** NumPy's {@code repr}: {@code array([[1, 2], [3, 4]], dtype=int32)}, summarised when large. */
    @Override
    public String toString() {
        return ArrayPrinter.repr(operand(), shape);
    }

    /** NumPy's {@code str}: the elements without the {@code array(...)} wrapper. */
    public String format() {
        return ArrayPrinter.str(operand(), shape);
    }
}

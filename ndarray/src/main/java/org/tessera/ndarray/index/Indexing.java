package org.tessera.ndarray.index;

import java.util.Arrays;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.error.ArgumentTypeException;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.layout.Shapes;

/**
 * NumPy's {@code x[index]} and {@code x[index] = value}: only basic items (integers, slices,
 * ellipsis, newaxis) give a view; any advanced item (integer array, boolean mask or scalar) gives
 * a copy on get and a scatter on set.
 */
public final class Indexing {
    private Indexing() {}

    public static NDArray get(NDArray x, Index... index) {
        if (IndexItems.hasBooleanScalars(index)) {
            IndexItems.Rewritten rewritten = IndexItems.withoutBooleanScalars(x.ndim(), index);
            return AdvancedIndexing.get(rewritten.expand(x), rewritten.index());
        }
        if (!isBasic(index)) {
            return AdvancedIndexing.get(x, index);
        }
        NDArray view = BasicIndexing.get(x, index);
        // An integer for every axis gives NumPy's array scalar, which is a copy, not a 0-d view.
        boolean selectsOneElement = index.length == x.ndim() && java.util.Arrays.stream(index).allMatch(Index.At.class::isInstance);
        return selectsOneElement ? view.copy() : view;
    }

    /** Writes {@code value}, broadcast to the selection and cast as NumPy's setitem casts. */
    public static void set(NDArray x, NDArray value, Index... index) {
        checkMaskAssignment(x.shape(), index, value.shape());
        checkElementAssignment(x.shape(), x.dtype(), index, value.shape());
        if (IndexItems.hasBooleanScalars(index)) {
            IndexItems.Rewritten rewritten = IndexItems.withoutBooleanScalars(x.ndim(), index);
            AdvancedIndexing.set(rewritten.expand(x), value, rewritten.index());
        } else if (isBasic(index)) {
            BasicIndexing.get(x, index).assign(value);
        } else {
            AdvancedIndexing.set(x, value, index);
        }
    }

    private static boolean isBasic(Index[] index) {
        for (Index item : index) {
            if (item instanceof Index.IntArray || item instanceof Index.BoolMask || item instanceof Index.BoolScalar) {
                return false;
            }
        }
        return true;
    }

    /**
     * NumPy's rule for an assignment through one boolean mask (or boolean scalar) over all of the
     * array's axes, {@code x[mask] = value}: the value must have at most one axis (else TypeError,
     * here {@link ArgumentTypeException}) and one element or as many as the mask selects (else
     * ValueError). Other index expressions pass unchecked.
     */
    public static void checkMaskAssignment(long[] shape, Index[] index, long[] valueShape) {
        if (index.length != 1) {
            return;
        }
        long selected;
        String mask;
        if (index[0] instanceof Index.BoolScalar scalar && shape.length == 0) {
            selected = scalar.value() ? 1 : 0;
            mask = String.valueOf(scalar.value());
        } else if (index[0] instanceof Index.BoolMask booleans && booleans.mask().ndim() == shape.length) {
            selected = countTrue(booleans.mask());
            mask = "of shape " + Shapes.format(booleans.mask().shape());
        } else {
            return;
        }
        if (valueShape.length > 1) {
            throw new ArgumentTypeException("assignment through a boolean mask " + mask + " over all axes of an array of shape "
                    + Shapes.format(shape) + " takes a value of 0 or 1 axes, not one of shape " + Shapes.format(valueShape));
        }
        long elements = Shapes.size(valueShape);
        if (elements != 1 && elements != selected) {
            throw new ShapeMismatchException("assignment through a boolean mask " + mask + " selecting " + selected + " elements of an array of shape "
                    + Shapes.format(shape) + " cannot take a value of " + elements + " elements (shape " + Shapes.format(valueShape) + ")");
        }
    }

    private static long countTrue(NDArray mask) {
        NDArray flat = mask.ravel();
        long count = 0;
        for (long i = 0; i < flat.size(); i++) {
            count += flat.getBoolean(i) ? 1 : 0;
        }
        return count;
    }

    /**
     * The shape a value of shape {@code value} takes for an assignment to a selection of shape
     * {@code result}, which it then broadcasts to. A value with more axes than the selection loses
     * its leading axes of length 1; through an advanced index (integer arrays, masks, boolean
     * scalars) NumPy instead reads the value as its trailing axes whenever that keeps its number of
     * elements, so a value without elements fits an empty selection that its trailing axes
     * broadcast to, whatever its leading axes.
     *
     * @throws ShapeMismatchException when the value does not broadcast to the selection
     */
    public static long[] assignedValueShape(long[] value, long[] result, boolean advanced) {
        long[] shape = value;
        if (shape.length > result.length) {
            long[] trailing = Arrays.copyOfRange(shape, shape.length - result.length, shape.length);
            int extra = 0;
            while (shape.length - extra > result.length && shape[extra] == 1) {
                extra++;
            }
            if (shape.length - extra == result.length) {
                shape = trailing;
            } else if (advanced && Shapes.size(trailing) == Shapes.size(shape)) {
                shape = trailing;
            }
        }
        if (shape.length > result.length || !broadcastsTo(shape, result)) {
            throw new ShapeMismatchException(advanced
                    ? "shape mismatch: value array of shape " + Shapes.format(value) + " could not be broadcast to indexing result of shape "
                            + Shapes.format(result)
                    : "could not broadcast input array from shape " + Shapes.format(value) + " into shape " + Shapes.format(result));
        }
        return shape;
    }

    private static boolean broadcastsTo(long[] shape, long[] target) {
        for (int axis = 0; axis < shape.length; axis++) {
            long length = shape[axis];
            if (length != 1 && length != target[target.length - shape.length + axis]) {
                return false;
            }
        }
        return true;
    }

    /**
     * NumPy's rule for an index of one integer per axis (and nothing else), which selects one
     * element: the value must be 0-d. NumPy converts an array value to one scalar, which it allows
     * only for a boolean array taking a one-element value; a complex array refuses any array value
     * (TypeError, here {@link ArgumentTypeException}), the others ValueError.
     */
    public static void checkElementAssignment(long[] shape, DType dtype, Index[] index, long[] valueShape) {
        if (valueShape.length == 0 || index.length != shape.length) {
            return;
        }
        for (Index item : index) {
            if (!(item instanceof Index.At)) {
                return;
            }
        }
        if (dtype.isBool() && Shapes.size(valueShape) == 1) {
            return;
        }
        String message = "the index " + Arrays.toString(Arrays.stream(index).mapToLong(item -> ((Index.At) item).index()).toArray())
                + " selects one element of an array of shape " + Shapes.format(shape) + " and dtype " + dtype
                + ", which takes a 0-d value, not one of shape " + Shapes.format(valueShape);
        throw dtype.isComplex() ? new ArgumentTypeException(message) : new ShapeMismatchException(message);
    }
}

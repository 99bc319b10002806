package org.tessera.sparse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.layout.Shapes;

/** Shape operations on COO arrays: they move entries, never values (except concatenate's promotion). */
final class SparseShapes {
    private SparseShapes() {
    }

    /** NumPy's broadcast_to: axes of length 1 (or missing on the left) are repeated. */
    static SparseCOO broadcastTo(SparseCOO array, long[] shape) {
        long[] own = array.shape();
        if (Arrays.equals(own, shape)) {
            return array;
        }
        long[] broadcast = Shapes.broadcast(own, shape);
        if (!Arrays.equals(broadcast, shape)) {
            throw new ShapeMismatchException("cannot broadcast a sparse array of shape " + Shapes.format(own) + " to shape " + Shapes.format(shape));
        }
        int added = shape.length - own.length;
        long[][] coordinates = array.coordinates();
        long copies = 1;
        for (int axis = 0; axis < shape.length; axis++) {
            if (axis < added || own[axis - added] != shape[axis]) {
                copies *= shape[axis];
            }
        }
        long count = Math.multiplyExact(copies, array.nnz());
        long[] positions = new long[Math.toIntExact(count)];
        long[] sources = new long[positions.length];
        int next = 0;
        long[] target = new long[shape.length];
        for (int entry = 0; entry < array.nnz(); entry++) {
            for (long copy = 0; copy < copies; copy++) {
                long rest = copy;
                for (int axis = shape.length - 1; axis >= 0; axis--) {
                    boolean stretched = axis < added || own[axis - added] != shape[axis];
                    if (stretched) {
                        target[axis] = rest % shape[axis];
                        rest /= shape[axis];
                    } else {
                        target[axis] = coordinates[axis - added][entry];
                    }
                }
                long position = 0;
                for (int axis = 0; axis < shape.length; axis++) {
                    position = position * shape[axis] + target[axis];
                }
                positions[next] = position;
                sources[next++] = entry;
            }
        }
        return sorted(shape, positions, Entries.take(array.values(), sources));
    }

    /** Entries that are unique but in any order, sorted into a canonical array. */
    static SparseCOO sorted(long[] shape, long[] positions, NDArray values) {
        long[] order = Entries.stableOrder(positions);
        return new SparseCOO(shape, Entries.permute(positions, order), Entries.isSorted(positions) ? values : Entries.take(values, order));
    }

    static SparseCOO concatenate(List<SparseCOO> arrays, int axis) {
        if (arrays.isEmpty()) {
            throw new IllegalArgumentException("need at least one array to concatenate");
        }
        long[] first = arrays.getFirst().shape();
        if (first.length == 0) {
            throw new IllegalArgumentException("zero-dimensional arrays cannot be concatenated");
        }
        int normalized = Shapes.normalizeAxis(axis, first.length);
        long[] shape = first.clone();
        shape[normalized] = 0;
        for (SparseCOO array : arrays) {
            long[] own = array.shape();
            for (int other = 0; other < first.length; other++) {
                if (own.length != first.length || (other != normalized && own[other] != first[other])) {
                    throw new ShapeMismatchException("all the input array dimensions except for the concatenation axis must match exactly, but "
                            + "along dimension " + other + ", the array at index 0 has shape " + Shapes.format(first) + " and the array at index "
                            + arrays.indexOf(array) + " has shape " + Shapes.format(own));
                }
            }
            shape[normalized] += own[normalized];
        }
        List<long[]> positionParts = new ArrayList<>();
        long offset = 0;
        int total = 0;
        for (SparseCOO array : arrays) {
            long[][] coordinates = array.coordinates();
            for (int entry = 0; entry < array.nnz(); entry++) {
                coordinates[normalized][entry] += offset;
            }
            long[] positions = new long[(int) array.nnz()];
            for (int entry = 0; entry < positions.length; entry++) {
                positions[entry] = Entries.ravel(coordinates, entry, shape);
            }
            positionParts.add(positions);
            total += positions.length;
            offset += array.shape()[normalized];
        }
        long[] positions = new long[total];
        int next = 0;
        for (long[] part : positionParts) {
            System.arraycopy(part, 0, positions, next, part.length);
            next += part.length;
        }
        NDArray values = NDArrays.concatenate(arrays.stream().map(SparseCOO::values).toList(), 0);
        return sorted(shape, positions, values);
    }

    /** C-order reshape: the flat positions stay, only the shape changes. */
    static SparseCOO reshape(SparseCOO array, long[] requested) {
        long[] shape = Shapes.resolveUnknownLength(array.size(), requested);
        return new SparseCOO(shape, array.positionsView(), array.values());
    }

    static SparseCOO transpose(SparseCOO array, int[] axes) {
        int ndim = array.ndim();
        int[] order = new int[ndim];
        if (axes.length == 0) {
            for (int axis = 0; axis < ndim; axis++) {
                order[axis] = ndim - 1 - axis;
            }
        } else {
            if (axes.length != ndim) {
                throw new IllegalArgumentException("axes don't match array: " + Arrays.toString(axes) + " for shape " + Shapes.format(array.shape()));
            }
            boolean[] seen = new boolean[ndim];
            for (int position = 0; position < ndim; position++) {
                order[position] = Shapes.normalizeAxis(axes[position], ndim);
                if (seen[order[position]]) {
                    throw new IllegalArgumentException("repeated axis in transpose: " + Arrays.toString(axes));
                }
                seen[order[position]] = true;
            }
        }
        long[] own = array.shape();
        long[] shape = new long[ndim];
        for (int axis = 0; axis < ndim; axis++) {
            shape[axis] = own[order[axis]];
        }
        long[][] coordinates = array.coordinates();
        long[][] permuted = new long[ndim][];
        for (int axis = 0; axis < ndim; axis++) {
            permuted[axis] = coordinates[order[axis]];
        }
        long[] positions = new long[(int) array.nnz()];
        for (int entry = 0; entry < positions.length; entry++) {
            positions[entry] = Entries.ravel(permuted, entry, shape);
        }
        return sorted(shape, positions, array.values());
    }

    /** Elements {@code start, start + step, ...} ({@code count}) along {@code axis}. */
    static SparseCOO slice(SparseCOO array, int axis, long start, long step, long count) {
        long[] shape = array.shape();
        int normalized = Shapes.normalizeAxis(axis, shape.length);
        if (step == 0) {
            throw new IllegalArgumentException("slice step cannot be zero");
        }
        long last = start + (count - 1) * step;
        if (count < 0 || (count > 0 && (start < 0 || start >= shape[normalized] || last < 0 || last >= shape[normalized]))) {
            throw new IndexOutOfBoundsException("slice of " + count + " elements from " + start + " by " + step + " is outside axis " + normalized
                    + " of length " + shape[normalized]);
        }
        long[] result = shape.clone();
        result[normalized] = count;
        long[][] coordinates = array.coordinates();
        List<Long> kept = new ArrayList<>();
        for (int entry = 0; entry < array.nnz(); entry++) {
            long offset = coordinates[normalized][entry] - start;
            if (offset % step == 0 && offset / step >= 0 && offset / step < count) {
                coordinates[normalized][entry] = offset / step;
                kept.add((long) entry);
            }
        }
        long[] entries = kept.stream().mapToLong(Long::longValue).toArray();
        long[] positions = new long[entries.length];
        long[][] single = new long[shape.length][1];
        for (int index = 0; index < entries.length; index++) {
            for (int other = 0; other < shape.length; other++) {
                single[other][0] = coordinates[other][(int) entries[index]];
            }
            positions[index] = Entries.ravel(single, 0, result);
        }
        return sorted(result, positions, Entries.take(array.values(), entries));
    }
}

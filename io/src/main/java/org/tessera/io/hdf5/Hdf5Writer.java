package org.tessera.io.hdf5;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

import io.jhdf.HdfFile;
import io.jhdf.WritableHdfFile;
import io.jhdf.api.DatasetCreationOptions;
import io.jhdf.api.WritableGroup;
import io.jhdf.exceptions.HdfException;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * Writes NDArrays into a new HDF5 file through jhdf, which takes each dataset as a (nested) Java
 * primitive array and writes the file when it is closed.
 */
final class Hdf5Writer {
    private Hdf5Writer() {
    }

    static void requireWritable(Path file, String datasetPath, DType dtype, long[] shape) throws Hdf5Exception {
        String where = "dataset " + datasetPath + " of HDF5 file " + file.toAbsolutePath();
        if (layout(dtype) == null) {
            throw new Hdf5Exception("cannot write " + dtype + " as " + where + ": jhdf writes int8..int64, uint8..uint64, float32 and float64"
                    + (dtype == DType.BOOL ? " (it would store bool as uint8, which h5py reads back as uint8; cast with astype(DType.UINT8) to mean that)" : ""));
        }
        for (long length : shape) {
            if (length == 0 || length > Integer.MAX_VALUE) {
                throw new Hdf5Exception("cannot write shape " + Arrays.toString(shape) + " as " + where
                        + ": jhdf writes axes of 1.." + Integer.MAX_VALUE + " elements");
            }
        }
        String trimmed = trim(datasetPath);
        if (trimmed.isEmpty() || Arrays.stream(trimmed.split("/")).anyMatch(String::isEmpty)) {
            throw new Hdf5Exception("'" + datasetPath + "' is not a dataset path for " + file.toAbsolutePath() + " (write it as \"/group/name\")");
        }
    }

    static void write(Path file, Map<String, NDArray> datasets, Hdf5WriteOptions options) throws IOException {
        Path absolute = file.toAbsolutePath();
        Path temporary = absolute.resolveSibling("." + absolute.getFileName() + "." + ProcessHandle.current().pid() + "." + System.nanoTime() + ".partial");
        try {
            try (WritableHdfFile hdf = HdfFile.write(temporary)) {
                Map<String, WritableGroup> groups = new HashMap<>();
                for (Map.Entry<String, NDArray> entry : datasets.entrySet()) {
                    String path = trim(entry.getKey());
                    int slash = path.lastIndexOf('/');
                    WritableGroup parent = slash < 0 ? hdf : group(hdf, groups, path.substring(0, slash));
                    NDArray values = entry.getValue();
                    parent.putDataset(path.substring(slash + 1), javaArray(values), creationOptions(values, options));
                }
            }
            Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (HdfException failure) {
            throw new Hdf5Exception("cannot write HDF5 file " + absolute + " (datasets " + datasets.keySet() + "): " + failure.getMessage(), failure);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static String trim(String path) {
        String trimmed = path;
        while (trimmed.startsWith("/")) {
            trimmed = trimmed.substring(1);
        }
        return trimmed;
    }

    private static WritableGroup group(WritableHdfFile hdf, Map<String, WritableGroup> groups, String path) {
        WritableGroup existing = groups.get(path);
        if (existing != null) {
            return existing;
        }
        int slash = path.lastIndexOf('/');
        WritableGroup parent = slash < 0 ? hdf : group(hdf, groups, path.substring(0, slash));
        WritableGroup created = parent.putGroup(path.substring(slash + 1));
        groups.put(path, created);
        return created;
    }

    private static DatasetCreationOptions creationOptions(NDArray values, Hdf5WriteOptions options) {
        DatasetCreationOptions.Builder builder = DatasetCreationOptions.builder();
        if (values.dtype().kind() == DType.Kind.UNSIGNED) {
            builder.unsigned();
        }
        long[] chunkShape = options.chunkShape();
        if (chunkShape != null && values.ndim() > 0) {
            if (chunkShape.length != values.ndim()) {
                throw new IllegalArgumentException("chunk shape " + Arrays.toString(chunkShape) + " does not fit a dataset of shape "
                        + Arrays.toString(values.shape()));
            }
            int[] clipped = new int[chunkShape.length];
            for (int axis = 0; axis < clipped.length; axis++) {
                clipped[axis] = (int) Math.min(chunkShape[axis], values.shape()[axis]);
            }
            builder.chunkDimensions(clipped);
            if (options.shuffle()) {
                builder.shuffle();
            }
            if (options.gzipLevel() > 0) {
                builder.deflate(options.gzipLevel());
            }
        }
        return builder.build();
    }

    /** The Java primitive type and memory layout jhdf takes for a dtype; null when it writes none. */
    private static ValueLayout layout(DType dtype) {
        return switch (dtype) {
            case INT8, UINT8 -> ValueLayout.JAVA_BYTE;
            case INT16, UINT16 -> ValueLayout.JAVA_SHORT_UNALIGNED;
            case INT32, UINT32 -> ValueLayout.JAVA_INT_UNALIGNED;
            case INT64, UINT64 -> ValueLayout.JAVA_LONG_UNALIGNED;
            case FLOAT32 -> ValueLayout.JAVA_FLOAT_UNALIGNED;
            case FLOAT64 -> ValueLayout.JAVA_DOUBLE_UNALIGNED;
            default -> null;
        };
    }

    /** The elements as nested Java arrays (double[rows][columns] for a 2-d float64 array), or a boxed value for a 0-d one. */
    static Object javaArray(NDArray values) {
        NDArray contiguous = values.ascontiguousarray();
        ValueLayout layout = layout(values.dtype());
        long[] shape = values.shape();
        MemorySegment segment = contiguous.segment();
        long offset = contiguous.byteOffset();
        if (shape.length == 0) {
            Object row = Array.newInstance(layout.carrier(), 1);
            MemorySegment.copy(segment, layout, offset, row, 0, 1);
            return Array.get(row, 0);
        }
        int[] dimensions = Arrays.stream(shape).mapToInt(Math::toIntExact).toArray();
        Object nested = Array.newInstance(layout.carrier(), dimensions);
        int rowLength = dimensions[dimensions.length - 1];
        long rowBytes = (long) rowLength * layout.byteSize();
        int[] outer = new int[dimensions.length - 1];
        do {
            Object row = nested;
            for (int index : outer) {
                row = Array.get(row, index);
            }
            MemorySegment.copy(segment, layout, offset, row, 0, rowLength);
            offset += rowBytes;
        } while (next(outer, dimensions));
        return nested;
    }

    private static boolean next(int[] index, int[] dimensions) {
        for (int axis = index.length - 1; axis >= 0; axis--) {
            if (++index[axis] < dimensions[axis]) {
                return true;
            }
            index[axis] = 0;
        }
        return false;
    }
}

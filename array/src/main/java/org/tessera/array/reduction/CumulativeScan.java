package org.tessera.array.reduction;

import java.io.Serial;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.array.BlockGrid;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Tokens;
import org.tessera.array.blockwise.BlockFunction;
import org.tessera.array.blockwise.Blockwise;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.creation.CreationLayer;
import org.tessera.array.rechunk.Rechunk;
import org.tessera.array.reshape.Flatten;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.ufunc.Statistics;
import org.tessera.ndarray.ufunc.Ufunc;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * cumsum, cumprod and their nan-variants as Dask's sequential cumulative reduction: each block is
 * scanned on its own, then block i is shifted by the running total of the last slices of blocks
 * before it along the axis (a chain of small carries, one per block).
 */
public final class CumulativeScan {
    private CumulativeScan() {
    }

    /** Which scan. */
    public enum Kind {
        CUMSUM(Ufuncs.ADD, false), CUMPROD(Ufuncs.MULTIPLY, false), NANCUMSUM(Ufuncs.ADD, true), NANCUMPROD(Ufuncs.MULTIPLY, true);

        final Ufunc combine;
        final boolean skipNan;

        Kind(Ufunc combine, boolean skipNan) {
            this.combine = combine;
            this.skipNan = skipNan;
        }

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * @param axis null scans the flattened array (which Dask then splits into blocks of as many
     *             elements as the input had blocks)
     */
    public static ChunkedArray scan(ChunkedArray x, Kind kind, Integer axis, DType dtype) {
        ChunkedArray input = x;
        int scanAxis;
        if (axis == null) {
            int partitions = (int) x.chunks().totalBlocks();
            ChunkedArray flat = Flatten.flatten(x);
            input = Rechunk.rechunk(flat, Chunks.regular(flat.shape(), new long[] {partitions}));
            scanAxis = 0;
        } else {
            scanAxis = TreeReduction.normalizeAxes(new int[] {axis}, x.ndim(), kind.label())[0];
        }
        NDArray sample = blockScan(kind, NDArray.zeros(input.dtype(), 1), 0, dtype);
        String letters = CreationLayer.AXIS_LETTERS.substring(0, input.ndim());
        ChunkedArray scanned = Blockwise.of(kind.label() + "-block", new BlockScan(kind, scanAxis, dtype), letters).input(input, letters)
                .token(kind, scanAxis, dtype == null ? "" : dtype.numpyName()).meta(ChunkedArray.metaOf(sample.dtype(), input.ndim())).build();

        String token = Tokens.token(scanned.name(), kind.label());
        String carryName = kind.label() + "-carry-" + token;
        String name = kind.label() + "-" + token;
        Map<Key, Task> carries = new LinkedHashMap<>();
        Map<Key, Task> outputs = new LinkedHashMap<>();
        TaskFunction last = new LastSlice(scanAxis);
        TaskFunction combine = new Combine(kind.combine);
        BlockGrid.forEach(scanned.numBlocks(), index -> {
            int position = index[scanAxis];
            Key block = scanned.key(index);
            if (position == 0) {
                outputs.put(Key.of(name, index), Task.ref(block));
                return;
            }
            int[] previous = index.clone();
            previous[scanAxis] = position - 1;
            Task lastOfPrevious = Task.call(last, scanned.key(previous));
            Task carry = position == 1 ? lastOfPrevious : Task.call(combine, Key.of(carryName, previous), lastOfPrevious);
            carries.put(Key.of(carryName, index), carry);
            outputs.put(Key.of(name, index), Task.call(combine, block, Key.of(carryName, index)));
        });
        var graph = scanned.graph().with(new MaterializedLayer(carryName, carries), Set.of(scanned.name()))
                .with(new MaterializedLayer(name, outputs), Set.of(scanned.name(), carryName));
        return new ChunkedArray(graph, name, scanned.chunks(), scanned.meta());
    }

    static NDArray blockScan(Kind kind, NDArray block, int axis, DType dtype) {
        return switch (kind) {
            case CUMSUM -> Statistics.cumsum(block, axis, dtype);
            case CUMPROD -> Statistics.cumprod(block, axis, dtype);
            case NANCUMSUM -> Statistics.nancumsum(block, axis, dtype);
            case NANCUMPROD -> Statistics.nancumprod(block, axis, dtype);
        };
    }

    /** The scan of one block. */
    record BlockScan(Kind kind, int axis, DType dtype) implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public NDArray apply(List<Object> arguments) {
            return blockScan(kind, (NDArray) arguments.getFirst(), axis, dtype);
        }
    }

    /** The last slice along the axis, kept with length 1: the running total at the block's end. */
    record LastSlice(int axis) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray block = (NDArray) arguments.getFirst();
            return block.slice(axis, block.shape(axis) - 1, 1, 1);
        }

        @Override
        public String displayName() {
            return "last-slice";
        }
    }

    /** Adds (or multiplies) a carry into a block, broadcasting along the axis. */
    record Combine(Ufunc ufunc) implements TaskFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            NDArray block = (NDArray) arguments.get(0);
            NDArray carry = (NDArray) arguments.get(1);
            NDArray result = ufunc.apply(block, carry);
            return result.dtype() == block.dtype() ? result : result.astype(block.dtype());
        }

        @Override
        public String displayName() {
            return ufunc.name();
        }
    }
}

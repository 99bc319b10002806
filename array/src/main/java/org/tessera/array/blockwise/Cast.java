package org.tessera.array.blockwise;

import java.io.Serial;
import java.util.List;
import java.util.Objects;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.Metas;
import org.tessera.array.creation.CreationLayer;
import org.tessera.array.plan.Working;
import org.tessera.ndarray.dtype.DType;

/**
 * Dtype conversion of chunked arrays, block by block. Like NumPy's {@code astype} it casts
 * unsafely (float to int truncates, out-of-range integers wrap), and the result's meta is the
 * input's meta cast, so the block type is kept.
 */
public final class Cast {
    private Cast() {
    }

    /** {@code array} converted to {@code dtype}; the array itself when it already has that dtype. */
    public static ChunkedArray astype(ChunkedArray array, DType dtype) {
        Objects.requireNonNull(dtype, "astype: dtype");
        if (array.dtype() == dtype) {
            return array;
        }
        String letters = CreationLayer.AXIS_LETTERS.substring(0, array.ndim());
        return Blockwise.of("astype", new BlockCast(dtype), letters).input(array, letters).meta(Metas.metaFromArray(array, array.ndim(), dtype))
                .working(Working.none()).build();
    }

    /** One block converted to the dtype. */
    record BlockCast(DType dtype) implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return Blocks.astype(arguments.getFirst(), dtype);
        }
    }
}

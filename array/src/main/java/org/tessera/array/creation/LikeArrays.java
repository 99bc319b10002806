package org.tessera.array.creation;

import java.io.Serial;
import java.util.List;

import org.tessera.array.ChunkedArray;
import org.tessera.array.blockwise.BlockFunction;
import org.tessera.array.blockwise.Blockwise;
import org.tessera.array.plan.Working;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * NumPy's {@code like=} (NEP 35) for the chunked creation functions: the result belongs to the
 * array family of {@code like}. A chunked result's family is its chunk family, which its meta
 * records: {@code like} an NDArray (or a ChunkedArray of NDArray blocks) gives dense blocks;
 * {@code like} a sparse array (or a ChunkedArray of sparse blocks) gives sparse blocks; any family
 * registered with {@link ArrayFamilies} works the same way. The creation functions make dense
 * blocks, and a blockwise step converts each into like's family through its namespace.
 */
public final class LikeArrays {
    private LikeArrays() {
    }

    /** The chunk family that {@code like} asks for: its own, or its chunk family when it is chunked. */
    public static ArrayNamespace<?> chunkFamily(Object like) {
        return switch (like) {
            case ChunkedArray chunked -> chunked.chunkNamespace();
            case AnyArray<?> array -> array.namespace();
            case null -> throw new IllegalArgumentException("like must be an NDArray, a ChunkedArray or an array of another registered family, got null");
            default -> throw new IllegalArgumentException("like must be an NDArray, a ChunkedArray or an array of another registered family, got a "
                    + like.getClass().getName());
        };
    }

    /**
     * The meta of a chunked result of {@code dtype} with {@code ndim} axes in the family of
     * {@code like}: an empty array of like's block type.
     *
     * @throws IllegalArgumentException when {@code like} is null or of no array family
     */
    public static AnyArray<?> meta(Object like, DType dtype, int ndim) {
        return chunkFamily(like).meta(dtype, ndim);
    }

    /** {@code result} (dense blocks) with its blocks in the family of {@code like}. */
    public static ChunkedArray inFamilyOf(ChunkedArray result, Object like) {
        return inFamily(result, chunkFamily(like));
    }

    /** {@code result}'s blocks converted into {@code family}; the array itself when they already are. */
    public static ChunkedArray inFamily(ChunkedArray result, ArrayNamespace<?> family) {
        if (family.arrayType().isInstance(result.meta())) {
            return result;
        }
        if (family.arrayType() == NDArray.class && result.meta() instanceof NDArray) {
            return result;
        }
        String letters = CreationLayer.AXIS_LETTERS.substring(0, result.ndim());
        // A conversion makes the block anew in the other family, and may first gather what it keeps (a sparse
        // block's coordinates: one int64 per axis for each element kept) in arrays as large again.
        Working conversion = Working.ofResult(2.0 * (1 + (double) result.ndim() * Long.BYTES / Math.max(1, result.dtype().byteSize())));
        return Blockwise.of("as-" + family.family(), new ConvertBlock(family.family()), letters).input(result, letters)
                .meta(family.meta(result.dtype(), result.ndim())).token(family.family()).working(conversion).build();
    }

    /** A block converted into a family, found again by name where the task runs (namespaces need not be serialisable). */
    record ConvertBlock(String family) implements BlockFunction {
        @Serial
        private static final long serialVersionUID = 1L;

        @Override
        public Object apply(List<Object> arguments) {
            return ArrayFamilies.byName(family).asarray(arguments.getFirst());
        }
    }
}

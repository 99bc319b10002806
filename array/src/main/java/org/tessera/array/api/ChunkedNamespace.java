package org.tessera.array.api;

import java.util.ArrayList;
import java.util.List;

import org.tessera.array.ChunkedArray;
import org.tessera.array.blockwise.Cast;
import org.tessera.array.blockwise.Elementwise;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.creation.LikeArrays;
import org.tessera.array.join.ChunkedJoining;
import org.tessera.array.linalg.ChunkedProducts;
import org.tessera.array.reduction.ChunkedStatistics;
import org.tessera.array.reduction.ChunkedStatistics.Request;
import org.tessera.array.reshape.Reshape;
import org.tessera.array.reshape.Transpose;
import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayFamilies;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.Reduction;
import org.tessera.ndarray.api.DenseNamespace;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;

/**
 * The chunked family over a chunk family: lazy {@link ChunkedArray}s whose blocks are arrays of
 * {@code chunkFamily} (dense, sparse, or any registered family). Created arrays use Dask's "auto"
 * chunks; {@code like} a chunked array keeps its chunk family ({@code chunked[sparse]} creates
 * sparse blocks).
 *
 * <p>Mixing: the chunked family absorbs in-memory arrays of any family that mixes with its chunk
 * family (an in-memory operand becomes one block); chunked arrays of two chunk families mix when
 * their chunk families do, and each result's meta says which chunk family it got (sparse blocks
 * with dense blocks give dense blocks).
 *
 * <p>Registered through {@code META-INF/services} with dense chunks (its no-argument constructor).
 */
public record ChunkedNamespace(ArrayNamespace<?> chunkFamily) implements ArrayNamespace<ChunkedArray> {

    /** The chunked family of dense blocks (not looked up in ArrayFamilies: this runs while it loads the families). */
    public ChunkedNamespace() {
        this(new DenseNamespace());
    }

    @Override
    public String family() {
        return "chunked[" + chunkFamily.family() + "]";
    }

    @Override
    public Class<ChunkedArray> arrayType() {
        return ChunkedArray.class;
    }

    @Override
    public boolean absorbs(ArrayNamespace<?> other) {
        ArrayNamespace<?> otherChunks = other instanceof ChunkedNamespace chunked ? chunked.chunkFamily() : other;
        try {
            ArrayFamilies.common(chunkFamily, otherChunks);
            return true;
        } catch (IllegalArgumentException unrelated) {
            return false;
        }
    }

    @Override
    public ChunkedArray asarray(Object values, DType dtype) {
        ChunkedArray chunked = switch (values) {
            case ChunkedArray array -> array;
            // An in-memory array of another family is cut into blocks of its own family, then converted block by block.
            case AnyArray<?> array when !(array instanceof NDArray) -> ChunkedArrays.fromArray(array, ChunkSpec.auto());
            default -> Creation.asarray(ArrayFamilies.dense().asarray(values, dtype), ChunkSpec.auto());
        };
        return inChunkFamily(dtype == null ? chunked : Cast.astype(chunked, dtype));
    }

    @Override
    public ChunkedArray zeros(DType dtype, long... shape) {
        return inChunkFamily(Creation.zeros(shape, dtype, ChunkSpec.auto()));
    }

    @Override
    public ChunkedArray ones(DType dtype, long... shape) {
        return inChunkFamily(Creation.ones(shape, dtype, ChunkSpec.auto()));
    }

    @Override
    public ChunkedArray full(DType dtype, double value, long... shape) {
        return inChunkFamily(Creation.full(shape, value, dtype, ChunkSpec.auto()));
    }

    @Override
    public ChunkedArray empty(DType dtype, long... shape) {
        return inChunkFamily(Creation.empty(shape, dtype, ChunkSpec.auto()));
    }

    @Override
    public ChunkedArray arange(double start, double stop, double step, DType dtype) {
        return inChunkFamily(Creation.arange(start, stop, step, dtype, ChunkSpec.auto()));
    }

    @Override
    public ChunkedArray linspace(double start, double stop, long count) {
        return inChunkFamily(Creation.linspace(start, stop, count, ChunkSpec.auto()));
    }

    @Override
    public ChunkedArray eye(long rows, long columns, long k, DType dtype) {
        return inChunkFamily(Creation.eye(rows, columns, k, dtype, ChunkSpec.auto()));
    }

    /** A chunked array with no elements: its meta says family and dtype. */
    @Override
    public ChunkedArray meta(DType dtype, int ndim) {
        return zeros(dtype, new long[ndim]);
    }

    @Override
    public NDArray toDense(ChunkedArray array) {
        return array.compute();
    }

    @Override
    public ChunkedArray apply(String ufunc, Object... operands) {
        // In-memory operands are not converted into this chunk family: each becomes one block of its own family, and
        // the blocks meet by the mixing rule (chunked sparse + dense gives dense chunks, as the fluent methods do).
        ArrayFamilies.requireAccepted(this, operands);
        List<Object> arguments = new ArrayList<>(operands.length);
        for (Object operand : operands) {
            arguments.add(operand instanceof AnyArray<?> array && !(operand instanceof ChunkedArray) && !(operand instanceof NDArray)
                    ? oneBlock(array) : operand instanceof List<?> || (operand != null && operand.getClass().isArray()) ? asarray(operand) : operand);
        }
        return Elementwise.apply(NDArrays.ufunc(ufunc), arguments.toArray());
    }

    @Override
    public ChunkedArray reduce(Reduction reduction, ChunkedArray array, int[] axes, boolean keepdims) {
        Request request = (axes == null ? Request.all() : Request.axes(axes)).keepdims(keepdims);
        return switch (reduction) {
            case SUM -> ChunkedStatistics.sum(array, request);
            case PROD -> ChunkedStatistics.prod(array, request);
            case MIN -> ChunkedStatistics.min(array, request);
            case MAX -> ChunkedStatistics.max(array, request);
        };
    }

    @Override
    public ChunkedArray concatenate(List<? extends ChunkedArray> arrays, int axis) {
        return ChunkedJoining.concatenate(new ArrayList<>(arrays), axis);
    }

    @Override
    public ChunkedArray matmul(ChunkedArray first, ChunkedArray second) {
        return ChunkedProducts.matmul(first, second);
    }

    @Override
    public ChunkedArray reshape(ChunkedArray array, long... shape) {
        return Reshape.reshape(array, shape);
    }

    @Override
    public ChunkedArray transpose(ChunkedArray array, int... axes) {
        return axes.length == 0 ? Transpose.transpose(array) : Transpose.transpose(array, axes);
    }

    @Override
    public ChunkedArray slice(ChunkedArray array, int axis, long start, long step, long count) {
        Index[] index = new Index[array.ndim()];
        for (int other = 0; other < index.length; other++) {
            index[other] = Index.all();
        }
        long stop = start + step * count;
        int normalized = axis < 0 ? axis + array.ndim() : axis;
        index[normalized] = Index.range(start, stop < 0 ? null : stop, step);
        return array.get(index);
    }

    @Override
    public ChunkedArray astype(ChunkedArray array, DType dtype) {
        return Cast.astype(array, dtype);
    }

    /** An in-memory array of any family as a chunked array of one block, its meta of that family. */
    public static ChunkedArray oneBlock(AnyArray<?> block) {
        return ChunkedArrays.fromBlock(block);
    }

    private ChunkedArray inChunkFamily(ChunkedArray dense) {
        return LikeArrays.inFamily(dense, chunkFamily);
    }

    @Override
    public String toString() {
        return "ChunkedNamespace[" + family() + "]";
    }
}

package org.tessera.array.linalg;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.plan.Footprints;
import org.tessera.array.plan.Working;
import org.tessera.array.reduction.LayerMemory;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.layer.MaterializedLayer;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * Hand-built layers for the decompositions, whose task shapes (one task reading every block of a
 * column, several outputs from one task) are not blockwise. Intermediate tasks return
 * {@code NDArray[]}, which the memory budget can size and spill like a block.
 */
final class TaskLayers {
    /** Component {@code index} of an {@code NDArray[]} task result. */
    static final TaskFunction PICK = TaskFunction.cheap("pick-component", arguments -> ((NDArray[]) arguments.get(0))[(Integer) arguments.get(1)]);

    private TaskLayers() {
    }

    /**
     * A graph extended by one internal layer of the given tasks, depending on the named layers: each
     * task returns {@code result} bytes, as the scheduler counts them ({@link LayerMemory#arrayBytes}),
     * and allocates {@code working} besides.
     */
    static HighLevelGraph with(HighLevelGraph graph, String name, Map<Key, Task> tasks, LayerMemory.Bytes result, LayerMemory.Bytes working,
                               String... dependencies) {
        return LayerMemory.tasks(graph.with(new MaterializedLayer(name, tasks), Set.of(dependencies)), name, result, working);
    }

    /** An array whose blocks are the given tasks of a new layer, each allocating {@code working} besides its block. */
    static ChunkedArray array(HighLevelGraph graph, String name, Map<Key, Task> tasks, Chunks chunks, DType dtype, Working working,
                              String... dependencies) {
        HighLevelGraph withLayer = graph.with(new MaterializedLayer(name, tasks), Set.of(dependencies));
        return new ChunkedArray(Footprints.declare(withLayer, name, working), name, chunks, dtype);
    }

    /** A one-block array holding component {@code index} of the {@code NDArray[]} at {@code source}: picked, nothing allocated. */
    static ChunkedArray component(HighLevelGraph graph, Key source, int index, String name, long[] shape, DType dtype) {
        Map<Key, Task> tasks = Map.of(Key.of(name, new int[shape.length]), Task.call(PICK, source, index));
        long[][] lengths = new long[shape.length][];
        for (int axis = 0; axis < shape.length; axis++) {
            lengths[axis] = new long[] {shape[axis]};
        }
        return array(graph, name, tasks, Chunks.of(lengths), dtype, Working.none(), source.name());
    }

    /** The bytes of a {@code rows x columns} matrix of {@code dtype}'s elements, data only. */
    static long matrixBytes(long rows, long columns, DType dtype) {
        return rows * columns * dtype.byteSize();
    }

    static Map<Key, Task> tasks() {
        return new LinkedHashMap<>();
    }

    /** float32 stays float32 in numpy.linalg; everything else computes in float64. */
    static DType resultType(DType input) {
        if (input.isComplex()) {
            throw new IllegalArgumentException("complex arrays are not supported by the chunked decompositions (got " + input.numpyName() + ")");
        }
        return input == DType.FLOAT32 || input == DType.FLOAT16 ? DType.FLOAT32 : DType.FLOAT64;
    }

    /** The shape as NumPy prints it in messages, e.g. {@code (23,4)}. */
    static String shape(ChunkedArray array) {
        return Shapes.format(array.shape());
    }
}

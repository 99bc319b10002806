package org.tessera.array.linalg;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.Chunks;
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

    /** A graph extended by one layer of the given tasks, depending on the named layers. */
    static HighLevelGraph with(HighLevelGraph graph, String name, Map<Key, Task> tasks, String... dependencies) {
        return graph.with(new MaterializedLayer(name, tasks), Set.of(dependencies));
    }

    /** An array whose blocks are the given tasks of a new layer. */
    static ChunkedArray array(HighLevelGraph graph, String name, Map<Key, Task> tasks, Chunks chunks, DType dtype, String... dependencies) {
        return new ChunkedArray(with(graph, name, tasks, dependencies), name, chunks, dtype);
    }

    /** A one-block array holding component {@code index} of the {@code NDArray[]} at {@code source}. */
    static ChunkedArray component(HighLevelGraph graph, Key source, int index, String name, long[] shape, DType dtype) {
        Map<Key, Task> tasks = Map.of(Key.of(name, new int[shape.length]), Task.call(PICK, source, index));
        long[][] lengths = new long[shape.length][];
        for (int axis = 0; axis < shape.length; axis++) {
            lengths[axis] = new long[] {shape[axis]};
        }
        return array(graph, name, tasks, Chunks.of(lengths), dtype, source.name());
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

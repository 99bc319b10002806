package org.tessera.cli;

import java.io.PrintStream;
import java.util.List;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.index.Index;
import org.tessera.ndarray.iteration.Operand;
import org.tessera.ndarray.iteration.StridedIteration;
import org.tessera.ndarray.kernel.Elements;
import org.tessera.ndarray.layout.Shapes;

/**
 * {@code tessera demo}: until the out-of-core demo exists, a tour of the NDArray core that shows
 * an array, views that share its memory, a broadcast with zero strides, advanced indexing and a
 * reduction, printing each as NumPy would.
 */
final class Demo {
    private Demo() {}

    static int run(String[] args, PrintStream out, PrintStream err) {
        for (String arg : args) {
            if (arg.equals("--help") || arg.equals("-h")) {
                out.println("usage: tessera demo\n\nPrints a short tour of Tessera's NDArray: an array, views, a broadcast and a reduction.");
                return 0;
            }
            err.println("tessera demo: unknown option '" + arg + "'");
            err.println("usage: tessera demo");
            return 2;
        }
        NDArray x = NDArrays.arange(12).reshape(3, 4);
        out.println("x = arange(12).reshape(3, 4)");
        out.println(x);
        describe(out, "x", x, x);

        NDArray columns = NDArrays.get(x, Index.all(), Index.range(null, null, -2L));
        out.println("\nx[:, ::-2]  (a view: negative byte strides, no copy)");
        out.println(columns);
        describe(out, "x[:, ::-2]", columns, x);

        NDArray transposed = x.transpose();
        out.println("\nx.T  (a view: swapped strides)");
        out.println(transposed);
        describe(out, "x.T", transposed, x);

        NDArray row = NDArrays.linspace(0, 1, 4).astype(DType.FLOAT32);
        NDArray broadcast = row.broadcastTo(3, 4);
        out.println("\nlinspace(0, 1, 4).astype(float32) broadcast to (3, 4)  (stride 0 along axis 0, read-only)");
        out.println(broadcast);
        describe(out, "broadcast", broadcast, row);

        NDArray picked = NDArrays.get(x, Index.of(NDArrays.array(2L, 0L)), Index.of(NDArrays.array(true, false, true, false)));
        out.println("\nx[[2, 0], [True, False, True, False]]  (advanced indexing: a copy)");
        out.println(picked);

        columns.setLong(-1, 0, 0);
        out.println("\nafter x[:, ::-2][0, 0] = -1, the base sees the write:");
        out.println(x);

        NDArray big = NDArrays.arange(0.0, 2000.0, 1.0).reshape(40, 50);
        out.println("\nsum over axis 0 of arange(2000.).reshape(40, 50), printed with NumPy's summarisation:");
        out.println(sumOverFirstAxis(big));
        out.println("\ntotal = " + sumOverFirstAxis(sumOverFirstAxis(big).reshape(50, 1)).item());
        out.println("\nconcatenate([x, x], axis=0).shape = "
                + Shapes.format(NDArrays.concatenate(List.of(x, x), 0).shape()));
        return 0;
    }

    private static void describe(PrintStream out, String name, NDArray array, NDArray source) {
        out.printf("  %s: shape=%s strides=%s C=%s F=%s writeable=%s shares memory with its source=%s%n", name,
                Shapes.format(array.shape()), Shapes.format(array.byteStrides()), array.isCContiguous(),
                array.isFContiguous(), array.isWriteable(), array.mayShareMemory(source));
    }

    /**
     * A float64 sum over axis 0, written with the iterator directly: each output element
     * accumulates one run of the input (the ufunc machinery of a later issue does this generally).
     */
    private static NDArray sumOverFirstAxis(NDArray input) {
        long[] shape = input.shape();
        long[] outputShape = java.util.Arrays.copyOfRange(shape, 1, shape.length);
        NDArray result = NDArray.zeros(DType.FLOAT64, outputShape);
        NDArray moved = input.moveAxis(0, -1);
        long[] iterationShape = moved.shape();
        long[] resultStrides = new long[iterationShape.length];
        System.arraycopy(result.byteStrides(), 0, resultStrides, 0, outputShape.length);
        Operand target = new Operand(DType.FLOAT64, result.segment(), result.byteOffset(), resultStrides);
        StridedIteration.forEachRun(iterationShape, new Operand[] {moved.operand(), target}, (offsets, strides, count) -> {
            double total = Elements.loadReal(DType.FLOAT64, result.segment(), offsets[1]);
            for (long i = 0; i < count; i++) {
                total += Elements.loadReal(input.dtype(), input.segment(), offsets[0] + i * strides[0]);
            }
            Elements.storeReal(DType.FLOAT64, result.segment(), offsets[1], total);
        });
        return result;
    }
}

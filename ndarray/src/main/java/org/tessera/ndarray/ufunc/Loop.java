package org.tessera.ndarray.ufunc;

import java.util.List;

import org.tessera.ndarray.dtype.DType;

/**
 * One typed loop of a ufunc, as NumPy's {@code "dd->d"}: the dtypes the inputs are cast to, the
 * dtypes the outputs are computed in, one kernel per output and, for the hottest loops, a kernel
 * straight over contiguous memory.
 */
record Loop(List<DType> inputs, List<DType> outputs, List<Kernel> kernels, ContiguousKernel contiguous) {

    Loop {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        kernels = List.copyOf(kernels);
    }

    /** NumPy's type-code spelling, {@code "dd->d"}. */
    String signature() {
        StringBuilder text = new StringBuilder();
        inputs.forEach(dtype -> text.append(TypeCodes.code(dtype)));
        text.append("->");
        outputs.forEach(dtype -> text.append(TypeCodes.code(dtype)));
        return text.toString();
    }

    @Override
    public String toString() { return signature(); }
}

package org.tessera.sparse;

import java.io.Serial;
import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

/**
 * What a sparse array writes when it is serialised (a spilled block, a block shipped to a Spark
 * executor): shape, positions, dtype name and the values' bytes in native order, plus whether it
 * was CSR. A record with plain fields, so the format does not depend on how NDArray stores memory.
 */
record SerialForm(long[] shape, long[] positions, String dtype, byte[] values, boolean csr) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    static SerialForm of(SparseArray array) {
        SparseCOO coo = array.toCOO();
        NDArray values = coo.values().ascontiguousarray();
        byte[] bytes = values.segment().asSlice(values.byteOffset(), values.byteSize()).toArray(ValueLayout.JAVA_BYTE);
        return new SerialForm(coo.shape(), coo.positions(), coo.dtype().numpyName(), bytes, array instanceof SparseCSR);
    }

    @Serial
    private Object readResolve() {
        DType type = DType.fromName(dtype);
        NDArray restored = NDArray.zeros(type, positions.length);
        MemorySegment.copy(MemorySegment.ofArray(values), 0, restored.segment(), restored.byteOffset(), values.length);
        SparseCOO coo = new SparseCOO(shape, positions, restored);
        return csr ? coo.toCSR() : coo;
    }
}

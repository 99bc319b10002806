package org.tessera.array.family;

import java.util.Arrays;

import org.tessera.ndarray.AnyArray;
import org.tessera.ndarray.ArrayNamespace;
import org.tessera.ndarray.dtype.DType;

/**
 * A tiny third-party array family for tests: 1-D float64 arrays over a {@code double[]}. Tessera
 * knows nothing of it; {@link ListNamespace} is found through
 * {@code src/test/resources/META-INF/services/org.tessera.ndarray.ArrayNamespace}.
 */
public record ListArray(double[] values) implements AnyArray<ListArray> {
    public ListArray {
        values = values.clone();
    }

    @Override
    public double[] values() {
        return values.clone();
    }

    @Override
    public long[] shape() {
        return new long[] {values.length};
    }

    @Override
    public DType dtype() {
        return DType.FLOAT64;
    }

    @Override
    public ArrayNamespace<ListArray> namespace() {
        return new ListNamespace();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ListArray list && Arrays.equals(values, list.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "ListArray" + Arrays.toString(values);
    }
}

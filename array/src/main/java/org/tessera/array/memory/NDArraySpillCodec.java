package org.tessera.array.memory;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteOrder;

import org.tessera.graph.memory.SpillCodec;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.npy.Npy;

/** Spills NDArray blocks (and the arrays of reduction partials) as .npy data: raw bytes, no Java serialization. */
public final class NDArraySpillCodec implements SpillCodec {
    @Override
    public String name() {
        return "ndarray-npy";
    }

    @Override
    public boolean accepts(Object value) {
        return value instanceof NDArray || value instanceof NDArray[];
    }

    @Override
    public void write(Object value, DataOutputStream output) throws IOException {
        NDArray[] arrays = value instanceof NDArray array ? new NDArray[] {array} : (NDArray[]) value;
        output.writeBoolean(value instanceof NDArray[]);
        output.writeInt(arrays.length);
        for (NDArray array : arrays) {
            Npy.writeTo(output, array, ByteOrder.LITTLE_ENDIAN);
        }
    }

    @Override
    public Object read(DataInputStream input) throws IOException {
        boolean several = input.readBoolean();
        NDArray[] arrays = new NDArray[input.readInt()];
        for (int position = 0; position < arrays.length; position++) {
            arrays[position] = Npy.readFrom(input, "a spilled block");
        }
        return several ? arrays : arrays[0];
    }
}

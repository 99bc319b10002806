package org.tessera.spark.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;

class BlockCodecTest {
    private static final Key KEY = Key.of("x", 1, 2);

    @ParameterizedTest
    @EnumSource(value = DType.class, names = {"BOOL", "INT8", "INT32", "INT64", "UINT16", "FLOAT32", "FLOAT64", "COMPLEX128"})
    void arrayRoundTripsAsHeaderAndRawBytes(DType dtype) {
        NDArray array = NDArray.zeros(DType.FLOAT64, 3, 5).astype(dtype);
        byte[] bytes = BlockCodec.encode(array);
        assertEquals('N', bytes[0]);
        long rawBytes = 15L * dtype.byteSize();
        assertTrue(bytes.length <= rawBytes + 1 + 256, "no boxing: " + bytes.length + " bytes for " + rawBytes + " bytes of data");
        NDArray decoded = (NDArray) BlockCodec.decode(bytes, KEY);
        assertEquals(dtype, decoded.dtype());
        assertArrayEquals(new long[] {3, 5}, decoded.shape());
    }

    @Test
    void stridedViewKeepsItsValues() {
        NDArray matrix = NDArray.zeros(DType.FLOAT64, 4, 6);
        for (int row = 0; row < 4; row++) {
            for (int column = 0; column < 6; column++) {
                matrix.setDouble(row * 10 + column, row, column);
            }
        }
        NDArray view = matrix.transpose().slice(0, 1, 2, 2);
        NDArray decoded = (NDArray) BlockCodec.decode(BlockCodec.encode(view), KEY);
        assertArrayEquals(view.shape(), decoded.shape());
        for (int row = 0; row < view.shape()[0]; row++) {
            for (int column = 0; column < view.shape()[1]; column++) {
                assertEquals(view.getDouble(row, column), decoded.getDouble(row, column));
            }
        }
    }

    @Test
    void arraysInsideOtherValuesTravelToo() {
        NDArray first = NDArray.zeros(DType.INT32, 2);
        first.setDouble(7, 1);
        Object decoded = BlockCodec.decode(BlockCodec.encode(List.of(first, "label", new NDArray[] {first})), KEY);
        List<?> values = (List<?>) decoded;
        assertEquals(7, ((NDArray) values.get(0)).getDouble(1));
        assertEquals("label", values.get(1));
        assertEquals(7, ((NDArray[]) values.get(2))[0].getDouble(1));
    }

    @Test
    void taskWithArrayLiteralSerializes() throws Exception {
        NDArray literal = NDArray.zeros(DType.FLOAT64, 2);
        literal.setDouble(2.5, 0);
        Task task = Task.call(TaskFunction.unary("first", (NDArray array) -> array.getDouble(0)), literal);
        Task copy = (Task) ArraySerialization.deserialize(ArraySerialization.serialize(task), 0, "a task");
        assertEquals(2.5, copy.evaluate(key -> null));
    }

    @Test
    void unserializableCaptureIsNamed() {
        Object unserializable = new Object();
        TaskFunction function = TaskFunction.named("captures", arguments -> unserializable.hashCode());
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> ArraySerialization.serialize(Task.call(function)));
        assertTrue(failure.getMessage().contains("java.lang.Object"), failure.getMessage());
    }

    @Test
    void nullAndScalarsRoundTrip() {
        assertEquals(null, BlockCodec.decode(BlockCodec.encode(null), KEY));
        assertInstanceOf(Double.class, BlockCodec.decode(BlockCodec.encode(1.5), KEY));
    }
}

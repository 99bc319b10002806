package org.tessera.spark.serialization;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.io.Serial;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.npy.Npy;
import org.tessera.ndarray.ufunc.Ufunc;
import org.tessera.ndarray.ufunc.Ufuncs;

/**
 * Java serialization that also carries NDArrays, which are not {@link Serializable}: wherever one
 * sits in the object graph (a literal of a task, a value captured by a task function, an item of
 * a list), it is replaced by its {@code .npy} bytes on the way out and rebuilt on the way in. The
 * ufuncs of NumPy's catalogue, which elementwise task functions capture and which are not
 * serializable either, travel as their names and are looked up again on arrival.
 * Classes are loaded through the thread's context class loader, which is where a Spark executor
 * puts the application's classes.
 */
public final class ArraySerialization {
    private ArraySerialization() {
    }

    /** {@code value} serialized, after {@code prefix} bytes. */
    public static byte[] serialize(Object value, byte... prefix) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(prefix);
        try (ObjectOutputStream objects = new ArrayReplacingOutput(bytes)) {
            objects.writeObject(value);
        } catch (NotSerializableException unserializable) {
            throw new IllegalArgumentException("cannot send " + describe(value) + " to Spark: " + unserializable.getMessage()
                    + " is not serializable (task functions and their captured values must be)", unserializable);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot serialize " + describe(value) + ": " + failure.getMessage(), failure);
        }
        return bytes.toByteArray();
    }

    /** The value serialized in {@code bytes} from {@code offset}; {@code what} names it in errors. */
    public static Object deserialize(byte[] bytes, int offset, String what) {
        try (ObjectInputStream objects = new ArrayRestoringInput(new ByteArrayInputStream(bytes, offset, bytes.length - offset))) {
            return objects.readObject();
        } catch (IOException | ClassNotFoundException failure) {
            throw new IllegalStateException("cannot deserialize " + what + ": " + failure, failure);
        }
    }

    /** Whether {@code ufunc} is the catalogue's ufunc of its name, so that the name finds it again. */
    private static boolean isCatalogued(Ufunc ufunc) {
        try {
            return Ufuncs.byName(ufunc.name()) == ufunc;
        } catch (IllegalArgumentException notInCatalogue) {
            return false;
        }
    }

    private static String describe(Object value) {
        return value == null ? "null" : value.getClass().getName();
    }

    /** The stand-in for an NDArray in a serialized object graph: its {@code .npy} bytes. */
    private record NpyBytes(byte[] bytes) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    /** The stand-in for a catalogue ufunc: its NumPy name. */
    private record UfuncName(String name) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    private static final class ArrayReplacingOutput extends ObjectOutputStream {
        ArrayReplacingOutput(OutputStream output) throws IOException {
            super(output);
            enableReplaceObject(true);
        }

        @Override
        protected Object replaceObject(Object object) throws IOException {
            if (object instanceof NDArray array) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                Npy.writeTo(bytes, array, ByteOrder.LITTLE_ENDIAN);
                return new NpyBytes(bytes.toByteArray());
            }
            if (object instanceof Ufunc ufunc && isCatalogued(ufunc)) {
                return new UfuncName(ufunc.name());
            }
            return object;
        }
    }

    private static final class ArrayRestoringInput extends ObjectInputStream {
        ArrayRestoringInput(InputStream input) throws IOException {
            super(input);
            enableResolveObject(true);
        }

        @Override
        protected Object resolveObject(Object object) throws IOException {
            return switch (object) {
                case NpyBytes(byte[] bytes) -> Npy.readFrom(new ByteArrayInputStream(bytes), "a serialized array");
                case UfuncName(String name) -> Ufuncs.byName(name);
                default -> object;
            };
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass description) throws IOException, ClassNotFoundException {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            if (loader != null) {
                try {
                    return Class.forName(description.getName(), false, loader);
                } catch (ClassNotFoundException notThere) {
                    // fall back to the loader of the nearest class on the stack, as plain Java serialization does
                }
            }
            return super.resolveClass(description);
        }
    }
}

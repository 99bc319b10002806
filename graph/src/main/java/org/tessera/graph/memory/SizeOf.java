package org.tessera.graph.memory;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.ServiceLoader;

/**
 * Estimates the bytes a task result holds. A service-provider interface: modules whose values do
 * not implement {@link Sized} register an implementation in
 * {@code META-INF/services/org.tessera.graph.memory.SizeOf}.
 */
public interface SizeOf {

    /** The size of {@code value}, or empty when this estimator does not know its type. */
    OptionalLong sizeOf(Object value);

    /** Bytes assumed for a value nothing knows: a small object. */
    long UNKNOWN_OBJECT_BYTES = 64;

    /** The estimate of the registered providers, else of the built-in rules. */
    static long estimate(Object value) {
        return switch (value) {
            case null -> 0;
            case Sized sized -> sized.byteSize();
            case byte[] bytes -> 16L + bytes.length;
            case short[] shorts -> 16L + 2L * shorts.length;
            case char[] chars -> 16L + 2L * chars.length;
            case int[] ints -> 16L + 4L * ints.length;
            case float[] floats -> 16L + 4L * floats.length;
            case long[] longs -> 16L + 8L * longs.length;
            case double[] doubles -> 16L + 8L * doubles.length;
            case String string -> 40L + string.length();
            case Number number -> 16;
            case Collection<?> items -> 16L + items.stream().mapToLong(SizeOf::estimate).sum();
            case Map<?, ?> map -> 16L + map.entrySet().stream().mapToLong(entry -> estimate(entry.getKey()) + estimate(entry.getValue())).sum();
            default -> fromProviders(value);
        };
    }

    private static long fromProviders(Object value) {
        for (SizeOf provider : Providers.ALL) {
            OptionalLong size = provider.sizeOf(value);
            if (size.isPresent()) {
                return size.getAsLong();
            }
        }
        return UNKNOWN_OBJECT_BYTES;
    }

    /** Loaded once: providers are found on the class path at start-up. */
    final class Providers {
        static final List<SizeOf> ALL = ServiceLoader.load(SizeOf.class).stream().map(ServiceLoader.Provider::get).toList();

        private Providers() {
        }
    }
}

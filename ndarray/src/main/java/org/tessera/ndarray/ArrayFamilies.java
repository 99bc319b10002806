package org.tessera.ndarray;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.ServiceLoader;

import org.tessera.ndarray.layout.Shapes;

/**
 * The array families Tessera knows: every {@link ArrayNamespace} listed in
 * {@code META-INF/services/org.tessera.ndarray.ArrayNamespace} on the class path (the dense family
 * of this module, the sparse and chunked families of theirs, and any a third party adds), plus the
 * rule for mixing them.
 *
 * <p><b>The mixing rule.</b> When operands of two families meet, the result belongs to the family
 * that {@linkplain ArrayNamespace#absorbs absorbs} the other or that the other
 * {@linkplain ArrayNamespace#yieldsTo yields to}: chunked + in-memory gives chunked, sparse + dense
 * gives dense (as SciPy and pydata-sparse). Java scalars, Java arrays and lists have no family and
 * join any. Two families with no such relation are refused with an IllegalArgumentException that
 * names both: a result is never of a family the caller did not ask for.
 */
public final class ArrayFamilies {
    private ArrayFamilies() {
    }

    /** Loaded once, on first use; the class path does not change while a JVM runs. */
    private static final class Loaded {
        static final List<ArrayNamespace<?>> NAMESPACES = load();

        private static List<ArrayNamespace<?>> load() {
            List<ArrayNamespace<?>> found = new ArrayList<>();
            ServiceLoader.load(ArrayNamespace.class, ArrayFamilies.class.getClassLoader()).forEach(found::add);
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            if (context != null && context != ArrayFamilies.class.getClassLoader()) {
                for (ArrayNamespace<?> namespace : ServiceLoader.load(ArrayNamespace.class, context)) {
                    if (found.stream().noneMatch(known -> known.getClass() == namespace.getClass())) {
                        found.add(namespace);
                    }
                }
            }
            return List.copyOf(found);
        }
    }

    /** Every registered family, in class-path order. */
    public static List<ArrayNamespace<?>> all() {
        return Loaded.NAMESPACES;
    }

    /** The registered family whose arrays are instances of {@code arrayType}. */
    @SuppressWarnings("unchecked")
    public static <A extends AnyArray<A>> ArrayNamespace<A> forType(Class<A> arrayType) {
        for (ArrayNamespace<?> namespace : all()) {
            if (namespace.arrayType() == arrayType) {
                return (ArrayNamespace<A>) namespace;
            }
        }
        throw new IllegalStateException("no array family for " + arrayType.getName() + " is registered in "
                + "META-INF/services/" + ArrayNamespace.class.getName() + " (families found: " + names(all()) + ")");
    }

    /** The registered family called {@code family}. */
    public static ArrayNamespace<?> byName(String family) {
        return all().stream().filter(namespace -> namespace.family().equals(family)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no array family named " + family + " (families found: " + names(all()) + ")"));
    }

    /** The dense family ({@link NDArray}). */
    public static ArrayNamespace<NDArray> dense() {
        return forType(NDArray.class);
    }

    /** The family of {@code value}, or null for a value of no family (a Java scalar, array or list). */
    public static ArrayNamespace<?> familyOf(Object value) {
        return value instanceof AnyArray<?> array ? array.namespace() : null;
    }

    /**
     * The family of the result of an operation over {@code operands}, by the mixing rule above;
     * the dense family when no operand has one.
     *
     * @throws IllegalArgumentException naming both families when two operands' families do not mix
     */
    public static ArrayNamespace<?> common(Object... operands) {
        ArrayNamespace<?> result = null;
        for (Object operand : operands) {
            ArrayNamespace<?> family = familyOf(operand);
            if (family != null) {
                result = result == null ? family : common(result, family);
            }
        }
        return result == null ? dense() : result;
    }

    /** The family two families' operands give together (see the class documentation). */
    public static ArrayNamespace<?> common(ArrayNamespace<?> first, ArrayNamespace<?> second) {
        if (first.equals(second)) {
            return first;
        }
        if (first.absorbs(second) || second.yieldsTo(first)) {
            return first;
        }
        if (second.absorbs(first) || first.yieldsTo(second)) {
            return second;
        }
        throw new IllegalArgumentException("cannot mix arrays of the " + first.family() + " family and the " + second.family()
                + " family: neither converts into the other; convert one explicitly (for instance to dense with namespace().toDense)");
    }

    /**
     * Every operand that is an array of {@code target}'s family or of a family it absorbs, with the
     * latter converted; other values (scalars, Java arrays) as they are.
     *
     * @throws IllegalArgumentException naming both families for an operand {@code target} does not accept
     */
    public static Object[] operandsFor(ArrayNamespace<?> target, Object... operands) {
        requireAccepted(target, operands);
        Object[] converted = new Object[operands.length];
        for (int position = 0; position < operands.length; position++) {
            Object operand = operands[position];
            converted[position] = familyOf(operand) == null || target.arrayType().isInstance(operand) ? operand : target.asarray(operand);
        }
        return converted;
    }

    /**
     * Checks that {@code target} accepts every operand (its own arrays, values of no family, arrays
     * of families it absorbs or that yield to it) without converting any.
     *
     * @throws IllegalArgumentException naming both families for an operand {@code target} does not accept
     */
    public static void requireAccepted(ArrayNamespace<?> target, Object... operands) {
        for (int position = 0; position < operands.length; position++) {
            Object operand = operands[position];
            ArrayNamespace<?> family = familyOf(operand);
            if (family != null && !target.arrayType().isInstance(operand) && !target.absorbs(family) && !family.yieldsTo(target)) {
                throw new IllegalArgumentException("the " + target.family() + " family does not take operands of the " + family.family()
                        + " family (operand " + position + "); mix them with ArrayFamilies.apply, which applies the mixing rule, or convert explicitly");
            }
        }
    }

    /**
     * {@code ufunc(operands...)} in the family the mixing rule gives the operands; that family's
     * namespace converts the operands it absorbs in its own way (the chunked family makes an
     * in-memory operand one block of its own family rather than converting it).
     */
    public static AnyArray<?> apply(String ufunc, Object... operands) {
        return common(operands).apply(ufunc, operands);
    }

    /** The dense values of an array of any family (itself for an NDArray). */
    public static NDArray toDense(AnyArray<?> array) {
        return toDenseOf(array.namespace(), array);
    }

    private static <A extends AnyArray<A>> NDArray toDenseOf(ArrayNamespace<A> namespace, Object array) {
        return namespace.toDense(namespace.cast(array));
    }

    /** "a sparse array of shape (2, 3) and dtype float64", for messages. */
    public static String describe(Object value) {
        if (value instanceof AnyArray<?> array) {
            return "an array of the " + array.namespace().family() + " family (" + value.getClass().getSimpleName() + ", shape "
                    + Shapes.format(array.shape()) + ", dtype " + array.dtype() + ")";
        }
        return value == null ? "null" : "a " + value.getClass().getName();
    }

    private static List<String> names(Collection<ArrayNamespace<?>> namespaces) {
        return namespaces.stream().map(ArrayNamespace::family).toList();
    }
}

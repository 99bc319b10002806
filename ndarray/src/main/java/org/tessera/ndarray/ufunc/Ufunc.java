package org.tessera.ndarray.ufunc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.Casting;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.dtype.Promotion;
import org.tessera.ndarray.error.CastingException;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.layout.Shapes;
import org.tessera.ndarray.memory.Scratch;

/**
 * A universal function as NumPy's: a name, {@code nin} inputs and {@code nout} outputs, an identity
 * where the operation has one, and a table of typed loops searched in order. A call resolves the
 * loop (NEP 50 promotion of weak Java scalars, then the first loop every input casts to safely),
 * broadcasts, checks or allocates the outputs, and runs the loop where the mask holds.
 * Binary ufuncs also reduce, accumulate, reduceat and outer (see {@link Reductions}).
 */
public final class Ufunc {
    /** {@code DType.values()} copies its array on every call; slots of the loop cache are computed per call. */
    private static final int DTYPE_COUNT = DType.values().length;

    private final String name;
    private final int inputCount;
    private final int outputCount;
    private final Object identity;
    private final List<Loop> loops;
    private final boolean rejectsBool;
    private final DType integerInputsAs;
    private final boolean comparesWeakIntegersExactly;
    private final boolean inputsAsBool;

    private Ufunc(Builder builder) {
        this.name = builder.name;
        this.inputCount = builder.inputCount;
        this.outputCount = builder.outputCount;
        this.identity = builder.identity;
        this.loops = List.copyOf(builder.loops);
        this.rejectsBool = builder.rejectsBool;
        this.integerInputsAs = builder.integerInputsAs;
        this.comparesWeakIntegersExactly = builder.comparesWeakIntegersExactly;
        this.inputsAsBool = builder.inputsAsBool;
    }

    public String name() { return name; }

    /** Number of inputs (NumPy's {@code nin}). */
    public int nin() { return inputCount; }

    /** Number of outputs (NumPy's {@code nout}). */
    public int nout() { return outputCount; }

    /** The identity as a Long (bool and integers), Double or Boolean; null when there is none. */
    public Object identity() { return identity; }

    /** The loop signatures in search order, as NumPy's {@code ufunc.types}: {@code "dd->d"}. */
    public List<String> types() {
        return loops.stream().map(Loop::signature).toList();
    }

    List<Loop> loops() { return loops; }

    /** Applies the ufunc to arrays or Java scalars and returns its first output. */
    public NDArray apply(Object... inputs) {
        return applyAll(inputs)[0];
    }

    /** Applies the ufunc and returns all outputs (divmod has two). */
    public NDArray[] applyAll(Object... inputs) {
        return apply(inputs, null, null, Casting.SAME_KIND);
    }

    /**
     * The full call: {@code outputs} entries may be null (allocated), {@code where} may be null
     * (everywhere); elements of given outputs outside {@code where} keep their values.
     */
    public NDArray[] apply(Object[] inputs, NDArray[] outputs, NDArray where, Casting casting) {
        if (inputs.length != inputCount) {
            throw new IllegalArgumentException(name + "() takes " + inputCount + " input(s), got " + inputs.length);
        }
        NDArray[] given = outputs == null ? new NDArray[outputCount] : outputs.clone();
        if (given.length != outputCount) {
            throw new IllegalArgumentException(name + "() has " + outputCount + " output(s), got " + given.length + " out arrays");
        }
        TypeResolution.Resolved resolved = TypeResolution.resolve(this, inputs);
        NDArray[] arrays = resolved.inputs();
        long[] shape = resultShape(arrays, given);
        NDArray[] results = new NDArray[outputCount];
        boolean anyGiven = false;
        for (int k = 0; k < outputCount; k++) {
            DType computed = resolved.loop().outputs().get(k);
            if (given[k] == null) {
                // Without a mask the loop writes every element; with one, unselected elements stay zero.
                results[k] = where == null ? NDArray.empty(computed, shape) : NDArray.zeros(computed, shape);
            } else {
                checkOutput(given[k], computed, casting);
                results[k] = given[k];
                anyGiven = true;
            }
        }
        NDArray mask = where == null ? null : checkedMask(where, shape);
        // Outputs allocated here share memory with nothing, so only given ones can overlap an input.
        Elementwise.run(resolved.loop(), anyGiven ? separateFromOutputs(arrays, given) : arrays, results, mask, shape);
        return results;
    }

    /** {@code ufunc.reduce(x, axis=..., dtype=..., keepdims=..., initial=..., where=...)}. */
    public NDArray reduce(NDArray x, Reductions.Options options) {
        return Reductions.reduce(this, x, options);
    }

    /** {@code ufunc.accumulate(x, axis)}: the running reduction along {@code axis}. */
    public NDArray accumulate(NDArray x, int axis) {
        return Reductions.accumulate(this, x, axis, null);
    }

    /** {@code ufunc.reduceat(x, indices, axis)}: reductions over the slices between consecutive indices. */
    public NDArray reduceat(NDArray x, long[] indices, int axis) {
        return Reductions.reduceat(this, x, indices, axis, null);
    }

    /** {@code ufunc.outer(a, b)}: the ufunc over every pair of elements, of shape a.shape + b.shape. */
    public NDArray outer(NDArray a, NDArray b) {
        return Reductions.outer(this, a, b);
    }

    private long[] resultShape(NDArray[] inputs, NDArray[] outputs) {
        long[] shape = broadcastShape(inputs);
        for (NDArray output : outputs) {
            if (output != null && !Arrays.equals(Shapes.broadcast(shape, output.shape()), output.shape())) {
                throw new ShapeMismatchException("non-broadcastable output operand with shape " + Shapes.format(output.shape())
                        + " doesn't match the broadcast shape " + Shapes.format(shape) + " of the inputs of " + name);
            }
            if (output != null) {
                shape = output.shape();
            }
        }
        return shape;
    }

    /**
     * The shape the inputs broadcast to. When they all have one shape, apart from 0-d arrays (Java
     * scalars among them), that shape is the answer and no broadcast is worked out: the common case
     * of a blockwise computation, where the broadcast costs as much as the arithmetic.
     */
    private static long[] broadcastShape(NDArray[] inputs) {
        NDArray shaped = null;
        for (NDArray input : inputs) {
            if (input.ndim() == 0) {
                continue;
            }
            if (shaped != null && !sameShape(shaped, input)) {
                long[][] shapes = new long[inputs.length][];
                for (int i = 0; i < inputs.length; i++) {
                    shapes[i] = inputs[i].shape();
                }
                return Shapes.broadcast(shapes);
            }
            shaped = input;
        }
        return shaped == null ? new long[0] : shaped.shape();
    }

    private static boolean sameShape(NDArray first, NDArray second) {
        if (first.ndim() != second.ndim()) {
            return false;
        }
        for (int axis = 0; axis < first.ndim(); axis++) {
            if (first.shape(axis) != second.shape(axis)) {
                return false;
            }
        }
        return true;
    }

    private void checkOutput(NDArray output, DType computed, Casting casting) {
        if (!output.isWriteable()) {
            throw new IllegalArgumentException("output array of " + name + " is read-only");
        }
        if (!Promotion.canCast(computed, output.dtype(), casting)) {
            throw new CastingException("Cannot cast ufunc '" + name + "' output from dtype('" + computed + "') to dtype('"
                    + output.dtype() + "') with casting rule '" + casting.name().toLowerCase(java.util.Locale.ROOT) + "'");
        }
    }

    private NDArray checkedMask(NDArray where, long[] shape) {
        if (!Arrays.equals(Shapes.broadcast(where.shape(), shape), shape)) {
            throw new ShapeMismatchException("where mask of shape " + Shapes.format(where.shape())
                    + " does not broadcast to the result shape " + Shapes.format(shape) + " of " + name);
        }
        return where.dtype() == DType.BOOL ? where : where.astype(DType.BOOL, Casting.SAME_KIND);
    }

    /**
     * Inputs that overlap an output other than element for element are copied first, as NumPy does.
     * Null outputs (allocated by the call) are skipped.
     */
    private static NDArray[] separateFromOutputs(NDArray[] inputs, NDArray[] outputs) {
        NDArray[] separated = inputs.clone();
        for (int i = 0; i < inputs.length; i++) {
            for (NDArray output : outputs) {
                if (output == null) {
                    continue;
                }
                NDArray input = separated[i];
                boolean sameElements = input.byteOffset() == output.byteOffset() && input.segment().equals(output.segment())
                        && Arrays.equals(input.byteStrides(), output.byteStrides()) && Arrays.equals(input.shape(), output.shape())
                        && input.dtype().byteSize() == output.dtype().byteSize();
                if (!sameElements && input.mayShareMemory(output)) {
                    separated[i] = input.copy();
                }
            }
        }
        return separated;
    }

    boolean rejectsBool() { return rejectsBool; }

    DType integerInputsAs() { return integerInputsAs; }

    boolean comparesWeakIntegersExactly() { return comparesWeakIntegersExactly; }

    boolean inputsAsBool() { return inputsAsBool; }

    /** The loop whose dtypes match {@code dtype} in every input and output, for reductions. */
    Loop loopFor(DType dtype) {
        for (Loop loop : loops) {
            if (loop.inputs().stream().allMatch(type -> type == dtype)) {
                return loop;
            }
        }
        return null;
    }

    /**
     * The loops already chosen for each combination of input dtypes (unary and binary ufuncs), so
     * the safe-cast search of {@link TypeResolution#findLoop} runs once per combination rather than
     * once per call: a computation over 100,000 small blocks calls the same ufunc 100,000 times.
     */
    private final java.util.concurrent.atomic.AtomicReferenceArray<Loop> chosenLoops =
            new java.util.concurrent.atomic.AtomicReferenceArray<>(DTYPE_COUNT * DTYPE_COUNT);

    /** The identity as a 0-d array of each dtype, made once: every reduction reads one (never writes it). */
    private final java.util.concurrent.atomic.AtomicReferenceArray<NDArray> identities =
            new java.util.concurrent.atomic.AtomicReferenceArray<>(DTYPE_COUNT);

    /** The identity as a read-only 0-d array of {@code dtype}, or null where the ufunc has none. */
    NDArray identityOf(DType dtype) {
        if (identity == null) {
            return null;
        }
        NDArray cached = identities.get(dtype.ordinal());
        if (cached == null) {
            // On the ordinary heap: made inside a task's scratch memory, it would be overwritten by the next task.
            cached = Scratch.outsideOf(() -> Reductions.startArray(identity, dtype)).readOnly();
            identities.set(dtype.ordinal(), cached);
        }
        return cached;
    }

    /**
     * The last resolution of an array and a weak Java scalar (see {@link TypeResolution#resolve}):
     * the blocks of a chunked {@code x + 1} all resolve the same way, so the next call with the same
     * dtype and the same scalar takes it as it is, its scalar's 0-d array included (read-only, as
     * the identities are: ufuncs only read their inputs).
     */
    private volatile TypeResolution.WeakPair lastWeakPair;

    TypeResolution.WeakPair lastWeakPair() {
        return lastWeakPair;
    }

    void rememberWeakPair(TypeResolution.WeakPair pair) {
        lastWeakPair = pair;
    }

    Loop chosenLoop(DType[] dtypes) {
        if (dtypes.length > 2) {
            return null;
        }
        return chosenLoops.get(loopSlot(dtypes));
    }

    void rememberLoop(DType[] dtypes, Loop loop) {
        if (dtypes.length <= 2) {
            chosenLoops.set(loopSlot(dtypes), loop);
        }
    }

    private static int loopSlot(DType[] dtypes) {
        int slot = dtypes[0].ordinal();
        return dtypes.length == 1 ? slot : slot * DTYPE_COUNT + dtypes[1].ordinal();
    }

    @Override
    public String toString() { return "<ufunc '" + name + "'>"; }

    static Builder builder(String name, int inputCount, int outputCount) {
        return new Builder(name, inputCount, outputCount);
    }

    /** Assembles the loop table: one kernel factory per loop kind, applied to every type code of a group. */
    static final class Builder {
        private final String name;
        private final int inputCount;
        private final int outputCount;
        private Object identity;
        private final List<Loop> loops = new ArrayList<>();
        private boolean rejectsBool;
        private DType integerInputsAs;
        private boolean comparesWeakIntegersExactly;
        private boolean inputsAsBool;

        private Builder(String name, int inputCount, int outputCount) {
            this.name = name;
            this.inputCount = inputCount;
            this.outputCount = outputCount;
        }

        Builder identity(Object value) {
            this.identity = value;
            return this;
        }

        /** NumPy refuses bool inputs for negative, positive and subtract instead of promoting them. */
        Builder rejectsBool() {
            this.rejectsBool = true;
            return this;
        }

        /** true_divide: bool and integer inputs use the loop of this dtype. */
        Builder integerInputsAs(DType dtype) {
            this.integerInputsAs = dtype;
            return this;
        }

        /** Comparisons: a Java integer outside the array's range compares by value instead of overflowing. */
        Builder comparesWeakIntegersExactly() {
            this.comparesWeakIntegersExactly = true;
            return this;
        }

        /** Logical functions: every input is cast to bool and the bool loop runs. */
        Builder inputsAsBool() {
            this.inputsAsBool = true;
            return this;
        }

        /** One loop per type code, all inputs and outputs of that type. */
        Builder each(String codes, Function<DType, Kernel> kernel) {
            return eachTo(codes, null, kernel);
        }

        /** One loop per type code, inputs of that type, every output {@code output} (the type itself when null). */
        Builder eachTo(String codes, DType output, Function<DType, Kernel> kernel) {
            for (char code : codes.toCharArray()) {
                DType dtype = TypeCodes.dtype(code);
                List<Kernel> kernels = new ArrayList<>();
                for (int k = 0; k < outputCount; k++) {
                    kernels.add(kernel.apply(dtype));
                }
                add(dtype, output == null ? dtype : output, kernels, null);
            }
            return this;
        }

        /** Complex loops whose output is the part type (absolute: complex128 gives float64). */
        Builder eachComplexTo(String codes, Function<DType, Kernel> kernel) {
            for (char code : codes.toCharArray()) {
                DType dtype = TypeCodes.dtype(code);
                add(dtype, dtype.realType(), List.of(kernel.apply(dtype)), null);
            }
            return this;
        }

        /** Loops with one kernel per output, as divmod's quotient and remainder. */
        Builder eachWithKernels(String codes, Function<DType, List<Kernel>> kernels) {
            for (char code : codes.toCharArray()) {
                DType dtype = TypeCodes.dtype(code);
                add(dtype, dtype, kernels.apply(dtype), null);
            }
            return this;
        }

        /** Loops whose first input is a bool condition and the others of the loop type (where). */
        Builder selecting(String codes, Function<DType, Kernel> kernel) {
            for (char code : codes.toCharArray()) {
                DType dtype = TypeCodes.dtype(code);
                List<DType> inputs = new ArrayList<>();
                inputs.add(DType.BOOL);
                for (int i = 1; i < inputCount; i++) {
                    inputs.add(dtype);
                }
                loops.add(new Loop(inputs, List.of(dtype), List.of(kernel.apply(dtype)), null));
            }
            return this;
        }

        /** Gives the loop of {@code dtype} a kernel straight over contiguous memory. */
        Builder contiguous(DType dtype, ContiguousKernel kernel) {
            for (int i = 0; i < loops.size(); i++) {
                Loop loop = loops.get(i);
                if (loop.inputs().stream().allMatch(type -> type == dtype)) {
                    loops.set(i, new Loop(loop.inputs(), loop.outputs(), loop.kernels(), kernel));
                }
            }
            return this;
        }

        private void add(DType inputType, DType outputType, List<Kernel> kernels, ContiguousKernel contiguous) {
            loops.add(new Loop(java.util.Collections.nCopies(inputCount, inputType),
                    java.util.Collections.nCopies(outputCount, outputType), kernels, contiguous));
        }

        Ufunc build() {
            return new Ufunc(this);
        }
    }
}

package org.tessera.ndarray;

/**
 * The reductions every array family provides (NumPy's {@code sum}, {@code prod}, {@code min},
 * {@code max}), named by the binary ufunc they fold with. Result dtypes follow NumPy: small
 * integers and bool are summed and multiplied as int64/uint64, min and max keep the dtype.
 */
public enum Reduction {
    SUM("add"), PROD("multiply"), MIN("minimum"), MAX("maximum");

    private final String ufuncName;

    Reduction(String ufuncName) {
        this.ufuncName = ufuncName;
    }

    /** The name of the binary ufunc this reduction folds with. */
    public String ufuncName() {
        return ufuncName;
    }
}

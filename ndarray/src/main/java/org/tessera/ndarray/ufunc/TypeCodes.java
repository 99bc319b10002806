package org.tessera.ndarray.ufunc;

import java.util.ArrayList;
import java.util.List;

import org.tessera.ndarray.dtype.DType;

/** NumPy's one-letter type characters, which loop signatures are written in. */
final class TypeCodes {
    private TypeCodes() {}

    private static final String CODES = "?bBhHiIlLefdFD";
    private static final DType[] TYPES = {DType.BOOL, DType.INT8, DType.UINT8, DType.INT16, DType.UINT16, DType.INT32,
            DType.UINT32, DType.INT64, DType.UINT64, DType.FLOAT16, DType.FLOAT32, DType.FLOAT64, DType.COMPLEX64, DType.COMPLEX128};

    /** The bool loop. */
    static final String BOOL = "?";
    /** Integer loops in NumPy's search order. */
    static final String INTEGERS = "bBhHiIlL";
    /** Float loops in NumPy's search order. */
    static final String FLOATS = "efd";
    /** Complex loops. */
    static final String COMPLEX = "FD";

    static DType dtype(char code) {
        int index = CODES.indexOf(code);
        if (index < 0) {
            throw new IllegalArgumentException("unknown type code '" + code + "'");
        }
        return TYPES[index];
    }

    static char code(DType dtype) {
        for (int i = 0; i < TYPES.length; i++) {
            if (TYPES[i] == dtype) {
                return CODES.charAt(i);
            }
        }
        throw new IllegalArgumentException("no loop type code for " + dtype);
    }

    static List<DType> dtypes(String codes) {
        List<DType> result = new ArrayList<>();
        for (char code : codes.toCharArray()) {
            result.add(dtype(code));
        }
        return result;
    }
}

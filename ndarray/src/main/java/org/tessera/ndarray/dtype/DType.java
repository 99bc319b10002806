package org.tessera.ndarray.dtype;

import java.util.Locale;

/**
 * The element types of an {@link org.tessera.ndarray.NDArray}, as NumPy names them.
 * Each constant knows its size in bytes, its {@link Kind} and the character code of the
 * NumPy array-interface type string ({@code '<f8'} is float64).
 */
public enum DType {
    BOOL("bool", 1, Kind.BOOL, 'b'),
    INT8("int8", 1, Kind.SIGNED, 'i'),
    INT16("int16", 2, Kind.SIGNED, 'i'),
    INT32("int32", 4, Kind.SIGNED, 'i'),
    INT64("int64", 8, Kind.SIGNED, 'i'),
    UINT8("uint8", 1, Kind.UNSIGNED, 'u'),
    UINT16("uint16", 2, Kind.UNSIGNED, 'u'),
    UINT32("uint32", 4, Kind.UNSIGNED, 'u'),
    UINT64("uint64", 8, Kind.UNSIGNED, 'u'),
    FLOAT16("float16", 2, Kind.FLOAT, 'f'),
    FLOAT32("float32", 4, Kind.FLOAT, 'f'),
    FLOAT64("float64", 8, Kind.FLOAT, 'f'),
    COMPLEX64("complex64", 8, Kind.COMPLEX, 'c'),
    COMPLEX128("complex128", 16, Kind.COMPLEX, 'c');

    /** The kinds NumPy orders its types by: bool &lt; signed/unsigned &lt; float &lt; complex. */
    public enum Kind { BOOL, SIGNED, UNSIGNED, FLOAT, COMPLEX }

    private final String numpyName;
    private final int byteSize;
    private final Kind kind;
    private final char typeCode;

    DType(String numpyName, int byteSize, Kind kind, char typeCode) {
        this.numpyName = numpyName;
        this.byteSize = byteSize;
        this.kind = kind;
        this.typeCode = typeCode;
    }

    /** NumPy's name: {@code "float64"}, {@code "uint8"}, {@code "bool"}. */
    public String numpyName() { return numpyName; }

    /** Bytes per element (NumPy's {@code itemsize}). */
    public int byteSize() { return byteSize; }

    public Kind kind() { return kind; }

    public boolean isBool() { return kind == Kind.BOOL; }

    /** Signed or unsigned integer (bool excluded). */
    public boolean isInteger() { return kind == Kind.SIGNED || kind == Kind.UNSIGNED; }

    public boolean isUnsigned() { return kind == Kind.UNSIGNED; }

    public boolean isFloat() { return kind == Kind.FLOAT; }

    public boolean isComplex() { return kind == Kind.COMPLEX; }

    /** Float or complex: the types whose values are carried as doubles. */
    public boolean isInexact() { return kind == Kind.FLOAT || kind == Kind.COMPLEX; }

    /** The array-interface type code without byte order: {@code 'f'} with size 8 is {@code f8}. */
    public char typeCode() { return typeCode; }

    /** The real type of a complex type's parts; the type itself otherwise. */
    public DType realType() {
        return switch (this) {
            case COMPLEX64 -> FLOAT32;
            case COMPLEX128 -> FLOAT64;
            default -> this;
        };
    }

    /** Looks a dtype up by NumPy's name ({@code "float64"}, {@code "bool"}, also {@code "bool_"}). */
    public static DType fromName(String name) {
        String normalized = name.toLowerCase(Locale.ROOT);
        if (normalized.equals("bool_")) {
            normalized = "bool";
        }
        for (DType dtype : values()) {
            if (dtype.numpyName.equals(normalized)) {
                return dtype;
            }
        }
        throw new IllegalArgumentException("data type '" + name + "' not understood");
    }

    /** Looks a dtype up by its type code and size: ({@code 'f'}, 8) is float64. */
    public static DType fromTypeCode(char typeCode, int byteSize) {
        for (DType dtype : values()) {
            if (dtype.typeCode == typeCode && dtype.byteSize == byteSize) {
                return dtype;
            }
        }
        throw new IllegalArgumentException("data type '" + typeCode + byteSize + "' not understood");
    }

    @Override
    public String toString() { return numpyName; }
}

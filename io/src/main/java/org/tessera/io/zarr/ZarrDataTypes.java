package org.tessera.io.zarr;

import java.nio.ByteOrder;
import java.util.Locale;

import org.tessera.ndarray.dtype.DType;

/**
 * Zarr's names for Tessera's dtypes. Version 2 uses NumPy's type strings with a byte order
 * ({@code "<f8"}, {@code ">i2"}, {@code "|b1"}); version 3 uses names ({@code "float64"}) and puts
 * the byte order in the "bytes" codec. Types Tessera lacks (datetimes, strings, structured and
 * object dtypes) are refused with a ZarrFormatException naming them.
 */
public final class ZarrDataTypes {
    private ZarrDataTypes() {
    }

    /** A dtype with the byte order its elements are stored in. */
    public record StoredType(DType dtype, ByteOrder byteOrder) {
    }

    /** Parses a Zarr v2 dtype such as {@code "<f8"}; {@code where} names the array in messages. */
    public static StoredType parseVersion2(String typeString, String where) throws ZarrFormatException {
        if (typeString.length() < 3) {
            throw unsupported(typeString, where);
        }
        char orderMark = typeString.charAt(0);
        char code = typeString.charAt(1);
        int size;
        try {
            size = Integer.parseInt(typeString.substring(2));
        } catch (NumberFormatException notASize) {
            throw unsupported(typeString, where);
        }
        DType dtype;
        try {
            dtype = DType.fromTypeCode(code, size);
        } catch (IllegalArgumentException unknown) {
            throw unsupported(typeString, where);
        }
        ByteOrder byteOrder = switch (orderMark) {
            case '<', '|' -> ByteOrder.LITTLE_ENDIAN;
            case '>' -> ByteOrder.BIG_ENDIAN;
            case '=' -> ByteOrder.nativeOrder();
            default -> throw unsupported(typeString, where);
        };
        return new StoredType(dtype, byteOrder);
    }

    /** The Zarr v2 type string: {@code "|u1"} for one-byte types, else with the byte order mark. */
    public static String version2Name(DType dtype, ByteOrder byteOrder) {
        char orderMark = dtype.byteSize() == 1 ? '|' : byteOrder == ByteOrder.BIG_ENDIAN ? '>' : '<';
        return "" + orderMark + dtype.typeCode() + dtype.byteSize();
    }

    /** Parses a Zarr v3 data type name such as {@code "float64"}. */
    public static DType parseVersion3(String name, String where) throws ZarrFormatException {
        for (DType dtype : DType.values()) {
            if (dtype.numpyName().equals(name.toLowerCase(Locale.ROOT))) {
                return dtype;
            }
        }
        throw new ZarrFormatException(where + ": data type \"" + name + "\" is not supported (Tessera reads bool, int8 to int64, uint8 to uint64, "
                + "float16, float32, float64, complex64 and complex128)");
    }

    public static String version3Name(DType dtype) {
        return dtype.numpyName();
    }

    private static ZarrFormatException unsupported(String typeString, String where) {
        return new ZarrFormatException(where + ": dtype \"" + typeString + "\" is not supported (Tessera reads |b1, |i1, <i2 to <i8, |u1, <u2 to <u8, "
                + "<f2, <f4, <f8, <c8 and <c16, in either byte order)");
    }
}

package org.tessera.io.hdf5;

import java.nio.ByteOrder;

import io.jhdf.object.datatype.CompoundDataType;
import io.jhdf.object.datatype.DataType;
import io.jhdf.object.datatype.EnumDataType;
import io.jhdf.object.datatype.FixedPoint;
import io.jhdf.object.datatype.FloatingPoint;
import io.jhdf.object.datatype.OrderedDataType;
import org.tessera.ndarray.dtype.DType;

/**
 * How a dataset's elements lie in the file: the Tessera dtype they become and their byte order.
 *
 * <p>HDF5 has no boolean or complex class; h5py stores NumPy's bool as an 8-bit enum
 * {@code {FALSE: 0, TRUE: 1}} and complex numbers as a compound {@code {r, i}} of two floats, so
 * those two shapes are recognised and read as bool and complex, which is what h5py gives back.
 *
 * @param bigEndian whether each element part (a complex number has two) is stored most significant
 *                  byte first; kept as a flag because {@link ByteOrder} cannot be serialised
 */
record StoredType(DType dtype, boolean bigEndian) implements java.io.Serializable {

    /** The stored type of {@code type}, or an exception naming {@code where} and the type. */
    static StoredType of(DataType type, String where) throws Hdf5Exception {
        return switch (type) {
            case FixedPoint fixed -> new StoredType(integer(fixed, where), isBigEndian(fixed));
            case FloatingPoint floating -> new StoredType(floating(floating, where), isBigEndian(floating));
            case EnumDataType enumeration when isBoolean(enumeration) -> new StoredType(DType.BOOL, false);
            case CompoundDataType compound -> complex(compound, where);
            default -> throw new Hdf5Exception(where + " has HDF5 datatype " + type.getClass().getSimpleName() + " of " + type.getSize()
                    + " bytes, which has no Tessera dtype (integers, floats, h5py's bool enum and complex compound are read)");
        };
    }

    ByteOrder byteOrder() {
        return bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    private static DType integer(FixedPoint fixed, String where) throws Hdf5Exception {
        int size = fixed.getSize();
        if (fixed.getBitOffset() != 0 || fixed.getBitPrecision() != size * 8) {
            throw new Hdf5Exception(where + " stores integers of " + fixed.getBitPrecision() + " bits at bit offset " + fixed.getBitOffset()
                    + " in " + size + " bytes; only integers that fill their bytes are read");
        }
        return switch (size) {
            case 1 -> fixed.isSigned() ? DType.INT8 : DType.UINT8;
            case 2 -> fixed.isSigned() ? DType.INT16 : DType.UINT16;
            case 4 -> fixed.isSigned() ? DType.INT32 : DType.UINT32;
            case 8 -> fixed.isSigned() ? DType.INT64 : DType.UINT64;
            default -> throw new Hdf5Exception(where + " stores integers of " + size + " bytes; Tessera has integers of 1, 2, 4 and 8 bytes");
        };
    }

    private static DType floating(FloatingPoint floating, String where) throws Hdf5Exception {
        int size = floating.getSize();
        DType dtype = switch (size) {
            case 2 -> DType.FLOAT16;
            case 4 -> DType.FLOAT32;
            case 8 -> DType.FLOAT64;
            default -> null;
        };
        if (dtype == null || floating.getBitPrecision() != size * 8 || floating.getBitOffset() != 0) {
            throw new Hdf5Exception(where + " stores floating-point numbers of " + floating.getBitPrecision() + " bits in " + size
                    + " bytes; only IEEE float16, float32 and float64 are read");
        }
        return dtype;
    }

    private static boolean isBoolean(EnumDataType enumeration) {
        var mapping = enumeration.getEnumMapping();
        return enumeration.getSize() == 1 && mapping.size() == 2 && "FALSE".equals(mapping.get(0)) && "TRUE".equals(mapping.get(1));
    }

    private static StoredType complex(CompoundDataType compound, String where) throws Hdf5Exception {
        var members = compound.getMembers();
        if (members.size() == 2
                && members.get(0).getDataType() instanceof FloatingPoint real
                && members.get(1).getDataType() instanceof FloatingPoint imaginary
                && real.getSize() == imaginary.getSize()
                && members.get(0).getOffset() == 0 && members.get(1).getOffset() == real.getSize()
                && compound.getSize() == 2 * real.getSize()
                && isBigEndian(real) == isBigEndian(imaginary)
                && (real.getSize() == 4 || real.getSize() == 8)) {
            return new StoredType(real.getSize() == 4 ? DType.COMPLEX64 : DType.COMPLEX128, isBigEndian(real));
        }
        throw new Hdf5Exception(where + " has a compound datatype with members "
                + members.stream().map(member -> member.getName() + "@" + member.getOffset()).toList()
                + "; only h5py's complex layout (two floats of 4 or 8 bytes, real part first) is read");
    }

    private static boolean isBigEndian(OrderedDataType ordered) {
        return ordered.getByteOrder() == ByteOrder.BIG_ENDIAN;
    }
}

package org.tessera.ndarray.npy;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * The header of a {@code .npy} file: dtype, byte order, Fortran order and shape, plus where the
 * data starts. Format 1.0 has a 2-byte header length, 2.0 and 3.0 a 4-byte one; 3.0 allows UTF-8.
 */
public record NpyHeader(DType dtype, ByteOrder byteOrder, boolean fortranOrder, long[] shape, long dataOffset) {
    static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
    private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
    private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

    public NpyHeader {
        shape = shape.clone();
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NpyHeader that && dtype == that.dtype && byteOrder.equals(that.byteOrder)
                && fortranOrder == that.fortranOrder && Arrays.equals(shape, that.shape) && dataOffset == that.dataOffset;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(shape) * 31 + dtype.hashCode();
    }

    @Override
    public String toString() {
        return "NpyHeader[" + descr(dtype, byteOrder) + ", fortranOrder=" + fortranOrder + ", shape=" + Shapes.format(shape) + "]";
    }

    /**
     * Parses the dictionary text of a header; {@code source} names the file in messages. A header that
     * is malformed, or names a dtype Tessera lacks or a negative length, is an IOException.
     */
    static NpyHeader parse(String dictionary, long dataOffset, String source) throws IOException {
        Matcher descr = DESCR.matcher(dictionary);
        Matcher fortran = FORTRAN.matcher(dictionary);
        Matcher shape = SHAPE.matcher(dictionary);
        if (!descr.find() || !fortran.find() || !shape.find()) {
            throw new IOException(source + ": malformed .npy header " + dictionary.strip());
        }
        String code = descr.group(1);
        if (code.length() < 3) {
            throw new IOException(source + ": unsupported .npy dtype descr '" + code + "'");
        }
        ByteOrder order = code.charAt(0) == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        DType dtype;
        try {
            dtype = DType.fromTypeCode(code.charAt(1), Integer.parseInt(code.substring(2)));
        } catch (IllegalArgumentException e) {
            throw new IOException(source + ": unsupported .npy dtype descr '" + code + "'", e);
        }
        long[] dimensions;
        try {
            dimensions = Arrays.stream(shape.group(1).split(",")).map(String::strip).filter(part -> !part.isEmpty())
                    .mapToLong(Long::parseLong).toArray();
        } catch (NumberFormatException e) {
            throw new IOException(source + ": malformed .npy shape (" + shape.group(1) + ")", e);
        }
        if (Arrays.stream(dimensions).anyMatch(length -> length < 0)) {
            throw new IOException(source + ": negative length in the .npy shape (" + shape.group(1) + ")");
        }
        return new NpyHeader(dtype, order, fortran.group(1).equals("True"), dimensions, dataOffset);
    }

    /** The complete header bytes (magic, version, length, padded dictionary), data 64-byte aligned. */
    byte[] encode() {
        StringBuilder shapeText = new StringBuilder("(");
        for (int axis = 0; axis < shape.length; axis++) {
            shapeText.append(axis > 0 ? ", " : "").append(shape[axis]);
        }
        shapeText.append(shape.length == 1 ? ",)" : ")");
        String dictionary = "{'descr': '" + descr(dtype, byteOrder) + "', 'fortran_order': " + (fortranOrder ? "True" : "False")
                + ", 'shape': " + shapeText + ", }";
        byte[] text = dictionary.getBytes(StandardCharsets.US_ASCII);
        boolean version1 = text.length + 1 + 10 + 63 <= 65535;
        int prefix = version1 ? 10 : 12;
        int total = (prefix + text.length + 1 + 63) / 64 * 64;
        byte[] header = new byte[total];
        System.arraycopy(MAGIC, 0, header, 0, MAGIC.length);
        header[6] = (byte) (version1 ? 1 : 2);
        int length = total - prefix;
        header[8] = (byte) length;
        header[9] = (byte) (length >>> 8);
        if (!version1) {
            header[10] = (byte) (length >>> 16);
            header[11] = (byte) (length >>> 24);
        }
        System.arraycopy(text, 0, header, prefix, text.length);
        Arrays.fill(header, prefix + text.length, total - 1, (byte) ' ');
        header[total - 1] = '\n';
        return header;
    }

    static String descr(DType dtype, ByteOrder order) {
        char orderMark = dtype.byteSize() == 1 ? '|' : order == ByteOrder.BIG_ENDIAN ? '>' : '<';
        return "" + orderMark + dtype.typeCode() + dtype.byteSize();
    }
}

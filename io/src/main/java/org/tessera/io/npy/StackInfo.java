package org.tessera.io.npy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.tessera.ndarray.dtype.DType;

/**
 * The {@code info} file of a directory of .npy blocks, as Dask's {@code to_npy_stack} writes it: a
 * Python pickle of {@code {"chunks": ((...), ...), "dtype": numpy.dtype(...), "axis": n}}.
 *
 * <p>Only that shape of pickle is read and written. The reader runs a small subset of the pickle
 * machine (protocols 2 to 5: dicts, tuples, lists, strings, integers, booleans, None, memo, and the
 * {@code numpy.dtype} reconstruction); it calls nothing, so a hostile file can fail to parse but
 * cannot run code. Anything else is an IOException naming the opcode and its position.
 *
 * @param chunks per axis, the block lengths; only {@code axis} has more than one block
 */
record StackInfo(long[][] chunks, DType dtype, ByteOrder byteOrder, int axis) {

    StackInfo {
        chunks = Arrays.stream(chunks).map(long[]::clone).toArray(long[][]::new);
    }

    @Override
    public long[][] chunks() {
        return Arrays.stream(chunks).map(long[]::clone).toArray(long[][]::new);
    }

    // ---------------------------------------------------------------- writing (protocol 2, readable by every Python 3)

    byte[] toPickle() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x80);
        out.write(2);
        out.write('}');
        out.write('(');
        writeString(out, "chunks");
        out.write('(');
        for (long[] axisChunks : chunks) {
            out.write('(');
            for (long length : axisChunks) {
                writeInteger(out, BigInteger.valueOf(length));
            }
            out.write('t');
        }
        out.write('t');
        writeString(out, "dtype");
        out.writeBytes("cnumpy\ndtype\n".getBytes(StandardCharsets.US_ASCII));
        writeString(out, "" + dtype.typeCode() + dtype.byteSize());
        out.write(0x89);
        out.write(0x88);
        out.write(0x87);
        out.write('R');
        // numpy's dtype state: (version 3, byte order, subarray, names, fields, itemsize, alignment, flags).
        out.write('(');
        writeInteger(out, BigInteger.valueOf(3));
        writeString(out, dtype.byteSize() == 1 ? "|" : byteOrder == ByteOrder.BIG_ENDIAN ? ">" : "<");
        out.write('N');
        out.write('N');
        out.write('N');
        writeInteger(out, BigInteger.valueOf(-1));
        writeInteger(out, BigInteger.valueOf(-1));
        writeInteger(out, BigInteger.ZERO);
        out.write('t');
        out.write('b');
        writeString(out, "axis");
        writeInteger(out, BigInteger.valueOf(axis));
        out.write('u');
        out.write('.');
        return out.toByteArray();
    }

    private static void writeString(ByteArrayOutputStream out, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.write('X');
        writeInt32(out, bytes.length);
        out.writeBytes(bytes);
    }

    private static void writeInteger(ByteArrayOutputStream out, BigInteger value) {
        if (value.bitLength() < 32) {
            out.write('J');
            writeInt32(out, value.intValue());
            return;
        }
        byte[] bigEndian = value.toByteArray();
        out.write(0x8a);
        out.write(bigEndian.length);
        for (int position = bigEndian.length - 1; position >= 0; position--) {
            out.write(bigEndian[position]);
        }
    }

    private static void writeInt32(ByteArrayOutputStream out, int value) {
        for (int shift = 0; shift < 32; shift += 8) {
            out.write(value >>> shift);
        }
    }

    // ---------------------------------------------------------------- reading

    /** A global reference (module, name), as GLOBAL and STACK_GLOBAL push it. */
    private record Global(String module, String name) {
    }

    /** A numpy dtype under construction: REDUCE made it from its type string, BUILD gives its byte order. */
    private static final class NumpyType {
        final String typeString;
        String byteOrder = "=";

        NumpyType(String typeString) {
            this.typeString = typeString;
        }
    }

    private static final Object MARK = new Object();
    private static final Object NONE = new Object();

    static StackInfo fromPickle(byte[] bytes, String where) throws IOException {
        Map<String, Object> info = asDictionary(unpickle(bytes, where), where);
        Object chunksValue = info.get("chunks");
        Object dtypeValue = info.get("dtype");
        Object axisValue = info.get("axis");
        if (!(chunksValue instanceof List<?> axes) || !(dtypeValue instanceof NumpyType type) || !(axisValue instanceof Long axis)) {
            throw new IOException(where + ": expected a dict with \"chunks\" (a tuple of tuples), \"dtype\" (a numpy dtype) and \"axis\" (an int), got the keys " + info.keySet());
        }
        long[][] chunks = new long[axes.size()][];
        for (int position = 0; position < chunks.length; position++) {
            if (!(axes.get(position) instanceof List<?> lengths)) {
                throw new IOException(where + ": chunks of axis " + position + " are not a tuple: " + shown(axes.get(position)));
            }
            chunks[position] = new long[lengths.size()];
            for (int block = 0; block < lengths.size(); block++) {
                if (!(lengths.get(block) instanceof Long length)) {
                    throw new IOException(where + ": chunk length " + shown(lengths.get(block)) + " on axis " + position + " is not an int");
                }
                if (length < 0) {
                    throw new IOException(where + ": chunk length " + length + " on axis " + position + " is negative");
                }
                chunks[position][block] = length;
            }
        }
        String typeString = type.typeString;
        DType dtype;
        try {
            dtype = typeString.equals("?") ? DType.BOOL : DType.fromTypeCode(typeString.charAt(0), Integer.parseInt(typeString.substring(1)));
        } catch (RuntimeException unknown) {
            throw new IOException(where + ": numpy dtype '" + typeString + "' is not a Tessera dtype", unknown);
        }
        ByteOrder order = type.byteOrder.equals(">") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        if (axis < 0 || axis >= chunks.length) {
            throw new IOException(where + ": axis " + axis + " is out of bounds for chunks of " + chunks.length + " axes");
        }
        return new StackInfo(chunks, dtype, order, Math.toIntExact(axis));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asDictionary(Object value, String where) throws IOException {
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new IOException(where + ": the pickle holds " + shown(value) + ", not a dict");
    }

    private static Object unpickle(byte[] bytes, String where) throws IOException {
        List<Object> stack = new ArrayList<>();
        Map<Long, Object> memo = new java.util.HashMap<>();
        int position = 0;
        while (position < bytes.length) {
            int opcodeAt = position;
            int opcode = bytes[position++] & 0xff;
            try {
                switch (opcode) {
                    case 0x80 -> position++;
                    case 0x95 -> position += 8;
                    case '}' -> stack.add(new LinkedHashMap<>());
                    case ']' -> stack.add(new ArrayList<>());
                    case ')' -> stack.add(List.of());
                    case '(' -> stack.add(MARK);
                    case 'N' -> stack.add(NONE);
                    case 0x88 -> stack.add(Boolean.TRUE);
                    case 0x89 -> stack.add(Boolean.FALSE);
                    case 'K' -> stack.add((long) (bytes[position++] & 0xff));
                    case 'M' -> {
                        stack.add((long) ((bytes[position] & 0xff) | (bytes[position + 1] & 0xff) << 8));
                        position += 2;
                    }
                    case 'J' -> {
                        stack.add((long) readInt32(bytes, position));
                        position += 4;
                    }
                    case 0x8a, 0x8b -> {
                        int length = opcode == 0x8a ? bytes[position++] & 0xff : readInt32(bytes, position);
                        position += opcode == 0x8a ? 0 : 4;
                        requireBytes(bytes, position, length);
                        byte[] bigEndian = new byte[Math.max(length, 1)];
                        for (int index = 0; index < length; index++) {
                            bigEndian[length - 1 - index] = bytes[position + index];
                        }
                        position += length;
                        BigInteger value = length == 0 ? BigInteger.ZERO : new BigInteger(bigEndian);
                        stack.add(value.bitLength() < 64 ? (Object) value.longValue() : value);
                    }
                    case 'G' -> {
                        stack.add(Double.longBitsToDouble(new BigInteger(1, Arrays.copyOfRange(bytes, position, position + 8)).longValue()));
                        position += 8;
                    }
                    case 0x8c, 'X', 0x8d, 'U', 'C', 'B' -> {
                        int length = switch (opcode) {
                            case 0x8c, 'U', 'C' -> bytes[position++] & 0xff;
                            case 0x8d -> {
                                long wide = readInt32(bytes, position) & 0xffffffffL | (long) readInt32(bytes, position + 4) << 32;
                                position += 8;
                                yield Math.toIntExact(wide);
                            }
                            default -> {
                                int narrow = readInt32(bytes, position);
                                position += 4;
                                yield narrow;
                            }
                        };
                        requireBytes(bytes, position, length);
                        stack.add(new String(bytes, position, length, opcode == 'U' || opcode == 'C' || opcode == 'B'
                                ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8));
                        position += length;
                    }
                    case 0x85, 0x86, 0x87 -> {
                        int count = opcode - 0x84;
                        List<Object> items = new ArrayList<>(stack.subList(stack.size() - count, stack.size()));
                        stack.subList(stack.size() - count, stack.size()).clear();
                        stack.add(List.copyOf(items));
                    }
                    case 't' -> stack.add(List.copyOf(popToMark(stack)));
                    case 0x94 -> memo.put((long) memo.size(), stack.getLast());
                    case 'q' -> memo.put((long) (bytes[position++] & 0xff), stack.getLast());
                    case 'r' -> {
                        memo.put((long) readInt32(bytes, position), stack.getLast());
                        position += 4;
                    }
                    case 'h' -> stack.add(requireMemo(memo, bytes[position++] & 0xff, where));
                    case 'j' -> {
                        stack.add(requireMemo(memo, readInt32(bytes, position), where));
                        position += 4;
                    }
                    case 'c' -> {
                        int moduleEnd = indexOf(bytes, position, (byte) '\n');
                        int nameEnd = indexOf(bytes, moduleEnd + 1, (byte) '\n');
                        stack.add(new Global(new String(bytes, position, moduleEnd - position, StandardCharsets.US_ASCII),
                                new String(bytes, moduleEnd + 1, nameEnd - moduleEnd - 1, StandardCharsets.US_ASCII)));
                        position = nameEnd + 1;
                    }
                    case 0x93 -> {
                        Object name = stack.removeLast();
                        Object module = stack.removeLast();
                        stack.add(new Global((String) module, (String) name));
                    }
                    case 'R' -> {
                        Object arguments = stack.removeLast();
                        Object callable = stack.removeLast();
                        if (callable instanceof Global(String module, String name) && module.startsWith("numpy") && name.equals("dtype")
                                && arguments instanceof List<?> list && !list.isEmpty() && list.getFirst() instanceof String typeString) {
                            stack.add(new NumpyType(typeString));
                        } else {
                            throw new IOException(where + ": the pickle calls " + shown(callable) + ", which an npy stack's info file never does");
                        }
                    }
                    case 'b' -> {
                        Object state = stack.removeLast();
                        if (stack.getLast() instanceof NumpyType type && state instanceof List<?> fields && fields.size() > 1 && fields.get(1) instanceof String order) {
                            type.byteOrder = order;
                        }
                    }
                    case 's' -> {
                        Object value = stack.removeLast();
                        Object key = stack.removeLast();
                        asDictionary(stack.getLast(), where).put(String.valueOf(key), value);
                    }
                    case 'u' -> {
                        List<Object> items = popToMark(stack);
                        Map<String, Object> dictionary = asDictionary(stack.getLast(), where);
                        for (int item = 0; item + 1 < items.size(); item += 2) {
                            dictionary.put(String.valueOf(items.get(item)), items.get(item + 1));
                        }
                    }
                    case 'a' -> {
                        Object value = stack.removeLast();
                        castList(stack.getLast(), where).add(value);
                    }
                    case 'e' -> {
                        List<Object> items = popToMark(stack);
                        castList(stack.getLast(), where).addAll(items);
                    }
                    case '.' -> {
                        return stack.getLast();
                    }
                    default -> throw new IOException(where + ": pickle opcode 0x" + Integer.toHexString(opcode) + " at byte " + opcodeAt
                            + " is not supported in an npy stack's info file");
                }
            } catch (IndexOutOfBoundsException | java.util.NoSuchElementException | ClassCastException | ArithmeticException malformed) {
                throw new IOException(where + ": malformed pickle at byte " + opcodeAt + " (opcode 0x" + Integer.toHexString(opcode) + ")", malformed);
            }
        }
        throw new IOException(where + ": the pickle ends without a STOP opcode");
    }

    @SuppressWarnings("unchecked")
    private static List<Object> castList(Object value, String where) throws IOException {
        if (value instanceof ArrayList<?> list) {
            return (List<Object>) list;
        }
        throw new IOException(where + ": appending to " + shown(value) + ", which is not a list");
    }

    private static Object requireMemo(Map<Long, Object> memo, long index, String where) throws IOException {
        Object value = memo.get(index);
        if (value == null) {
            throw new IOException(where + ": the pickle refers to memo entry " + index + ", which was never stored");
        }
        return value;
    }

    private static List<Object> popToMark(List<Object> stack) {
        int mark = stack.lastIndexOf(MARK);
        if (mark < 0) {
            throw new java.util.NoSuchElementException("no MARK on the stack");
        }
        List<Object> items = new ArrayList<>(stack.subList(mark + 1, stack.size()));
        stack.subList(mark, stack.size()).clear();
        return items;
    }

    /**
     * Checks that {@code length} bytes follow {@code position}: a negative length would move the reader
     * backwards (a loop that never ends), a huge one allocate what the file does not hold.
     */
    private static void requireBytes(byte[] bytes, int position, int length) {
        if (length < 0 || length > bytes.length - position) {
            throw new IndexOutOfBoundsException("a length of " + length + " at byte " + position + " runs past the " + bytes.length + " bytes");
        }
    }

    /** A value for a message: containers by their size only, since a pickle can make a list that holds itself. */
    private static String shown(Object value) {
        return switch (value) {
            case List<?> list -> "a list of " + list.size();
            case Map<?, ?> map -> "a dict of " + map.size();
            case null -> "nothing";
            default -> String.valueOf(value);
        };
    }

    private static int readInt32(byte[] bytes, int position) {
        return (bytes[position] & 0xff) | (bytes[position + 1] & 0xff) << 8 | (bytes[position + 2] & 0xff) << 16 | (bytes[position + 3] & 0xff) << 24;
    }

    private static int indexOf(byte[] bytes, int from, byte value) {
        for (int position = from; position < bytes.length; position++) {
            if (bytes[position] == value) {
                return position;
            }
        }
        throw new IndexOutOfBoundsException("no newline after byte " + from);
    }
}

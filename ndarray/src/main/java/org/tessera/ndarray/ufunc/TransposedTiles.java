package org.tessera.ndarray.ufunc;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.kernel.VectorMath;

/**
 * The contiguous kernel over 2-D operands of which some are transposed, as in {@code x + x.T}:
 * the output and the other inputs are C-contiguous, a transposed input steps through its rows
 * element by element. Walking such an input in the output's order reads one element per cache
 * line, and the buffered path's gather of it costs three times the arithmetic. Here the shape is
 * cut into tiles of a few rows, each transposed input's tile is copied into a small buffer in the
 * output's order (its columns are contiguous runs of memory, so the copy reads whole runs), and
 * the loop's contiguous kernel runs row by row over the tile. Every element is computed by the
 * same kernel from the same values as on the other paths, so results are bit for bit the same.
 */
final class TransposedTiles {
    private TransposedTiles() {}

    /**
     * Rows of a tile. Measured on float64 2000 x 2000 {@code a + b.T} into a given output (2 cores
     * of an AVX-512 Xeon, ns per element, best of 5 runs in each of 3 JVMs, at AVX-512 and with
     * {@code -XX:UseAVX=2}): 128 x 256 tiles 2.4-3.0 and 2.5, 4 x 2048 3.7-3.9 and 3.2-3.9,
     * 64 x 512 3.2-3.3, 16 x 1024 2.9-3.6; a plain add 1.0-1.4. A transposed input's column
     * stride is a whole row (16 kB here), so each of a tile's columns starts in a page of its own;
     * a tile of few rows pays a TLB miss for every few elements it copies, one of 128 rows reads
     * 1 kB of each page. Rows of 256 elements keep the other operands' runs long enough, and the
     * tile (264 kB) in L2.
     */
    static final int TILE_ROWS = 128;

    /** Columns of a tile. */
    static final int TILE_COLUMNS = 256;

    /**
     * Runs {@code loop} and returns true when it has a contiguous kernel, one output of its dtype
     * that is C-contiguous, and inputs of its dtypes that are C-contiguous or transposed over
     * the 2-D {@code shape}, at least one transposed; otherwise does nothing and returns false.
     */
    static boolean run(Loop loop, NDArray[] inputs, NDArray[] outputs, long[] shape) {
        if (loop.contiguous() == null || outputs.length != 1 || shape.length != 2) {
            return false;
        }
        NDArray output = outputs[0];
        if (!output.isCContiguous() || output.dtype() != loop.outputs().getFirst()) {
            return false;
        }
        boolean anyTransposed = false;
        for (int i = 0; i < inputs.length; i++) {
            NDArray input = inputs[i];
            if (input.dtype() != loop.inputs().get(i) || input.ndim() != 2
                    || input.shape(0) != shape[0] || input.shape(1) != shape[1]) {
                return false;
            }
            if (isTransposed(input)) {
                anyTransposed = true;
            } else if (!input.isCContiguous()) {
                return false;
            }
        }
        if (anyTransposed) {
            runTiles(loop.contiguous(), inputs, outputs, shape[0], shape[1]);
        }
        return anyTransposed;
    }

    /**
     * Whether the elements of each column are adjacent in memory, as in the transpose of a
     * C-contiguous array or of a slice of one taking whole rows' prefixes.
     */
    private static boolean isTransposed(NDArray input) {
        return !input.isCContiguous() && input.byteStride(0) == input.dtype().byteSize();
    }

    private static void runTiles(ContiguousKernel kernel, NDArray[] inputs, NDArray[] outputs, long rows, long columns) {
        int inputCount = inputs.length;
        NDArray output = outputs[0];
        MemorySegment[] segments = new MemorySegment[inputCount + 1];
        long[] offsets = new long[inputCount + 1];
        long[][] tiles = new long[inputCount][];
        MemorySegment[] tileSegments = new MemorySegment[inputCount];
        // Small shapes get tiles of their own size: the buffers are made per call.
        int step = tileStep(columns);
        int bufferRows = (int) Math.min(TILE_ROWS, rows);
        for (int i = 0; i < inputCount; i++) {
            if (isTransposed(inputs[i])) {
                int itemSize = inputs[i].dtype().byteSize();
                tiles[i] = new long[(int) (((long) bufferRows * step * itemSize + Long.BYTES - 1) / Long.BYTES)];
                tileSegments[i] = MemorySegment.ofArray(tiles[i]);
            }
        }
        for (long rowStart = 0; rowStart < rows; rowStart += TILE_ROWS) {
            int tileRows = (int) Math.min(TILE_ROWS, rows - rowStart);
            for (long columnStart = 0; columnStart < columns; columnStart += TILE_COLUMNS) {
                int tileColumns = (int) Math.min(TILE_COLUMNS, columns - columnStart);
                for (int i = 0; i < inputCount; i++) {
                    if (tiles[i] != null) {
                        NDArray input = inputs[i];
                        long corner = input.byteOffset() + rowStart * input.byteStride(0) + columnStart * input.byteStride(1);
                        transposeTile(input.segment(), corner, input.byteStride(1), input.dtype().byteSize(),
                                tileRows, tileColumns, step, tiles[i], tileSegments[i]);
                    }
                }
                for (int row = 0; row < tileRows; row++) {
                    long element = (rowStart + row) * columns + columnStart;
                    for (int i = 0; i < inputCount; i++) {
                        NDArray input = inputs[i];
                        long itemSize = input.dtype().byteSize();
                        if (tiles[i] != null) {
                            segments[i] = tileSegments[i];
                            offsets[i] = (long) row * step * itemSize;
                        } else {
                            segments[i] = input.segment();
                            offsets[i] = input.byteOffset() + element * itemSize;
                        }
                    }
                    segments[inputCount] = output.segment();
                    offsets[inputCount] = output.byteOffset() + element * output.dtype().byteSize();
                    kernel.run(segments, offsets, tileColumns);
                }
            }
        }
    }

    /** Items from the start of one tile row to the next: eight more than a row, so that the tile's rows do not start in the same cache set. */
    static int tileStep(long columns) {
        return (int) Math.min(TILE_COLUMNS, columns) + 8;
    }

    /**
     * Copies the {@code rows} x {@code columns} elements at {@code corner} of {@code source}, whose
     * columns are contiguous runs {@code columnStride} bytes apart, into the rows of {@code tile},
     * {@code step} items apart. Bytes move as integers of the item's width, so floats keep
     * their exact bits (NaN payloads included) and one loop serves every dtype of a width.
     */
    private static void transposeTile(MemorySegment source, long corner, long columnStride, int itemSize,
                                      int rows, int columns, int step, long[] tile, MemorySegment tileSegment) {
        if (itemSize == Long.BYTES && source.heapBase().orElse(null) instanceof long[] words
                && (source.address() + corner) % Long.BYTES == 0 && columnStride % Long.BYTES == 0) {
            int base = Math.toIntExact((source.address() + corner) / Long.BYTES);
            int columnStep = Math.toIntExact(columnStride / Long.BYTES);
            // The provider transposes the corner of whole blocks of its side, the loop below the rest.
            int side = VectorMath.selected().transposeWords(words, base, columnStep, rows, columns, step, tile);
            boolean blocks = side > 0 && rows >= side && columns >= side;
            int doneRows = blocks ? rows - rows % side : 0;
            int doneColumns = blocks ? columns - columns % side : 0;
            transposeWords(words, base + doneColumns * columnStep, columnStep, rows, columns - doneColumns, step, tile, doneColumns);
            transposeWords(words, base + doneRows, columnStep, rows - doneRows, doneColumns, step, tile, doneRows * step);
            return;
        }
        long tileRowBytes = (long) step * itemSize;
        for (int column = 0; column < columns; column++) {
            long from = corner + column * columnStride;
            long to = (long) column * itemSize;
            switch (itemSize) {
                case 1 -> {
                    for (int row = 0; row < rows; row++) {
                        tileSegment.set(ValueLayout.JAVA_BYTE, to + row * tileRowBytes, source.get(ValueLayout.JAVA_BYTE, from + row));
                    }
                }
                case 2 -> {
                    for (int row = 0; row < rows; row++) {
                        tileSegment.set(SHORT, to + row * tileRowBytes, source.get(SHORT, from + row * 2L));
                    }
                }
                case 4 -> {
                    for (int row = 0; row < rows; row++) {
                        tileSegment.set(INT, to + row * tileRowBytes, source.get(INT, from + row * 4L));
                    }
                }
                case 8 -> {
                    for (int row = 0; row < rows; row++) {
                        tileSegment.set(LONG, to + row * tileRowBytes, source.get(LONG, from + row * 8L));
                    }
                }
                case 16 -> {
                    for (int row = 0; row < rows; row++) {
                        tileSegment.set(LONG, to + row * tileRowBytes, source.get(LONG, from + row * 16L));
                        tileSegment.set(LONG, to + row * tileRowBytes + 8, source.get(LONG, from + row * 16L + 8));
                    }
                }
                default -> throw new IllegalStateException("no dtype has items of " + itemSize + " bytes");
            }
        }
    }

    /**
     * The 8-byte transpose over the {@code long[]} behind heap arrays, in blocks of 4 x 4: sixteen
     * independent loads and stores per block, where an element at a time spends more on index
     * arithmetic and bounds checks than on moving data (0.55 against 0.25 ns per element in L1).
     * Element (row, column) of the source is at {@code base + row + column * columnStep}, and goes to
     * {@code tile[at + row * step + column]}. The SIMD provider's blocks of 8 x 8 (4 x 4 at AVX2)
     * in vectors take 0.35 (0.58-0.60) ns a word from blocks out of cache against this loop's 0.71-0.74.
     */
    private static void transposeWords(long[] source, int base, int columnStep, int rows, int columns, int step, long[] tile, int at) {
        int column = 0;
        for (; column + 4 <= columns; column += 4) {
            int row = 0;
            for (; row + 4 <= rows; row += 4) {
                int from = base + row + column * columnStep;
                int from1 = from + columnStep;
                int from2 = from1 + columnStep;
                int from3 = from2 + columnStep;
                long a00 = source[from], a01 = source[from + 1], a02 = source[from + 2], a03 = source[from + 3];
                long a10 = source[from1], a11 = source[from1 + 1], a12 = source[from1 + 2], a13 = source[from1 + 3];
                long a20 = source[from2], a21 = source[from2 + 1], a22 = source[from2 + 2], a23 = source[from2 + 3];
                long a30 = source[from3], a31 = source[from3 + 1], a32 = source[from3 + 2], a33 = source[from3 + 3];
                int to = at + row * step + column;
                tile[to] = a00;
                tile[to + 1] = a10;
                tile[to + 2] = a20;
                tile[to + 3] = a30;
                to += step;
                tile[to] = a01;
                tile[to + 1] = a11;
                tile[to + 2] = a21;
                tile[to + 3] = a31;
                to += step;
                tile[to] = a02;
                tile[to + 1] = a12;
                tile[to + 2] = a22;
                tile[to + 3] = a32;
                to += step;
                tile[to] = a03;
                tile[to + 1] = a13;
                tile[to + 2] = a23;
                tile[to + 3] = a33;
            }
            for (; row < rows; row++) {
                int from = base + row + column * columnStep;
                int to = at + row * step + column;
                tile[to] = source[from];
                tile[to + 1] = source[from + columnStep];
                tile[to + 2] = source[from + 2 * columnStep];
                tile[to + 3] = source[from + 3 * columnStep];
            }
        }
        for (; column < columns; column++) {
            for (int row = 0; row < rows; row++) {
                tile[at + row * step + column] = source[base + row + column * columnStep];
            }
        }
    }

    private static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
}

package org.tessera.array.render;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.tessera.array.chunks.Chunks;

/**
 * A picture of a chunk grid in SVG, the kind a notebook shows next to an array's repr: a 1-D array
 * is one row of blocks, a 2-D array a grid (rows down, columns across), a 3-D array an oblique box
 * whose first axis recedes into the page, with the grid on its front, top and right faces. Arrays of
 * more axes are drawn as several such pictures side by side, the last three axes rightmost. Each
 * axis is labelled with its length.
 *
 * <p>Every block is a filled cell, with lines on the block boundaries (thicker at the array's edges).
 * An axis of more than {@link #MAX_LINES_PER_AXIS} blocks gets a line only every few blocks, so
 * that a million blocks still give a small picture: a cell then stands for several blocks.
 *
 * <p>Lengths are not drawn to scale: the longest axis gets {@code size} pixels and an axis
 * {@code r} times shorter gets {@code size / (1 + ln r)}, so that a 10 x 100,000 array still shows
 * both axes.
 */
public final class ChunkSvg {
    /** Pixels of the longest axis unless told otherwise. */
    public static final double DEFAULT_SIZE = 200;

    /** The most boundary lines drawn along one axis (one more than the cells drawn). */
    public static final int MAX_LINES_PER_AXIS = 100;

    private static final double MARGIN = 10;
    private static final double LABEL_SPACE = 30;
    private static final double GROUP_GAP = 20;
    /** How far a unit of depth moves right and up in the oblique drawing (a cabinet projection). */
    private static final double DEPTH_SLANT = 0.5;
    private static final double SMALLEST_DRAWN_LENGTH = 4;
    /** The thickest a 1-D row is drawn, as a fraction of {@code size}. */
    private static final double ROW_THICKNESS = 0.15;

    private ChunkSvg() {
    }

    public static String render(Chunks chunks) {
        return render(chunks, DEFAULT_SIZE);
    }

    /**
     * A standalone SVG document of {@code chunks}, the longest axis {@code size} pixels long.
     *
     * @throws IllegalArgumentException for an array of 0 axes, which has no grid to draw
     * @throws org.tessera.array.chunks.UnknownChunksException when a block length is unknown
     */
    public static String render(Chunks chunks, double size) {
        long[] shape = chunks.requireKnownShape("toSvg");
        if (shape.length == 0) {
            throw new IllegalArgumentException("toSvg: an array of 0 axes (shape ()) has no chunk grid to draw");
        }
        Drawing drawing = new Drawing();
        double x = MARGIN;
        double height = 0;
        for (int[] group : axisGroups(shape.length)) {
            Frame frame = switch (group.length) {
                case 1 -> drawRow(drawing, chunks, group[0], x, size);
                case 2 -> drawGrid(drawing, chunks, group[0], group[1], x, size);
                default -> drawBox(drawing, chunks, group, x, size);
            };
            x += frame.width() + GROUP_GAP;
            height = Math.max(height, frame.height());
        }
        return drawing.document(x - GROUP_GAP + MARGIN, height + 2 * MARGIN);
    }

    /** Axes in groups of at most three, the last group holding the last three axes. */
    private static List<int[]> axisGroups(int ndim) {
        List<int[]> groups = new ArrayList<>();
        int first = ndim % 3 == 0 ? 3 : ndim % 3;
        groups.add(range(0, first));
        for (int start = first; start < ndim; start += 3) {
            groups.add(range(start, start + 3));
        }
        return groups;
    }

    private static int[] range(int from, int to) {
        int[] axes = new int[to - from];
        Arrays.setAll(axes, position -> from + position);
        return axes;
    }

    /** The width and height a picture took. */
    private record Frame(double width, double height) {
    }

    private static Frame drawRow(Drawing drawing, Chunks chunks, int axis, double left, double size) {
        long length = chunks.axisLength(axis);
        double[] drawn = drawnLengths(new long[] {1, length}, size);
        // A short vector would otherwise be drawn as a tall box; a row reads as 1-D.
        drawn[0] = Math.min(drawn[0], size * ROW_THICKNESS);
        double[] columns = boundaries(chunks.offsets(axis), drawn[1]);
        double[] rows = {0, drawn[0]};
        drawFlatGrid(drawing, left, MARGIN, rows, columns);
        drawing.text(left + drawn[1] / 2, MARGIN + drawn[0] + LABEL_SPACE * 0.6, length, 0);
        return new Frame(drawn[1], drawn[0] + LABEL_SPACE);
    }

    private static Frame drawGrid(Drawing drawing, Chunks chunks, int rowAxis, int columnAxis, double left, double size) {
        double[] drawn = drawnLengths(new long[] {chunks.axisLength(rowAxis), chunks.axisLength(columnAxis)}, size);
        double[] rows = boundaries(chunks.offsets(rowAxis), drawn[0]);
        double[] columns = boundaries(chunks.offsets(columnAxis), drawn[1]);
        drawFlatGrid(drawing, left, MARGIN, rows, columns);
        drawing.text(left + drawn[1] / 2, MARGIN + drawn[0] + LABEL_SPACE * 0.6, chunks.axisLength(columnAxis), 0);
        drawing.text(left + drawn[1] + LABEL_SPACE * 0.5, MARGIN + drawn[0] / 2, chunks.axisLength(rowAxis), -90);
        return new Frame(drawn[1] + LABEL_SPACE, drawn[0] + LABEL_SPACE);
    }

    /** Cells and boundary lines of an upright grid whose top-left corner is (left, top). */
    private static void drawFlatGrid(Drawing drawing, double left, double top, double[] rows, double[] columns) {
        for (int row = 0; row + 1 < rows.length; row++) {
            for (int column = 0; column + 1 < columns.length; column++) {
                drawing.rect(left + columns[column], top + rows[row], columns[column + 1] - columns[column], rows[row + 1] - rows[row]);
            }
        }
        for (int row = 0; row < rows.length; row++) {
            drawing.line(left, top + rows[row], left + columns[columns.length - 1], top + rows[row], isEdge(row, rows));
        }
        for (int column = 0; column < columns.length; column++) {
            drawing.line(left + columns[column], top, left + columns[column], top + rows[rows.length - 1], isEdge(column, columns));
        }
    }

    /**
     * The oblique box of three axes (depth, rows, columns): the front face is the grid of rows and
     * columns, depth runs up and to the right along the top and right faces.
     */
    private static Frame drawBox(Drawing drawing, Chunks chunks, int[] axes, double left, double size) {
        long[] shape = {chunks.axisLength(axes[0]), chunks.axisLength(axes[1]), chunks.axisLength(axes[2])};
        double[] drawn = drawnLengths(shape, size);
        double[] depths = boundaries(chunks.offsets(axes[0]), drawn[0] * DEPTH_SLANT);
        double[] rows = boundaries(chunks.offsets(axes[1]), drawn[1]);
        double[] columns = boundaries(chunks.offsets(axes[2]), drawn[2]);
        double depthRise = depths[depths.length - 1];
        double frontLeft = left + LABEL_SPACE;
        double frontTop = MARGIN + depthRise;
        double width = columns[columns.length - 1];
        double height = rows[rows.length - 1];
        drawFlatGrid(drawing, frontLeft, frontTop, rows, columns);
        // Top face: columns across, depth receding; a point (column, depth) sits at (x + depth, top - depth).
        for (int depth = 0; depth + 1 < depths.length; depth++) {
            for (int column = 0; column + 1 < columns.length; column++) {
                drawing.polygon(
                        frontLeft + columns[column] + depths[depth], frontTop - depths[depth],
                        frontLeft + columns[column + 1] + depths[depth], frontTop - depths[depth],
                        frontLeft + columns[column + 1] + depths[depth + 1], frontTop - depths[depth + 1],
                        frontLeft + columns[column] + depths[depth + 1], frontTop - depths[depth + 1]);
            }
        }
        for (int column = 0; column < columns.length; column++) {
            drawing.line(frontLeft + columns[column], frontTop, frontLeft + columns[column] + depthRise, frontTop - depthRise, isEdge(column, columns));
        }
        for (int depth = 1; depth < depths.length; depth++) {
            drawing.line(frontLeft + depths[depth], frontTop - depths[depth], frontLeft + width + depths[depth], frontTop - depths[depth], isEdge(depth, depths));
        }
        // Right face: rows down, depth receding.
        double right = frontLeft + width;
        for (int depth = 0; depth + 1 < depths.length; depth++) {
            for (int row = 0; row + 1 < rows.length; row++) {
                drawing.polygon(
                        right + depths[depth], frontTop + rows[row] - depths[depth],
                        right + depths[depth + 1], frontTop + rows[row] - depths[depth + 1],
                        right + depths[depth + 1], frontTop + rows[row + 1] - depths[depth + 1],
                        right + depths[depth], frontTop + rows[row + 1] - depths[depth]);
            }
        }
        for (int row = 0; row < rows.length; row++) {
            drawing.line(right, frontTop + rows[row], right + depthRise, frontTop + rows[row] - depthRise, isEdge(row, rows));
        }
        for (int depth = 1; depth < depths.length; depth++) {
            drawing.line(right + depths[depth], frontTop - depths[depth], right + depths[depth], frontTop + height - depths[depth], isEdge(depth, depths));
        }
        drawing.text(frontLeft + width / 2, frontTop + height + LABEL_SPACE * 0.6, shape[2], 0);
        drawing.text(frontLeft - LABEL_SPACE * 0.4, frontTop + height / 2, shape[1], -90);
        drawing.text(frontLeft + depthRise / 2 - LABEL_SPACE * 0.4, frontTop - depthRise / 2 - LABEL_SPACE * 0.2, shape[0], -45);
        return new Frame(LABEL_SPACE + width + depthRise + LABEL_SPACE * 0.3, depthRise + height + LABEL_SPACE);
    }

    private static boolean isEdge(int position, double[] boundaries) {
        return position == 0 || position == boundaries.length - 1;
    }

    /** Pixels per axis: {@code size} for the longest, {@code size / (1 + ln(longest / length))} for the others. */
    static double[] drawnLengths(long[] shape, double size) {
        long longest = Math.max(1, Arrays.stream(shape).max().orElse(1));
        double[] drawn = new double[shape.length];
        for (int axis = 0; axis < shape.length; axis++) {
            double ratio = (double) longest / Math.max(1, shape[axis]);
            drawn[axis] = Math.max(SMALLEST_DRAWN_LENGTH, size / (1 + Math.log(ratio)));
        }
        return drawn;
    }

    /**
     * Pixel positions of the drawn boundaries along an axis drawn {@code drawnLength} long: every
     * block boundary, or every k-th one when there are more than {@link #MAX_LINES_PER_AXIS}.
     */
    static double[] boundaries(long[] offsets, double drawnLength) {
        int blocks = offsets.length - 1;
        long axisLength = offsets[blocks];
        if (axisLength == 0) {
            return new double[] {0, drawnLength};
        }
        int step = Math.max(1, Math.ceilDiv(blocks, MAX_LINES_PER_AXIS - 1));
        int drawnCells = Math.ceilDiv(blocks, step);
        double[] positions = new double[drawnCells + 1];
        for (int cell = 0; cell < drawnCells; cell++) {
            positions[cell] = drawnLength * offsets[cell * step] / axisLength;
        }
        positions[drawnCells] = drawnLength;
        return positions;
    }

    /** The SVG elements of a picture, written as they are added. */
    private static final class Drawing {
        private static final String CELL_STYLE = "fill=\"#9BC4E2\" fill-opacity=\"0.8\" stroke=\"none\"";
        private final StringBuilder elements = new StringBuilder();

        void rect(double x, double y, double width, double height) {
            elements.append("  <rect x=\"").append(number(x)).append("\" y=\"").append(number(y)).append("\" width=\"").append(number(width))
                    .append("\" height=\"").append(number(height)).append("\" ").append(CELL_STYLE).append("/>\n");
        }

        void polygon(double... corners) {
            elements.append("  <polygon points=\"");
            for (int position = 0; position < corners.length; position += 2) {
                elements.append(position == 0 ? "" : " ").append(number(corners[position])).append(',').append(number(corners[position + 1]));
            }
            elements.append("\" ").append(CELL_STYLE).append("/>\n");
        }

        void line(double x1, double y1, double x2, double y2, boolean edge) {
            elements.append("  <line x1=\"").append(number(x1)).append("\" y1=\"").append(number(y1)).append("\" x2=\"").append(number(x2))
                    .append("\" y2=\"").append(number(y2)).append("\" stroke=\"#2F4F6F\" stroke-width=\"").append(edge ? "2" : "1").append("\"/>\n");
        }

        void text(double x, double y, long value, int rotationDegrees) {
            elements.append("  <text x=\"").append(number(x)).append("\" y=\"").append(number(y))
                    .append("\" font-size=\"14\" font-family=\"sans-serif\" text-anchor=\"middle\" dominant-baseline=\"middle\"");
            if (rotationDegrees != 0) {
                elements.append(" transform=\"rotate(").append(rotationDegrees).append(' ').append(number(x)).append(' ').append(number(y)).append(")\"");
            }
            elements.append('>').append(value).append("</text>\n");
        }

        String document(double width, double height) {
            return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(width) + "\" height=\"" + number(height)
                    + "\" viewBox=\"0 0 " + number(width) + " " + number(height) + "\">\n" + elements + "</svg>\n";
        }

        private static String number(double value) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
    }
}

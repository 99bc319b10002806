package org.tessera.array.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.tessera.array.ChunkedArray;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.chunks.Chunks;
import org.tessera.array.chunks.UnknownChunksException;
import org.tessera.array.creation.Creation;
import org.tessera.ndarray.dtype.DType;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The SVG is parsed as XML and its shapes counted, as a browser would read them. */
class ChunkSvgTest {
    private static final String SVG = "http://www.w3.org/2000/svg";

    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Document document = factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertEquals("svg", document.getDocumentElement().getLocalName());
        assertEquals(SVG, document.getDocumentElement().getNamespaceURI());
        return document;
    }

    static List<Element> elements(Document document, String tag) {
        NodeList nodes = document.getElementsByTagNameNS(SVG, tag);
        List<Element> elements = new ArrayList<>();
        for (int position = 0; position < nodes.getLength(); position++) {
            elements.add((Element) nodes.item(position));
        }
        return elements;
    }

    static List<String> labels(Document document) {
        return elements(document, "text").stream().map(Element::getTextContent).toList();
    }

    static double attribute(Element element, String name) {
        return Double.parseDouble(element.getAttribute(name));
    }

    /** Horizontal lines (equal y) by their y, vertical ones (equal x) by their x. */
    static TreeSet<Double> linePositions(Document document, boolean horizontal) {
        TreeSet<Double> positions = new TreeSet<>();
        for (Element line : elements(document, "line")) {
            boolean isHorizontal = attribute(line, "y1") == attribute(line, "y2");
            if (isHorizontal == horizontal) {
                positions.add(horizontal ? attribute(line, "y1") : attribute(line, "x1"));
            }
        }
        return positions;
    }

    @Test
    void aGridOfFourByThreeBlocksHasACellPerBlockAndALinePerBoundary() throws Exception {
        for (ChunkSpec spec : List.of(ChunkSpec.of(10, 10), ChunkSpec.explicit(new long[] {5, 20, 10, 5}, new long[] {1, 28, 1}))) {
            ChunkedArray x = Creation.zeros(new long[] {40, 30}, DType.FLOAT64, spec);
            Document document = parse(x.toSvg());
            assertEquals(12, elements(document, "rect").size());
            assertEquals(9, elements(document, "line").size());
            TreeSet<Double> rows = linePositions(document, true);
            TreeSet<Double> columns = linePositions(document, false);
            assertEquals(5, rows.size());
            assertEquals(4, columns.size());
            // Lines sit at the block boundaries, in proportion to the offsets.
            long[] offsets = x.chunks().offsets(0);
            double top = rows.first();
            double height = rows.last() - top;
            List<Double> ordered = new ArrayList<>(rows);
            for (int boundary = 0; boundary < offsets.length; boundary++) {
                assertEquals(height * offsets[boundary] / 40, ordered.get(boundary) - top, 0.11);
            }
            assertTrue(labels(document).containsAll(List.of("40", "30")), labels(document).toString());
        }
    }

    @Test
    void anAxisOfManyBlocksGetsFewerLines() throws Exception {
        Document document = parse(ChunkSvg.render(Chunks.regular(new long[] {5000, 30}, new long[] {2, 10})));
        int rowLines = linePositions(document, true).size();
        assertTrue(rowLines <= ChunkSvg.MAX_LINES_PER_AXIS && rowLines > 10, "lines along an axis of 2500 blocks: " + rowLines);
        assertEquals(4, linePositions(document, false).size());
        assertEquals((rowLines - 1) * 3, elements(document, "rect").size());
        assertTrue(labels(document).containsAll(List.of("5000", "30")));
    }

    @Test
    void oneAndThreeDimensionalArraysAreValidSvgWithTheirLengths() throws Exception {
        Document row = parse(Creation.arange(0, 17, 1, DType.INT64, ChunkSpec.size(5)).toSvg());
        assertEquals(4, elements(row, "rect").size());
        assertEquals(List.of("17"), labels(row));

        Document box = parse(Creation.ones(new long[] {6, 8, 10}, DType.FLOAT32, ChunkSpec.of(3, 4, 5)).toSvg());
        assertEquals(4, elements(box, "rect").size(), "the front face: rows x columns");
        assertEquals(8, elements(box, "polygon").size(), "top face depth x columns, right face depth x rows");
        assertTrue(labels(box).containsAll(List.of("6", "8", "10")), labels(box).toString());

        Document irregularBox = parse(Creation.ones(new long[] {6, 8, 10}, DType.FLOAT32, ChunkSpec.explicit(new long[] {1, 5}, new long[] {8},
                new long[] {2, 2, 6})).toSvg());
        assertEquals(3, elements(irregularBox, "rect").size());
        assertEquals(2 * 3 + 2 * 1, elements(irregularBox, "polygon").size());
    }

    @Test
    void moreAxesAreDrawnAsSeveralPictures() throws Exception {
        Document document = parse(Creation.zeros(new long[] {2, 6, 8, 10}, DType.FLOAT64, ChunkSpec.of(1, 3, 4, 5)).toSvg());
        assertTrue(labels(document).containsAll(List.of("2", "6", "8", "10")), labels(document).toString());
        assertEquals(2 + 4, elements(document, "rect").size(), "a row of 2 blocks, then the front of the box");
    }

    @Test
    void unknownLengthsAndZeroAxesCannotBeDrawn() {
        UnknownChunksException unknown = assertThrows(UnknownChunksException.class,
                () -> ChunkSvg.render(Chunks.of(new long[] {Chunks.UNKNOWN, 3})));
        assertTrue(unknown.getMessage().contains("toSvg"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ChunkSvg.render(Chunks.of()));
    }
}

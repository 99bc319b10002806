package org.tessera.array;

import java.util.Arrays;

import org.tessera.array.chunks.Chunks;
import org.tessera.array.slicing.Slicing;
import org.tessera.ndarray.conformance.Decoding;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The runner of the Dask chunk suite {@code slice_chunks}: an array of zeros with the case's shape
 * and chunks, indexed with the case's index; the shape (null where unknown) and the chunks must be
 * Dask's.
 */
final class SliceChunkCases {
    private SliceChunkCases() {
    }

    static String run(JsonNode args, JsonNode expect) {
        ChunkedArray result = Slicing.get(ChunkConformanceTest.zeros(args), Decoding.index(args.get("index")));
        JsonNode shapeNode = expect.get("shape");
        long[] expectedShape = new long[shapeNode.size()];
        for (int axis = 0; axis < expectedShape.length; axis++) {
            expectedShape[axis] = shapeNode.get(axis).isNull() ? Chunks.UNKNOWN : shapeNode.get(axis).asLong();
        }
        if (!Arrays.equals(result.shape(), expectedShape)) {
            return "shape " + Arrays.toString(result.shape()) + ", expected " + Arrays.toString(expectedShape);
        }
        Chunks expected = ChunkConformanceTest.chunks(expect.get("chunks"));
        return result.chunks().equals(expected) ? null : "chunks " + result.chunks() + ", expected " + expected;
    }
}

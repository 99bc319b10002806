package org.tessera.ndarray.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.fft.FftNorm;

/**
 * The arguments of an FFT case of the corpus, NumPy's defaults where the case leaves one out:
 * the in-memory replay and the chunked one read them alike.
 *
 * @param n    the length of a one-axis transform, or null for the axis's own
 * @param axis the axis of a one-axis transform (-1 by default)
 * @param s    the lengths of a transform over several axes, or null
 * @param axes the axes of a transform over several axes, or null
 */
public record FftArguments(NDArray x, FftNorm norm, Long n, int axis, long[] s, int[] axes) {

    public static FftArguments of(CorpusCase testCase) {
        JsonNode args = testCase.args();
        JsonNode normNode = args.get("norm");
        return new FftArguments(Decoding.array(args.get("x")),
                FftNorm.parse(normNode == null || normNode.isNull() ? null : normNode.asText()),
                args.hasNonNull("n") ? args.get("n").asLong() : null,
                args.hasNonNull("axis") ? args.get("axis").asInt() : -1,
                args.hasNonNull("s") ? Decoding.shape(args.get("s")) : null,
                args.hasNonNull("axes") ? Decoding.ints(args.get("axes")) : null);
    }
}

package org.tessera.ndarray;

import java.util.Arrays;

import com.fasterxml.jackson.databind.JsonNode;

import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.Decoding;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.fft.FftNorm;
import org.tessera.ndarray.layout.Shapes;

/**
 * Replays the fft suites of the conformance corpus on NDArray: ops fft, ifft, rfft, irfft (args x,
 * n, axis, norm) and fft2, ifft2, fftn, ifftn, rfftn, irfftn (args x, s, axes, norm), absent
 * arguments taking NumPy's defaults. Results must have NumPy's dtype and shape, and every real and
 * imaginary part must be within a tolerance times the largest modulus of NumPy's result (FORMAT.md):
 * 1e-12 for float64 and complex128, 1e-5 for float32 and complex64, 1e-3 for float16.
 */
final class FftReplay {
    private FftReplay() {
    }

    static String fft(CorpusCase testCase) {
        JsonNode args = testCase.args();
        NDArray x = Decoding.array(args.get("x"));
        JsonNode normNode = args.get("norm");
        FftNorm norm = FftNorm.parse(normNode == null || normNode.isNull() ? null : normNode.asText());
        Long n = args.hasNonNull("n") ? args.get("n").asLong() : null;
        int axis = args.hasNonNull("axis") ? args.get("axis").asInt() : -1;
        long[] s = args.hasNonNull("s") ? Decoding.shape(args.get("s")) : null;
        int[] axes = args.hasNonNull("axes") ? Decoding.ints(args.get("axes")) : null;
        NDArray result = switch (testCase.op()) {
            case "fft" -> NDArrays.fft(x, n, axis, norm);
            case "ifft" -> NDArrays.ifft(x, n, axis, norm);
            case "rfft" -> NDArrays.rfft(x, n, axis, norm);
            case "irfft" -> NDArrays.irfft(x, n, axis, norm);
            case "fft2" -> NDArrays.fft2(x, s, axes, norm);
            case "ifft2" -> NDArrays.ifft2(x, s, axes, norm);
            case "fftn" -> NDArrays.fftn(x, s, axes, norm);
            case "ifftn" -> NDArrays.ifftn(x, s, axes, norm);
            case "rfftn" -> NDArrays.rfftn(x, s, axes, norm);
            case "irfftn" -> NDArrays.irfftn(x, s, axes, norm);
            default -> throw new IllegalStateException("unknown op " + testCase.op() + " in " + testCase.id());
        };
        return testCase.expectedError() != null ? null : mismatch(testCase.expect().get("array"), result);
    }

    /** The first difference beyond the tolerance relative to the largest modulus, or null. */
    static String mismatch(JsonNode expectedNode, NDArray actual) {
        NDArray expected = Decoding.array(expectedNode);
        if (expected.dtype() != actual.dtype()) {
            return "dtype " + actual.dtype() + ", expected " + expected.dtype();
        }
        if (!Arrays.equals(expected.shape(), actual.shape())) {
            return "shape " + Shapes.format(actual.shape()) + ", expected " + Shapes.format(expected.shape());
        }
        double tolerance = switch (expected.dtype().realType()) {
            case FLOAT16 -> 1e-3;
            case FLOAT32 -> 1e-5;
            default -> 1e-12;
        };
        NDArray expectedFlat = expected.reshape(expected.size());
        NDArray actualFlat = actual.copy().reshape(actual.size());
        boolean complex = expected.dtype().isComplex();
        double largest = 0;
        for (long i = 0; i < expected.size(); i++) {
            double modulus = complex ? Math.hypot(expectedFlat.getComplex(i).real(), expectedFlat.getComplex(i).imag())
                    : Math.abs(expectedFlat.getDouble(i));
            largest = Double.isNaN(modulus) ? largest : Math.max(largest, modulus);
        }
        double allowed = tolerance * (largest == 0 ? 1.0 : largest);
        for (long i = 0; i < expected.size(); i++) {
            boolean close = complex
                    ? close(expectedFlat.getComplex(i).real(), actualFlat.getComplex(i).real(), allowed)
                            && close(expectedFlat.getComplex(i).imag(), actualFlat.getComplex(i).imag(), allowed)
                    : close(expectedFlat.getDouble(i), actualFlat.getDouble(i), allowed);
            if (!close) {
                return "flat element " + i + " is " + actualFlat.take(0, i).item() + ", expected " + expectedFlat.take(0, i).item()
                        + " (allowed difference " + allowed + ", dtype " + DType.fromName(expected.dtype().numpyName()) + ")";
            }
        }
        return null;
    }

    private static boolean close(double expected, double actual, double allowed) {
        if (Double.isNaN(expected) || Double.isNaN(actual)) {
            return Double.isNaN(expected) && Double.isNaN(actual);
        }
        return expected == actual || Math.abs(expected - actual) <= allowed;
    }
}

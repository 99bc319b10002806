package org.tessera.ndarray;



import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.FftArguments;
import org.tessera.ndarray.fft.FftNorm;

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
        FftArguments args = FftArguments.of(testCase);
        NDArray x = args.x();
        FftNorm norm = args.norm();
        Long n = args.n();
        int axis = args.axis();
        long[] s = args.s();
        int[] axes = args.axes();
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
        return testCase.expectedError() != null ? null : Comparison.mismatchRelativeToLargest(testCase.expect().get("array"), result);
    }
}

package org.tessera.array;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.tessera.array.chunks.ChunkSpec;
import org.tessera.array.creation.Creation;
import org.tessera.array.fft.ChunkedFft;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.conformance.Comparison;
import org.tessera.ndarray.conformance.Corpus;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.FftArguments;
import org.tessera.ndarray.fft.FftNorm;


/**
 * Every case of NumPy's fft suite (conformance/fft.jsonl: powers of two, primes, products of small
 * primes, n and s cropping and padding, every norm, axes, dtypes and errors), replayed through
 * chunked arrays in the three chunkings of {@link ChunkedReplayTest} (blocks of 1, regular blocks
 * of 2, irregular blocks 1, 2, 1, 2, ...): a transformed axis of several blocks goes through the
 * four-step decomposition or, for a prime length, whole lines, so every path across blocks meets
 * NumPy's golden results, within FORMAT.md's tolerances, and raises where NumPy raised. A fourth
 * replay cuts the task memory to 8 KiB, so that long prime lengths go through Bluestein's algorithm
 * across blocks instead of whole lines.
 */
class ChunkedFftReplayTest {
    private static final SynchronousScheduler SCHEDULER = new SynchronousScheduler();

    private static final Map<String, Function<long[], ChunkSpec>> CHUNKINGS = Map.of(
            "blocks of 1", shape -> ChunkSpec.size(1),
            "regular blocks of 2", shape -> ChunkSpec.size(2),
            "irregular blocks", ChunkedReplayTest::irregular);

    /**
     * A task memory limit of 8 KiB: blocks of 128 complex128 values (256 complex64), so a prime
     * length above that (131 ... 4099) goes through Bluestein's algorithm across blocks, and a
     * composite one with no split into two factors of at most 128 (2 x 1009) too.
     */
    private static final long SMALL_TASKS = 8 << 10;

    @TestFactory
    Stream<DynamicTest> fftSuiteThroughChunkedArrays() {
        List<CorpusCase> cases = Corpus.load(Corpus.directory()).get("fft");
        Stream<DynamicTest> chunkings = CHUNKINGS.entrySet().stream().map(chunking -> DynamicTest.dynamicTest("fft, " + chunking.getKey(),
                () -> ChunkedReplay.replay(cases, testCase -> fft(testCase, chunking.getValue(), ChunkedFft.DEFAULT_TASK_MEMORY_BYTES),
                        "fft " + chunking.getKey())));
        String small = "regular blocks of 2, tasks of at most " + SMALL_TASKS + " bytes";
        return Stream.concat(chunkings, Stream.of(DynamicTest.dynamicTest("fft, " + small,
                () -> ChunkedReplay.replay(cases, testCase -> fft(testCase, shape -> ChunkSpec.size(2), SMALL_TASKS), "fft " + small))));
    }

    private static String fft(CorpusCase testCase, Function<long[], ChunkSpec> chunking, long taskMemoryBytes) {
        FftArguments args = FftArguments.of(testCase);
        ChunkedArray x = Creation.fromSource(RegionSource.of(args.x()), chunking.apply(args.x().shape()));
        FftNorm norm = args.norm();
        Long n = args.n();
        int axis = args.axis();
        long[] s = args.s();
        int[] axes = args.axes();
        ChunkedArray result = switch (testCase.op()) {
            case "fft" -> ChunkedFft.fft(x, n, axis, norm, taskMemoryBytes);
            case "ifft" -> ChunkedFft.ifft(x, n, axis, norm, taskMemoryBytes);
            case "rfft" -> ChunkedFft.rfft(x, n, axis, norm, taskMemoryBytes);
            case "irfft" -> ChunkedFft.irfft(x, n, axis, norm, taskMemoryBytes);
            case "fft2" -> ChunkedFft.fft2(x, s, axes, norm, taskMemoryBytes);
            case "ifft2" -> ChunkedFft.ifft2(x, s, axes, norm, taskMemoryBytes);
            case "fftn" -> ChunkedFft.fftn(x, s, axes, norm, taskMemoryBytes);
            case "ifftn" -> ChunkedFft.ifftn(x, s, axes, norm, taskMemoryBytes);
            case "rfftn" -> ChunkedFft.rfftn(x, s, axes, norm, taskMemoryBytes);
            case "irfftn" -> ChunkedFft.irfftn(x, s, axes, norm, taskMemoryBytes);
            default -> throw new IllegalStateException("unknown op " + testCase.op() + " in " + testCase.id());
        };
        NDArray actual = result.compute(SCHEDULER);
        return testCase.expectedError() != null ? null : Comparison.mismatchRelativeToLargest(testCase.expect().get("array"), actual);
    }
}

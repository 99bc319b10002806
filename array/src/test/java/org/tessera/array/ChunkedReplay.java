package org.tessera.array;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.tessera.graph.schedule.TaskFailedException;
import org.tessera.ndarray.conformance.CorpusCase;
import org.tessera.ndarray.conformance.ErrorCategories;

/** The replay loop the chunked replays of NumPy suites share: every case runs, failures are listed. */
final class ChunkedReplay {
    private ChunkedReplay() {
    }

    /**
     * Runs {@code runner} on every case (it returns a mismatch or null), prints {@code chunked replay
     * LABEL: N passed, N failed} and fails with the first twenty failures. A case that expects an
     * error passes when the error, or the cause a failed task wraps, falls in the expected category.
     */
    static void replay(List<CorpusCase> cases, Function<CorpusCase, String> runner, String label) {
        if (cases == null || cases.isEmpty()) {
            fail("the corpus has no cases for " + label);
        }
        int passed = 0;
        List<String> failures = new ArrayList<>();
        for (CorpusCase testCase : cases) {
            String expectedError = testCase.expectedError();
            String mismatch;
            try {
                mismatch = runner.apply(testCase);
                if (expectedError != null) {
                    mismatch = "expected " + expectedError + " but it succeeded";
                }
            } catch (RuntimeException thrown) {
                RuntimeException cause = thrown instanceof TaskFailedException && thrown.getCause() instanceof RuntimeException inner ? inner : thrown;
                mismatch = expectedError != null && ErrorCategories.matches(expectedError, cause) ? null
                        : (expectedError == null ? "unexpected " : "expected " + expectedError + " but got ") + cause;
            }
            if (mismatch == null) {
                passed++;
            } else {
                failures.add(testCase.id() + ": " + mismatch);
            }
        }
        System.out.println("chunked replay " + label + ": " + passed + " passed, " + failures.size() + " failed");
        if (!failures.isEmpty()) {
            fail(failures.size() + " of " + cases.size() + " cases failed (" + label + "), the first:\n  "
                    + String.join("\n  ", failures.subList(0, Math.min(20, failures.size()))));
        }
    }
}

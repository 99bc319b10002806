package org.tessera.ndarray.conformance;

import com.fasterxml.jackson.databind.JsonNode;

/** One golden case of the conformance corpus (see conformance/FORMAT.md). */
public record CorpusCase(String id, String suite, String op, JsonNode args, JsonNode expect) {

    /** The NumPy error category the case expects, or null when it expects a result. */
    public String expectedError() {
        JsonNode error = expect.get("error");
        return error == null ? null : error.asText();
    }
}

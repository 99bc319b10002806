package org.tessera.ndarray.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The cases of a NumPy-made fixture file on the test class path: {@code {"numpy": version, "cases": [...]}}. */
public final class FixtureFile {
    private FixtureFile() {}

    public static List<JsonNode> cases(String resource) {
        try (InputStream input = FixtureFile.class.getResourceAsStream(resource)) {
            if (input == null) {
                throw new IllegalStateException("fixture " + resource + " is not on the test class path");
            }
            List<JsonNode> cases = new ArrayList<>();
            new ObjectMapper().readTree(input).get("cases").forEach(cases::add);
            return cases;
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read fixture " + resource, failure);
        }
    }
}

package org.tessera.ndarray.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The conformance corpus on disk: every {@code *.jsonl} file of a directory, one suite per file.
 * The directory is the repository's own {@code conformance} folder unless the system property
 * {@code tessera.conformance.dir} names another (the build sets it; a test run from a module's folder
 * without it finds the folder one level up).
 */
public final class Corpus {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Corpus() {}

    public static Path directory() {
        String configured = System.getProperty("tessera.conformance.dir");
        Path directory = configured != null && !configured.isBlank() ? Path.of(configured) : Path.of("../conformance");
        if (!Files.isDirectory(directory)) {
            throw new IllegalStateException("conformance corpus not found at " + directory.toAbsolutePath()
                    + " (set -Dtessera.conformance.dir=DIR)");
        }
        return directory;
    }

    /** Suite name to its cases, suites in name order, cases in file order. */
    public static Map<String, List<CorpusCase>> load(Path directory) {
        Map<String, List<CorpusCase>> suites = new TreeMap<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(path -> path.getFileName().toString().endsWith(".jsonl")).toList()) {
                String suite = file.getFileName().toString().replaceFirst("\\.jsonl$", "");
                List<CorpusCase> cases = new ArrayList<>();
                for (String line : Files.readAllLines(file)) {
                    if (line.isBlank()) {
                        continue;
                    }
                    JsonNode node = MAPPER.readTree(line);
                    cases.add(new CorpusCase(node.get("id").asText(), suite, node.get("op").asText(), node.get("args"), node.get("expect")));
                }
                suites.put(suite, cases);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the conformance corpus at " + directory, e);
        }
        return suites;
    }
}

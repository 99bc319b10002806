package org.tessera.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The module's packages import only downwards: plan and serialization are leaves, lowering builds
 * on both, events on plan and lowering, the facade (org.tessera.spark) on everything. The plan
 * knows nothing of Spark, so the decisions Tessera makes are testable without a Spark context.
 */
class PackageLayeringTest {
    private static final Map<String, Set<String>> ALLOWED = Map.of(
            "plan", Set.of(),
            "serialization", Set.of(),
            "lowering", Set.of("plan", "serialization"),
            "events", Set.of("plan", "lowering"),
            "", Set.of("plan", "serialization", "lowering", "events"));
    private static final Pattern SPARK_MODULE_IMPORT = Pattern.compile("^import (?:static )?org\\.tessera\\.spark((?:\\.[a-z]+)?)\\.[A-Z]", Pattern.MULTILINE);
    private static final Pattern APACHE_SPARK_IMPORT = Pattern.compile("^import (?:static )?(org\\.apache\\.spark|scala)\\.", Pattern.MULTILINE);

    @Test
    void packagesImportOnlyTheTiersBelowThem() throws IOException {
        Path sources = Path.of("src/main/java/org/tessera/spark");
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                String tier = sources.relativize(file.getParent()).toString().replace('/', '.');
                String text = Files.readString(file);
                Matcher matcher = SPARK_MODULE_IMPORT.matcher(text);
                while (matcher.find()) {
                    String imported = matcher.group(1).isEmpty() ? "" : matcher.group(1).substring(1);
                    if (!imported.equals(tier) && !ALLOWED.getOrDefault(tier, Set.of()).contains(imported)) {
                        violations.add(file + " imports org.tessera.spark" + matcher.group(1));
                    }
                }
                if (tier.equals("plan") && APACHE_SPARK_IMPORT.matcher(text).find()) {
                    violations.add(file + " imports Spark, but the plan must not");
                }
            }
        }
        assertEquals(List.of(), violations);
    }
}

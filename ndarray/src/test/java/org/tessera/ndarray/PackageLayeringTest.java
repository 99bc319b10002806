package org.tessera.ndarray;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Keeps the package tiers of the ndarray module (STYLE.md): leaves import only leaves, the core
 * imports only leaves, operations import the core and leaves, and only the facade sees everything.
 * Nothing imports upward.
 */
class PackageLayeringTest {
    private static final String ROOT = "org.tessera.ndarray";

    private enum Tier { LEAF, CORE, OPERATION, FACADE }

    private static final Map<String, Tier> TIERS = Map.ofEntries(
            Map.entry("dtype", Tier.LEAF), Map.entry("layout", Tier.LEAF), Map.entry("memory", Tier.LEAF),
            Map.entry("kernel", Tier.LEAF), Map.entry("error", Tier.LEAF), Map.entry("iteration", Tier.LEAF),
            Map.entry("format", Tier.LEAF), Map.entry("parallel", Tier.LEAF),
            Map.entry("blas", Tier.LEAF), Map.entry("linalg", Tier.OPERATION), Map.entry("sort", Tier.OPERATION),
            Map.entry("decomposition", Tier.OPERATION), Map.entry("filter", Tier.OPERATION), Map.entry("fft", Tier.OPERATION),
            Map.entry("", Tier.CORE),
            Map.entry("index", Tier.OPERATION), Map.entry("join", Tier.OPERATION), Map.entry("npy", Tier.OPERATION),
            Map.entry("ufunc", Tier.OPERATION),
            Map.entry("api", Tier.FACADE));

    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?org\\.tessera\\.ndarray\\.?([a-z]*)[.;]", Pattern.MULTILINE);

    @Test
    void noPackageImportsAboveItsTier() throws IOException {
        Path sources = Path.of("src/main/java/org/tessera/ndarray");
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                String relative = sources.relativize(file.getParent()).toString().replace('/', '.');
                Tier own = tierOf(relative, file);
                Matcher imports = IMPORT.matcher(Files.readString(file));
                while (imports.find()) {
                    String imported = imports.group(1);
                    if (!allowed(own, relative, imported, tierOf(imported, file))) {
                        violations.add(file + " (" + own + ") imports " + ROOT + (imported.isEmpty() ? "" : "." + imported));
                    }
                }
            }
        }
        assertEquals(List.of(), violations);
    }

    private static Tier tierOf(String packageSuffix, Path file) {
        Tier tier = TIERS.get(packageSuffix);
        if (tier == null) {
            throw new AssertionError("package " + ROOT + "." + packageSuffix + " (of " + file + ") has no tier in PackageLayeringTest");
        }
        return tier;
    }

    private static boolean allowed(Tier own, String ownPackage, String importedPackage, Tier imported) {
        if (ownPackage.equals(importedPackage)) {
            return true;
        }
        return switch (own) {
            case LEAF, CORE -> imported == Tier.LEAF;
            case OPERATION -> imported == Tier.LEAF || imported == Tier.CORE;
            case FACADE -> true;
        };
    }
}

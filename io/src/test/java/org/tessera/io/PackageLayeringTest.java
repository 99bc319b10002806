package org.tessera.io;

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
 * The module's packages import only downwards: the leaves (store, codec) import no other io
 * package, the core (org.tessera.io) imports only leaves, and the formats (zarr, npy, hdf5) import the
 * core and the leaves but not each other.
 */
class PackageLayeringTest {
    private static final Map<String, Set<String>> ALLOWED = Map.of(
            "store", Set.of(),
            "codec", Set.of(),
            "", Set.of("store", "codec"),
            "zarr", Set.of("", "store", "codec"),
            "npy", Set.of("", "store", "codec"),
            "hdf5", Set.of("", "store", "codec"));
    private static final Pattern IO_IMPORT = Pattern.compile("^import (?:static )?org\\.tessera\\.io((?:\\.[a-z]+)?)\\.[A-Z]", Pattern.MULTILINE);

    @Test
    void packagesImportOnlyTheTiersBelowThem() throws IOException {
        Path sources = Path.of("src/main/java/org/tessera/io");
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                Path relative = sources.relativize(file.getParent());
                String tier = relative.toString().replace('/', '.');
                String text = Files.readString(file);
                Matcher matcher = IO_IMPORT.matcher(text);
                while (matcher.find()) {
                    String imported = matcher.group(1).isEmpty() ? "" : matcher.group(1).substring(1);
                    if (!imported.equals(tier) && !ALLOWED.getOrDefault(tier, Set.of()).contains(imported)) {
                        violations.add(file + " imports org.tessera.io" + matcher.group(1));
                    }
                }
            }
        }
        assertEquals(List.of(), violations);
    }
}

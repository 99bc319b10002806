package org.tessera.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * A clone of the repository with nothing beside it builds, tests and benchmarks: no file of the
 * project names a folder outside it, and every project path the README gives to a command exists.
 */
class RepositoryStandsAloneTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** Text files of the project, without build outputs and Git's own folder. */
    private static List<Path> projectTextFiles() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(Files::isRegularFile)
                    .filter(file -> {
                        Path relative = ROOT.relativize(file);
                        for (Path part : relative) {
                            String name = part.toString();
                            if (name.equals(".git") || name.equals("target")) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .filter(file -> file.getFileName().toString().matches(".*\\.(java|md|py|xml|jsh|properties|sh)|tessera|run"))
                    .toList();
        }
    }

    @Test
    void noFileOfTheProjectReadsTheFolderBesideIt() throws IOException {
        // Built from parts, so that this file does not name what it looks for.
        String outside = ".." + "/shared";
        List<String> found = new ArrayList<>();
        for (Path file : projectTextFiles()) {
            String text;
            try {
                text = Files.readString(file, StandardCharsets.UTF_8);
            } catch (MalformedInputException binary) {
                continue;
            }
            if (text.contains(outside)) {
                found.add(ROOT.relativize(file).toString());
            }
        }
        assertEquals(List.of(), found, "files that name " + outside + ", which a clone of the repository does not have");
    }

    @Test
    void everyScriptAndFolderTheReadmeRunsIsInTheRepository() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        Matcher paths = Pattern.compile("(?:python3|cat|ls) ((?:bench|conformance|docs)/[\\w./-]+)").matcher(readme);
        int checked = 0;
        while (paths.find()) {
            assertTrue(Files.exists(ROOT.resolve(paths.group(1))), "README runs " + paths.group(1) + ", which the repository lacks");
            checked++;
        }
        assertTrue(checked >= 2, "the README names its benchmark anchors (found " + checked + " paths)");
        assertTrue(Files.isRegularFile(ROOT.resolve("conformance/FORMAT.md")), "the conformance corpus is carried in the repository");
    }
}

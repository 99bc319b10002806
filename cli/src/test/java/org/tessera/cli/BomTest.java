package org.tessera.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** The bill of materials users import names every library module, at the build's version, and every jar a module name. */
class BomTest {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    /** Modules that are programs, not libraries a user depends on. */
    private static final Set<String> PROGRAMS = Set.of("cli", "bench", "bom");

    @Test
    void theBomNamesEveryLibraryModuleAtTheBuildsVersion() throws IOException {
        String parent = Files.readString(ROOT.resolve("pom.xml"));
        String bom = Files.readString(ROOT.resolve("bom/pom.xml"));
        assertEquals(firstVersion(parent), firstVersion(bom), "the BOM's version moves with the parent's");
        Set<String> expected = new TreeSet<>();
        Set<String> moduleNames = new TreeSet<>();
        List<String> unnamed = new ArrayList<>();
        Matcher modules = Pattern.compile("<module>([\\w-]+)</module>").matcher(parent);
        while (modules.find()) {
            String module = modules.group(1);
            if (PROGRAMS.contains(module)) {
                continue;
            }
            expected.add("tessera-" + module);
            Matcher name = Pattern.compile("<tessera.module.name>([\\w.]+)</tessera.module.name>").matcher(Files.readString(ROOT.resolve(module).resolve("pom.xml")));
            if (name.find()) {
                assertTrue(moduleNames.add(name.group(1)), "module name " + name.group(1) + " used twice");
            } else {
                unnamed.add(module);
            }
        }
        Set<String> listed = new TreeSet<>();
        Matcher artifacts = Pattern.compile("<artifactId>(tessera-[\\w-]+)</artifactId>").matcher(bom);
        while (artifacts.find()) {
            listed.add(artifacts.group(1));
        }
        listed.remove("tessera-bom");
        assertEquals(expected, listed, "artifacts in bom/pom.xml");
        assertEquals(List.of(), unnamed, "modules without tessera.module.name (their jars' Automatic-Module-Name)");
    }

    private static String firstVersion(String pom) {
        Matcher version = Pattern.compile("<version>([^<]+)</version>").matcher(pom);
        assertTrue(version.find());
        return version.group(1);
    }
}

package org.tessera.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
    @Test
    void computesTheStatisticsOfTheStoredMatrixAndLeavesTheDiagramAndProfile(@TempDir Path directory) throws IOException {
        CommandLineRun run = CommandLineRun.of("demo", "--size", "8MB", "--dir", directory.toString(), "--quiet");
        assertEquals(0, run.status(), run.out() + run.err());
        assertTrue(run.out().startsWith("A: 1,000 x 1,000 float64 (8.00 MB) in blocks of 1,000 rows"), run.out());
        assertTrue(run.out().contains("mean of column stds = 0.28"), run.out());
        assertTrue(run.out().contains(": ok\n"), run.out());
        Matcher figures = Pattern.compile("compute  [0-9.]+ s: ([0-9.]+) GFLOP/s").matcher(run.out());
        assertTrue(figures.find(), run.out());
        assertTrue(Double.parseDouble(figures.group(1)) > 0, run.out());
        assertTrue(run.out().contains("peak memory "), run.out());
        assertTrue(Files.readString(directory.resolve("A.svg")).startsWith("<svg"));
        String trace = Files.readString(directory.resolve("profile.json"));
        assertTrue(trace.startsWith("{\"traceEvents\":[") && trace.contains("random-store") && trace.contains("read"), trace.substring(0, 200));
        assertFalse(Files.exists(directory.resolve("A.zarr")), "the store is deleted without --keep");
        assertTrue(run.out().contains("store    deleted (--keep keeps it)"), run.out());
    }

    @Test
    void keepsTheStoreWhenAskedAndItDescribesItself(@TempDir Path directory) {
        CommandLineRun demo = CommandLineRun.of("demo", "--size", "2MB", "--dir", directory.toString(), "--keep", "--quiet");
        assertEquals(0, demo.status(), demo.err());
        CommandLineRun again = CommandLineRun.of("demo", "--size", "2MB", "--dir", directory.toString(), "--keep", "--quiet");
        assertTrue(again.out().contains("write    none: the store kept in " + directory + " already holds A"), again.out());
        assertEquals(checksumLine(demo), checksumLine(again));
        CommandLineRun info = CommandLineRun.of("info", directory.resolve("A.zarr").toString());
        assertEquals(0, info.status(), info.err());
        assertTrue(info.out().contains("shape       (250, 1000)"), info.out());
        assertTrue(info.out().contains("compressor  none"), info.out());
    }

    @Test
    void aLocalStoreHoldsAWhileTheDiagramAndProfileGoToDir(@TempDir Path directory) {
        Path store = directory.resolve("data/nested");
        Path files = directory.resolve("files");
        CommandLineRun run = CommandLineRun.of("demo", "--size", "1MB", "--store", store.toString(), "--dir", files.toString(), "--keep", "-q");
        assertEquals(0, run.status(), run.out() + run.err());
        assertTrue(run.out().contains("Zarr v2 in " + store + ";"), run.out());
        assertTrue(Files.isRegularFile(store.resolve("A.zarr/.zarray")), "A is in the --store directory");
        assertTrue(Files.isRegularFile(files.resolve("A.svg")) && Files.isRegularFile(files.resolve("profile.json")), "the diagram and profile are in --dir");
        assertFalse(Files.exists(files.resolve("A.zarr")));
        assertTrue(run.out().contains("store    " + store.resolve("A.zarr") + " (kept)"), run.out());
    }

    @Test
    void refusesAnUnknownScheduler() {
        CommandLineRun run = CommandLineRun.of("demo", "--scheduler", "dask");
        assertEquals(2, run.status());
        assertEquals("unknown scheduler 'dask'; expected threads or spark", run.firstErrorLine());
    }

    @Test
    void theChecksumOfAGivenSizeIsReproducible(@TempDir Path directory) {
        String first = checksumLine(CommandLineRun.of("demo", "--size", "1MB", "--dir", directory.resolve("one").toString(), "-q"));
        String second = checksumLine(CommandLineRun.of("demo", "--size", "1MB", "--dir", directory.resolve("two").toString(), "-q"));
        assertEquals(first, second);
    }

    @Test
    void servesTheDashboardAndSavesItsPageBesideTheProfile(@TempDir Path directory) throws IOException {
        CommandLineRun run = CommandLineRun.of("demo", "--size", "4MB", "--dir", directory.toString(), "--quiet", "--dashboard", "0");
        assertEquals(0, run.status(), run.out() + run.err());
        assertTrue(Pattern.compile("(?m)^dashboard http://127\\.0\\.0\\.1:\\d+/$").matcher(run.out()).find(), run.out());
        Path page = directory.resolve("dashboard.html");
        assertTrue(run.out().contains("dashboard " + page + " (the page as it ended, one file)"), run.out());
        String saved = Files.readString(page);
        // Both computations, the write and the statistics, with every task done and the store's bytes counted.
        assertTrue(saved.contains("\"state\":\"finished\",\"computations\":2,"), saved.substring(0, 2000));
        Matcher counts = Pattern.compile("\"total\":(\\d+),\"done\":(\\d+),\"failed\":0").matcher(saved);
        assertTrue(counts.find(), saved.substring(0, 2000));
        assertEquals(counts.group(1), counts.group(2));
        Matcher written = Pattern.compile("\"written\":(\\d+)").matcher(saved);
        assertTrue(written.find() && Long.parseLong(written.group(1)) >= 4_000_000, saved.substring(0, 2000));
    }

    @Test
    void plansItsMemoryAndMeasuresWithinThePlan(@TempDir Path directory) throws IOException {
        CommandLineRun run = CommandLineRun.of("demo", "--size", "64MB", "--memory", "400MB", "--dir", directory.toString(), "--quiet");
        assertEquals(0, run.status(), run.out() + run.err());
        Matcher memory = Pattern.compile("memory   projected peak ([0-9.]+) (kB|MB|GB) \\(largest task [^)]+\\), measured ([0-9.]+) (kB|MB|GB) "
                + "\\(([0-9.]+) of the projection\\); budget 400 MB").matcher(run.out());
        assertTrue(memory.find(), run.out());
        double ratio = Double.parseDouble(memory.group(5));
        assertTrue(ratio > 0 && ratio <= 1, run.out());
        String page = Files.readString(directory.resolve("plan.html"));
        assertTrue(page.contains("<svg") && page.contains("<table class=\"tessera-plan\">") && page.contains("std-chunk"), page);
    }

    @Test
    void refusesAComputationWhoseLargestTaskExceedsTheBudget(@TempDir Path directory) {
        CommandLineRun run = CommandLineRun.of("demo", "--size", "64MB", "--memory", "1MB", "--dir", directory.toString(), "--quiet");
        assertEquals(1, run.status(), run.out() + run.err());
        assertTrue((run.out() + run.err()).contains("does not fit the memory budget of 976.6 KiB"), run.out() + run.err());
    }

    @Test
    void refusesASizeTooSmallForOneBlock() {
        CommandLineRun run = CommandLineRun.of("demo", "--size", "10kB");
        assertEquals(2, run.status());
        assertEquals("--size must be at least 1.00 MB, got 10.0 kB", run.firstErrorLine());
    }

    private static String checksumLine(CommandLineRun run) {
        return run.out().lines().filter(line -> line.startsWith("checksum")).findFirst().orElseThrow(() -> new AssertionError(run.out() + run.err()));
    }
}

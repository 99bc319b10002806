package org.tessera.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class MainTest {
    @Test
    void helpListsEveryCommandAndExitsZero() {
        CommandLineRun run = CommandLineRun.of("--help");
        assertEquals(0, run.status());
        for (String command : new String[] {"demo", "info", "bench", "shell"}) {
            assertTrue(run.out().contains("  " + command + " "), "help lists " + command + ":\n" + run.out());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo", "info", "bench", "shell"})
    void everyCommandHasHelp(String command) {
        CommandLineRun run = CommandLineRun.of(command, "--help");
        assertEquals(0, run.status());
        assertTrue(run.out().contains("Usage: tessera " + command + " [-h"), run.out());
        assertEquals("", run.err());
    }

    @Test
    void noCommandIsAUsageError() {
        CommandLineRun run = CommandLineRun.of();
        assertEquals(2, run.status());
        assertEquals("a command is needed: demo, info, bench or shell", run.firstErrorLine());
        assertTrue(run.err().contains("Usage: tessera"), run.err());
    }

    @Test
    void anUnknownCommandGetsOneLineThenTheUsage() {
        CommandLineRun run = CommandLineRun.of("dmeo");
        assertEquals(2, run.status());
        assertEquals("Unmatched argument at index 0: 'dmeo'", run.firstErrorLine());
        assertTrue(run.err().contains("Usage: tessera [-h] [COMMAND]"), run.err());
    }

    @Test
    void aBadOptionValueGetsOneLineThenTheCommandsUsage() {
        CommandLineRun run = CommandLineRun.of("demo", "--size", "lots");
        assertEquals(2, run.status());
        assertEquals("Invalid value for option '--size': 'lots' is not a size; write it as e.g. 512MB, 4GB or 2GiB", run.firstErrorLine());
        assertTrue(run.err().contains("Usage: tessera demo"), run.err());
    }

    @Test
    void aFailureWhileWorkingIsOneLineAndStatusOne() {
        assertEquals("cannot read x.zarr (disk gone)", Main.message(new java.io.IOException("cannot read x.zarr", new RuntimeException("disk gone"))));
        assertEquals("NullPointerException", Main.message(new NullPointerException()));
        assertEquals("a b", Main.message(new IllegalStateException("a\nb")));
    }
}

package org.tessera.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The memory figure that WORKLOADS.md compares: the peak resident set of this process. */
public final class ProcessMemory {
    private ProcessMemory() {
    }

    /** The process's peak resident set in bytes (VmHWM of /proc/self/status), start-up included; -1 where /proc is absent. */
    public static long peakResidentBytes() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return -1;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return -1;
    }
}

package org.tessera.graph.memory;

/**
 * The most bytes of task results a computation may hold in memory at once. Results beyond it are
 * spilled to disk. {@link #unlimited()} never spills.
 */
public record MemoryBudget(long bytes) {
    public MemoryBudget {
        if (bytes <= 0) {
            throw new IllegalArgumentException("a memory budget must be positive, got " + bytes + " bytes");
        }
    }

    public static MemoryBudget ofBytes(long bytes) {
        return new MemoryBudget(bytes);
    }

    public static MemoryBudget ofMebibytes(long mebibytes) {
        return new MemoryBudget(mebibytes << 20);
    }

    public static MemoryBudget unlimited() {
        return new MemoryBudget(Long.MAX_VALUE);
    }

    public boolean isUnlimited() {
        return bytes == Long.MAX_VALUE;
    }

    /** Parses "512m", "2g", "64k" or a plain number of bytes, as command lines give a budget. */
    public static MemoryBudget parse(String text) {
        String trimmed = text.trim().toLowerCase(java.util.Locale.ROOT);
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("an empty memory budget");
        }
        char unit = trimmed.charAt(trimmed.length() - 1);
        int shift = switch (unit) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            case 't' -> 40;
            default -> 0;
        };
        String digits = shift == 0 ? trimmed : trimmed.substring(0, trimmed.length() - 1);
        try {
            return new MemoryBudget(Long.parseLong(digits) << shift);
        } catch (NumberFormatException notANumber) {
            throw new IllegalArgumentException("memory budget '" + text + "' is not a number of bytes with an optional k/m/g/t suffix", notANumber);
        }
    }
}

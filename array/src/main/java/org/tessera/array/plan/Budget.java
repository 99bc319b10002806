package org.tessera.array.plan;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The most memory a computation may take: its results in memory and what its running tasks
 * allocate. {@link #standard()} is {@value #HEAP_FRACTION} of the JVM's maximum heap, where Tessera
 * allocates every block below 16 GiB (the rest of the heap is left to everything else a program
 * holds and to the collector's headroom), plus the native memory a program allows Tessera with
 * {@code -Dtessera.memory.native=SIZE} (none unless given: native memory has no limit the JVM
 * enforces, so only the program can say how much of it is Tessera's).
 */
public record Budget(long bytes) {
    /** The share of the maximum heap a computation may take unless told otherwise. */
    public static final double HEAP_FRACTION = 0.6;

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kmgt]?)(i?b?)");

    public Budget {
        if (bytes <= 0) {
            throw new IllegalArgumentException("a memory budget must be positive, got " + bytes + " bytes");
        }
    }

    /** The system property of the native memory a computation may take besides its share of the heap. */
    public static final String NATIVE_PROPERTY = "tessera.memory.native";

    /** {@value #HEAP_FRACTION} of the maximum heap ({@code -Xmx}), plus {@value #NATIVE_PROPERTY} where set. */
    public static Budget standard() {
        String allowed = System.getProperty(NATIVE_PROPERTY);
        long nativeBytes = allowed == null || allowed.isBlank() ? 0 : of(allowed).bytes();
        return new Budget((long) (Runtime.getRuntime().maxMemory() * HEAP_FRACTION) + nativeBytes);
    }

    public static Budget ofBytes(long bytes) {
        return new Budget(bytes);
    }

    /**
     * Parses a size as people write it: "2GB", "512 MiB", "1.5g", "64k" or a number of bytes. A unit
     * counts in powers of 1024 either way, as the JVM's -Xmx does.
     */
    public static Budget of(String text) {
        Matcher matcher = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new IllegalArgumentException("memory budget '" + text + "' is not a size such as 2GB, 512MiB, 1.5g or a number of bytes");
        }
        int shift = switch (matcher.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        return new Budget((long) (Double.parseDouble(matcher.group(1)) * (1L << shift)));
    }

    @Override
    public String toString() {
        return Sizes.format(bytes);
    }
}

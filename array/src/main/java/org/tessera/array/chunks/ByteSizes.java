package org.tessera.array.chunks;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte sizes written as Dask writes them: "128MiB", "100 MB", "1.5GB", "1e6", "512" (bytes). */
public final class ByteSizes {
    private static final Pattern SIZE = Pattern.compile("\\s*([0-9.eE+-]*)\\s*([a-zA-Z]*)\\s*");
    private static final Map<String, Double> UNITS = Map.ofEntries(
            Map.entry("", 1.0), Map.entry("b", 1.0),
            Map.entry("kb", 1e3), Map.entry("mb", 1e6), Map.entry("gb", 1e9), Map.entry("tb", 1e12), Map.entry("pb", 1e15),
            Map.entry("k", 1e3), Map.entry("m", 1e6), Map.entry("g", 1e9), Map.entry("t", 1e12), Map.entry("p", 1e15),
            Map.entry("kib", 1024.0), Map.entry("mib", 1048576.0), Map.entry("gib", 1073741824.0),
            Map.entry("tib", 1099511627776.0), Map.entry("pib", 1125899906842624.0),
            Map.entry("ki", 1024.0), Map.entry("mi", 1048576.0), Map.entry("gi", 1073741824.0),
            Map.entry("ti", 1099511627776.0), Map.entry("pi", 1125899906842624.0));

    private ByteSizes() {
    }

    public static long parse(String text) {
        Matcher matcher = SIZE.matcher(text);
        Double unit = matcher.matches() ? UNITS.get(matcher.group(2).toLowerCase(Locale.ROOT)) : null;
        if (unit == null) {
            throw new IllegalArgumentException("'" + text + "' is not a byte size such as 128MiB, 100 MB or 1e6");
        }
        String number = matcher.group(1).isEmpty() ? "1" : matcher.group(1);
        try {
            return (long) (Double.parseDouble(number) * unit);
        } catch (NumberFormatException notANumber) {
            throw new IllegalArgumentException("'" + text + "' is not a byte size such as 128MiB, 100 MB or 1e6", notANumber);
        }
    }
}

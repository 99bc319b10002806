package org.tessera.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A number of bytes as people write it on a command line: {@code 512MB}, {@code 4GB}, {@code 1.5G},
 * {@code 2GiB}, {@code 100000}. K, M, G and T are powers of 1000 (as disks are sold); KiB, MiB,
 * GiB and TiB powers of 1024.
 */
record ByteSize(long bytes) {
    private static final Pattern TEXT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(?:([KMGT])(i)?B?|B)?", Pattern.CASE_INSENSITIVE);

    ByteSize {
        if (bytes < 0) {
            throw new IllegalArgumentException("a size cannot be negative, got " + bytes);
        }
    }

    static ByteSize parse(String text) {
        Matcher matcher = TEXT.matcher(text.strip().replace("_", ""));
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size; write it as e.g. 512MB, 4GB or 2GiB");
        }
        double number = Double.parseDouble(matcher.group(1));
        int power = matcher.group(2) == null ? 0 : "KMGT".indexOf(matcher.group(2).toUpperCase(Locale.ROOT)) + 1;
        double unit = Math.pow(matcher.group(3) == null ? 1000 : 1024, power);
        return new ByteSize(Math.round(number * unit));
    }

    /** {@code 2.00 GB}, {@code 16.0 MB}, {@code 512 B}: three significant digits, powers of 1000. */
    static String format(double bytes) {
        String[] units = {"B", "kB", "MB", "GB", "TB"};
        int unit = 0;
        while (Math.abs(bytes) >= 1000 && unit < units.length - 1) {
            bytes /= 1000;
            unit++;
        }
        String number = unit == 0 ? String.valueOf(Math.round(bytes))
                : String.format(Locale.ROOT, bytes >= 100 ? "%.0f" : bytes >= 10 ? "%.1f" : "%.2f", bytes);
        return number + " " + units[unit];
    }

    @Override
    public String toString() {
        return format(bytes);
    }
}

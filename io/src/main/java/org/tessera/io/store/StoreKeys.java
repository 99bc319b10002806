package org.tessera.io.store;

/** Checks and joins store keys. */
public final class StoreKeys {
    private StoreKeys() {
    }

    /**
     * {@code key} when it is a valid store key, else an IllegalArgumentException naming it: keys
     * must not climb out of a directory store or alias another key.
     */
    public static String validate(String key) {
        if (key.isEmpty() || key.startsWith("/") || key.endsWith("/")) {
            throw new IllegalArgumentException("store key '" + key + "' must be non-empty and must not start or end with '/'");
        }
        if (key.indexOf('\\') >= 0 || key.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("store key '" + key + "' must not contain a backslash or a NUL character");
        }
        for (String segment : key.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("store key '" + key + "' has an empty, '.' or '..' segment");
            }
        }
        return key;
    }

    /** {@code prefix/name}, or {@code name} when the prefix is empty. */
    public static String join(String prefix, String name) {
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    /** A node path without leading or trailing slashes ("" is the root). */
    public static String normalizePath(String path) {
        String trimmed = path.strip();
        while (trimmed.startsWith("/")) {
            trimmed = trimmed.substring(1);
        }
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        if (!trimmed.isEmpty()) {
            validate(trimmed);
        }
        return trimmed;
    }
}

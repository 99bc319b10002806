package org.tessera.ndarray.dtype;

import java.util.Locale;

/** NumPy's casting rules, from strictest to loosest. */
public enum Casting {
    NO, EQUIV, SAFE, SAME_KIND, UNSAFE;

    /** "no", "equiv", "safe", "same_kind" or "unsafe". */
    public static Casting fromName(String name) {
        for (Casting casting : values()) {
            if (casting.name().toLowerCase(Locale.ROOT).equals(name)) {
                return casting;
            }
        }
        throw new IllegalArgumentException("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe', got '" + name + "'");
    }
}

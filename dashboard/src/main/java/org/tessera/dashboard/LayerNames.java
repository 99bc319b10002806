package org.tessera.dashboard;

/**
 * The layer a key belongs to, for grouping tasks: its name without the token that makes it unique,
 * as Dask's {@code key_split} groups {@code sum-aggregate-3f2a...} under {@code sum-aggregate}. Two
 * arrays made by the same operation then share a progress row, which is what a person watching
 * wants to see ("random", "sum").
 */
final class LayerNames {
    /** Tokens are hexadecimal hashes; shorter hexadecimal parts ("add", "beef") stay in the name. */
    private static final int MIN_TOKEN_LENGTH = 8;

    private LayerNames() {
    }

    static String of(String keyName) {
        int dash = keyName.lastIndexOf('-');
        if (dash <= 0 || keyName.length() - dash - 1 < MIN_TOKEN_LENGTH) {
            return keyName;
        }
        for (int position = dash + 1; position < keyName.length(); position++) {
            char character = keyName.charAt(position);
            boolean hex = (character >= '0' && character <= '9') || (character >= 'a' && character <= 'f');
            if (!hex) {
                return keyName;
            }
        }
        return keyName.substring(0, dash);
    }
}

package org.tessera.graph.render;

/**
 * Text as a JSON string literal, for the small JSON documents Tessera writes by hand (the profiler's
 * trace, the dashboard's state). {@code <} is escaped too, so a literal may sit inside an HTML
 * {@code <script>} element without ending it.
 */
public final class JsonStrings {
    private JsonStrings() {
    }

    /** {@code text} quoted, with quotes, backslashes, control characters and {@code <} escaped. */
    public static String quoted(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int position = 0; position < text.length(); position++) {
            char character = text.charAt(position);
            switch (character) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '<' -> quoted.append("\\u003c");
                default -> {
                    if (character < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) character));
                    } else {
                        quoted.append(character);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}

package org.tessera.dashboard;

/** The little JSON the dashboard writes: quoted strings and flat tables as arrays of arrays. */
final class Json {
    private Json() {
    }

    static String quoted(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int position = 0; position < text.length(); position++) {
            char character = text.charAt(position);
            switch (character) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                // Keeps "</script>" out of a page that embeds the JSON.
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

    /** {@code values} as rows of {@code fields} numbers: {@code [a,b],[c,d]} (the caller writes the outer brackets). */
    static void appendTuples(StringBuilder json, long[] values, int fields) {
        for (int at = 0; at < values.length; at += fields) {
            json.append(at == 0 ? "[" : ",[");
            for (int field = 0; field < fields; field++) {
                json.append(field == 0 ? "" : ",").append(values[at + field]);
            }
            json.append(']');
        }
    }
}

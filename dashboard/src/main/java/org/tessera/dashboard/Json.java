package org.tessera.dashboard;

/** Flat tables as JSON arrays of arrays, the bulk of what the dashboard sends. */
final class Json {
    private Json() {
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

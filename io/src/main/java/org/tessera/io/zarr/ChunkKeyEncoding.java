package org.tessera.io.zarr;

import java.io.Serial;
import java.io.Serializable;
import java.util.StringJoiner;

/**
 * How Zarr v3 names chunks: "default" puts {@code c} before the positions ({@code c/1/0}, and
 * {@code c} alone for a 0-d array); "v2" writes them as v2 does ({@code 1.0}, and {@code 0}).
 */
public record ChunkKeyEncoding(boolean isDefault, String separator) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public ChunkKeyEncoding {
        if (!separator.equals(".") && !separator.equals("/")) {
            throw new IllegalArgumentException("a chunk key separator must be \".\" or \"/\", got \"" + separator + "\"");
        }
    }

    public static ChunkKeyEncoding defaultEncoding() {
        return new ChunkKeyEncoding(true, "/");
    }

    public static ChunkKeyEncoding version2(String separator) {
        return new ChunkKeyEncoding(false, separator);
    }

    public String key(int[] chunkIndex) {
        StringJoiner key = new StringJoiner(separator);
        if (isDefault) {
            key.add("c");
        } else if (chunkIndex.length == 0) {
            return "0";
        }
        for (int position : chunkIndex) {
            key.add(Integer.toString(position));
        }
        return key.toString();
    }
}

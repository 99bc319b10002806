package org.tessera.array.slicing;

import java.util.StringJoiner;

import org.tessera.array.chunks.Chunks;
import org.tessera.ndarray.index.Index;

/** Index expressions and shapes written as Python writes them, for error messages. */
final class IndexText {
    private IndexText() {
    }

    /** {@code (3, 5)}, {@code (4,)}, {@code ()}; {@code nan} for an unknown length. */
    static String shape(long[] shape) {
        StringJoiner text = new StringJoiner(", ", "(", shape.length == 1 ? ",)" : ")");
        for (long length : shape) {
            text.add(length == Chunks.UNKNOWN ? "nan" : Long.toString(length));
        }
        return text.toString();
    }

    /** {@code [0, 1:5:2, ..., None, array(shape=(3,), dtype=int64)]}. */
    static String index(Index[] index) {
        StringJoiner text = new StringJoiner(", ", "[", "]");
        for (Index item : index) {
            text.add(item(item));
        }
        return text.toString();
    }

    static String item(Index item) {
        return switch (item) {
            case Index.At at -> Long.toString(at.index());
            case Index.Range range -> bound(range.start()) + ":" + bound(range.stop()) + (range.step() == null ? "" : ":" + range.step());
            case Index.NewAxis ignored -> "None";
            case Index.Ellipsis ignored -> "...";
            case Index.BoolScalar scalar -> scalar.value() ? "True" : "False";
            case Index.IntArray array -> "array(shape=" + shape(array.indices().shape()) + ", dtype=" + array.indices().dtype() + ")";
            case Index.BoolMask mask -> "mask(shape=" + shape(mask.mask().shape()) + ")";
        };
    }

    private static String bound(Long value) {
        return value == null ? "" : value.toString();
    }
}

package org.tessera.array.slicing;

import java.util.ArrayList;
import java.util.List;

/**
 * How one axis selector maps onto the blocks of that axis: the output pieces in output order, each
 * a part of one input block. The pieces' lengths are the output chunks, and they are Dask's: whole
 * axes keep their blocks (empty ones too), a forward slice visits the blocks from the one holding
 * its start to the first one reaching its stop (so a stop inside a block the step jumps over gives
 * that block an empty piece, as Dask does), and a backward slice keeps the blocks it takes elements
 * from, last block first. A selection of nothing is one empty piece of block 0.
 */
final class AxisPlan {
    private AxisPlan() {
    }

    /** Part {@code step} of input block {@code block}, which gives {@code length} elements. */
    record Piece(int block, BlockSlice.Step step, long length) {
    }

    static List<Piece> pieces(long[] lengths, AxisSelector selector) {
        return switch (selector) {
            case AxisSelector.Whole ignored -> whole(lengths);
            case AxisSelector.Point point -> List.of(point(lengths, point.position()));
            case AxisSelector.Stride stride when stride.step() > 0 -> forward(lengths, stride);
            case AxisSelector.Stride stride -> backward(lengths, stride);
            case AxisSelector.Insert ignored -> throw new IllegalArgumentException("a new axis has no input blocks");
            case AxisSelector.Gathered ignored -> throw new IllegalArgumentException("gathered axes are planned by PointGather");
        };
    }

    private static List<Piece> whole(long[] lengths) {
        List<Piece> pieces = new ArrayList<>(lengths.length);
        for (int block = 0; block < lengths.length; block++) {
            pieces.add(new Piece(block, new BlockSlice.Keep(), lengths[block]));
        }
        return pieces;
    }

    /** The block holding {@code position} and the position within it; empty blocks hold nothing. */
    static Piece point(long[] lengths, long position) {
        long offset = 0;
        for (int block = 0; block < lengths.length; block++) {
            if (position < offset + lengths[block]) {
                return new Piece(block, new BlockSlice.At(position - offset), 1);
            }
            offset += lengths[block];
        }
        throw new IndexOutOfBoundsException("position " + position + " is beyond the blocks " + java.util.Arrays.toString(lengths));
    }

    private static List<Piece> forward(long[] lengths, AxisSelector.Stride stride) {
        List<Piece> pieces = new ArrayList<>();
        long step = stride.step();
        long blockStart = 0;
        int block = 0;
        // Skip the blocks that end at or before the start.
        while (block < lengths.length && blockStart + lengths[block] <= stride.start()) {
            blockStart += lengths[block];
            block++;
        }
        // Relative to the current block: where the next element is and where the slice stops.
        long next = stride.start() - blockStart;
        long stop = stride.stop() - blockStart;
        for (; block < lengths.length; block++) {
            long length = lengths[block];
            if (next < length && stop > 0) {
                long end = Math.min(stop, length);
                long count = Math.max(0, Math.ceilDiv(end - next, step));
                pieces.add(new Piece(block, new BlockSlice.Range(next, step, count), count));
                next = Math.floorMod(next - length, step);
            } else {
                next -= length;
            }
            boolean reachesStop = stop <= length;
            stop -= length;
            if (reachesStop) {
                break;
            }
        }
        return pieces.isEmpty() ? List.of(nothing()) : pieces;
    }

    private static List<Piece> backward(long[] lengths, AxisSelector.Stride stride) {
        if (stride.count() == 0) {
            return List.of(nothing());
        }
        long step = stride.step();
        long last = stride.start() + (stride.count() - 1) * step;
        long[] offsets = new long[lengths.length + 1];
        for (int block = 0; block < lengths.length; block++) {
            offsets[block + 1] = offsets[block] + lengths[block];
        }
        List<Piece> pieces = new ArrayList<>();
        long next = stride.start();
        for (int block = lengths.length - 1; block >= 0 && next >= last; block--) {
            if (offsets[block] > next || lengths[block] == 0) {
                continue;
            }
            // Elements next, next + step, ... down to max(last, block start).
            long lowest = Math.max(last, offsets[block]);
            long count = (next - lowest) / -step + 1;
            pieces.add(new Piece(block, new BlockSlice.Range(next - offsets[block], step, count), count));
            next += count * step;
        }
        return pieces;
    }

    private static Piece nothing() {
        return new Piece(0, new BlockSlice.Range(0, 1, 0), 0);
    }
}

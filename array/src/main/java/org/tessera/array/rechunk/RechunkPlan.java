package org.tessera.array.rechunk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

import org.tessera.array.chunks.Chunks;

/**
 * Plans a rechunk as a sequence of chunkings, the last one the target, as Dask's
 * {@code plan_rechunk} does. Rechunking in one step builds one piece per intersection of an old
 * block with a new block; for a transposing change, (N, 1) blocks to (1, N), that is N² pieces.
 * The plan first merges blocks along the axes where the target has fewer blocks, as far as the
 * block size limit allows, and when the limit stops it, splits along the other axes towards the
 * target, so that every step crosses few blocks. Each intermediate block holds at most
 * {@code blockLimitBytes} (or the largest old or target block, when that is larger).
 *
 * <p>The plan is plain arithmetic on block lengths, so it is tested without building a graph;
 * {@link Rechunk} runs its steps.
 */
public final class RechunkPlan {
    /**
     * Dask's {@code array.rechunk-threshold}: a step is worth inserting when rechunking directly
     * would make more than this many times as many pieces as the old and new blocks together.
     */
    public static final int DEFAULT_THRESHOLD = 4;

    private RechunkPlan() {
    }

    /**
     * The chunkings to pass through from {@code source} to {@code target}, ending with the target.
     * One step (the target alone) when the change is cheap enough, the array has fewer than two
     * axes, or some block length is unknown.
     *
     * @param itemSize        bytes per element
     * @param blockLimitBytes the largest intermediate block wanted, in bytes
     * @param threshold       the graph growth factor under which no step is inserted
     */
    public static List<Chunks> plan(Chunks source, Chunks target, int itemSize, long blockLimitBytes, int threshold) {
        if (source.ndim() != target.ndim()) {
            throw new IllegalArgumentException("cannot plan a rechunk from chunks " + source + " (" + source.ndim() + " axes) to " + target
                    + " (" + target.ndim() + " axes)");
        }
        if (itemSize <= 0 || blockLimitBytes <= 0 || threshold <= 0) {
            throw new IllegalArgumentException("a rechunk plan needs a positive item size, block limit and threshold, got "
                    + itemSize + ", " + blockLimitBytes + " and " + threshold);
        }
        List<Chunks> steps = new ArrayList<>();
        if (target.ndim() <= 1 || !source.isKnown()) {
            steps.add(target);
            return steps;
        }
        long[][] old = lengths(source);
        long[][] goal = lengths(target);
        double blockLimit = Math.max((double) blockLimitBytes / itemSize, Math.max(largestBlock(old), largestBlock(goal)));
        double graphSizeThreshold = (double) threshold * (blockCount(old) + blockCount(goal));

        long[][] current = old;
        boolean firstPass = true;
        while (true) {
            double graphSize = estimateGraphSize(current, goal);
            if (graphSize < graphSizeThreshold) {
                break;
            }
            // After the block limit stopped a merge, accept a larger graph to come nearer the target
            // and to shrink the largest block, which makes room for the next merge.
            long[][] candidate = firstPass ? current : splitTowards(current, goal, graphSize * threshold);
            Merge merge = mergeTowards(candidate, goal, blockLimit);
            if ((sameChunks(merge.chunks(), current) && !firstPass) || sameChunks(merge.chunks(), goal)) {
                break;
            }
            if (!sameChunks(merge.chunks(), current)) {
                steps.add(Chunks.of(merge.chunks()));
            }
            current = merge.chunks();
            if (!merge.limitHit()) {
                break;
            }
            firstPass = false;
        }
        steps.add(target);
        return steps;
    }

    /**
     * How many pieces a one-step rechunk would make: per axis, the old and new boundaries together
     * (an approximation that needs no intersection, as Dask's estimate).
     */
    static double estimateGraphSize(long[][] old, long[][] target) {
        double size = 1;
        for (int axis = 0; axis < old.length; axis++) {
            size *= Arrays.equals(old[axis], target[axis]) ? old[axis].length : old[axis].length + target[axis].length - 1;
        }
        return size;
    }

    /** The chunks after merging towards the target where it has fewer blocks, and whether the limit stopped a merge. */
    record Merge(long[][] chunks, boolean limitHit) {
    }

    /**
     * Merges adjacent blocks towards the target along the axes where the target has no more blocks,
     * greedily in the order of graph reduction gained per growth of the largest block (a
     * multiplicative knapsack), without letting a block exceed {@code blockLimit} elements; an axis
     * that cannot take the target's blocks whole takes them divided to the width that still fits.
     */
    static Merge mergeTowards(long[][] old, long[][] target, double blockLimit) {
        int ndim = old.length;
        long[] oldWidest = new long[ndim];
        long[] newWidest = new long[ndim];
        double[] graphEffect = new double[ndim];
        double[] blockEffect = new double[ndim];
        List<Integer> candidates = new ArrayList<>();
        for (int axis = 0; axis < ndim; axis++) {
            oldWidest[axis] = max(old[axis]);
            newWidest[axis] = max(target[axis]);
            graphEffect[axis] = (double) target[axis].length / old[axis].length;
            blockEffect[axis] = (double) newWidest[axis] / (oldWidest[axis] == 0 ? 1 : oldWidest[axis]);
            if (graphEffect[axis] <= 1.0) {
                candidates.add(axis);
            }
        }
        candidates.sort(Comparator.comparingDouble(axis -> {
            double growth = blockEffect[axis] == 1 ? 1 + 1e-9 : blockEffect[axis];
            return growth > 0 ? Math.log(graphEffect[axis]) / Math.log(growth) : 0;
        }));
        long largestBlock = 1;
        for (long width : oldWidest) {
            largestBlock *= width;
        }
        long[][] chunks = old.clone();
        boolean limitHit = false;
        for (int axis : candidates) {
            long merged = largestBlock * newWidest[axis] / (oldWidest[axis] == 0 ? 1 : oldWidest[axis]);
            if (merged <= blockLimit) {
                chunks[axis] = target[axis];
                largestBlock = merged;
            } else {
                long width = oldWidest[axis];
                long widthLimit = (long) (blockLimit * width / largestBlock);
                long[] divided = divideToWidth(target[axis], Math.max(1, widthLimit));
                if (divided.length <= old[axis].length) {
                    chunks[axis] = divided;
                    largestBlock = largestBlock * max(divided) / width;
                }
                limitHit = true;
            }
        }
        return new Merge(chunks, limitHit);
    }

    /**
     * Splits towards the target along the axes where it has more blocks, merging its blocks to a
     * count that keeps the estimated graph within {@code graphSizeLimit}; an axis changes only when
     * that gives more, and no wider, blocks than it has.
     */
    static long[][] splitTowards(long[][] old, long[][] target, double graphSizeLimit) {
        long[][] chunks = old.clone();
        for (int axis = 0; axis < old.length; axis++) {
            double graphSize = estimateGraphSize(chunks, target);
            if (graphSize > graphSizeLimit) {
                break;
            }
            if (old[axis].length > target[axis].length) {
                continue;
            }
            int maximumCount = (int) (old[axis].length * graphSizeLimit / graphSize);
            long[] merged = mergeToCount(target[axis], maximumCount);
            if (merged.length >= old[axis].length && max(merged) <= max(old[axis])) {
                chunks[axis] = merged;
            }
        }
        return chunks;
    }

    /** Each block divided into the fewest near-equal parts no wider than {@code maximumWidth}. */
    static long[] divideToWidth(long[] lengths, long maximumWidth) {
        List<Long> parts = new ArrayList<>();
        for (long length : lengths) {
            long count = (length + maximumWidth - 1) / maximumWidth;
            long left = length;
            for (long part = 0; part < count; part++) {
                long width = left / (count - part);
                parts.add(width);
                left -= width;
            }
        }
        return parts.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * Adjacent blocks merged until at most {@code maximumCount} remain, each time merging the
     * narrowest adjacent pair, so the widest result stays small; equal blocks merge into a regular
     * result (wider blocks first).
     */
    static long[] mergeToCount(long[] lengths, int maximumCount) {
        if (lengths.length <= maximumCount) {
            return lengths;
        }
        if (Arrays.stream(lengths).distinct().count() == 1 && lengths[0] > 0) {
            long width = lengths[0];
            long total = width * lengths.length;
            long mergedWidth = width * (total / maximumCount / width);
            int wider = (int) ((total - maximumCount * mergedWidth) / width);
            long[] merged = new long[maximumCount];
            Arrays.fill(merged, 0, wider, mergedWidth + width);
            Arrays.fill(merged, wider, maximumCount, mergedWidth);
            return merged;
        }
        long[] widths = lengths.clone();
        // Pairs (width, left, right) ordered as Python orders tuples: narrowest first, then leftmost.
        PriorityQueue<long[]> pairs = new PriorityQueue<>(Comparator.<long[]>comparingLong(pair -> pair[0])
                .thenComparingLong(pair -> pair[1]).thenComparingLong(pair -> pair[2]));
        for (int left = 0; left + 1 < widths.length; left++) {
            pairs.add(new long[] {widths[left] + widths[left + 1], left, left + 1});
        }
        int merges = widths.length - maximumCount;
        while (merges > 0 && !pairs.isEmpty()) {
            long[] pair = pairs.poll();
            int left = (int) pair[1];
            int right = (int) pair[2];
            // A zero width marks a block already merged into its right neighbour: a stale pair.
            if (widths[left] == 0) {
                continue;
            }
            if (widths[right] == 0) {
                while (right < widths.length && widths[right] == 0) {
                    right++;
                }
                if (right < widths.length) {
                    pairs.add(new long[] {widths[left] + widths[right], left, right});
                }
                continue;
            }
            if (widths[left] + widths[right] != pair[0]) {
                pairs.add(new long[] {widths[left] + widths[right], left, right});
                continue;
            }
            widths[left] = 0;
            widths[right] = pair[0];
            merges--;
        }
        return Arrays.stream(widths).filter(width -> width != 0).toArray();
    }

    private static long[][] lengths(Chunks chunks) {
        long[][] lengths = new long[chunks.ndim()][];
        for (int axis = 0; axis < lengths.length; axis++) {
            lengths[axis] = chunks.axis(axis);
        }
        return lengths;
    }

    private static boolean sameChunks(long[][] first, long[][] second) {
        return Arrays.deepEquals(first, second);
    }

    private static long max(long[] lengths) {
        return Arrays.stream(lengths).max().orElse(0);
    }

    private static double largestBlock(long[][] chunks) {
        double size = 1;
        for (long[] axis : chunks) {
            size *= max(axis);
        }
        return size;
    }

    private static double blockCount(long[][] chunks) {
        double count = 1;
        for (long[] axis : chunks) {
            count *= axis.length;
        }
        return count;
    }
}

package org.tessera.array.sorting;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.tessera.array.Blocks;
import org.tessera.array.ChunkedArray;
import org.tessera.array.blockwise.MapBlocks;
import org.tessera.array.plan.Working;
import org.tessera.array.reduction.TreeReduction;
import org.tessera.graph.TaskFunction;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.api.NDArrays;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Shapes;

/**
 * Percentiles of a 1-D chunked array with NumPy's default linear interpolation, computed as Dask
 * computes them: <b>approximately</b> when there is more than one block.
 *
 * <p>With one block the answer is NumPy's exactly. Otherwise each block reports its percentiles on
 * a grid (the requested ones plus every whole percent) and its element count; the merge treats
 * each reported value as a sample standing for the share of its block's elements between the
 * neighbouring grid points, sorts all samples, and reads the requested percentiles off their
 * cumulative weights. The error is bounded by the spread of values within about one percent of a
 * block's elements, small for large blocks of continuous data and zero for the extremes (0 and 100).
 * Any NaN makes every percentile NaN, as in NumPy. {@link ChunkedSort#percentile} gives NumPy's
 * answer exactly, for every method, along any axis.
 */
public final class Percentiles {
    private static final int GRID_STEPS = 100;
    /** The bytes of one weighted sample in the merge: a double[2] with its header, its list slot, its position and value. */
    private static final long SAMPLE_BYTES = 64;

    private Percentiles() {
    }

    /** The {@code q}-th percentiles (0 to 100) of all elements, float64, one per q. */
    public static ChunkedArray percentile(ChunkedArray x, double... q) {
        if (x.ndim() != 1) {
            throw new IllegalArgumentException("percentile: needs a 1-D array, got shape " + Shapes.format(x.shape()));
        }
        if (x.dtype().isComplex()) {
            throw new IllegalArgumentException("percentile: complex arrays are not supported (got " + x.dtype().numpyName() + ")");
        }
        for (double value : q) {
            if (!(value >= 0 && value <= 100)) {
                throw new IllegalArgumentException("percentile: Percentiles must be in the range [0, 100], got " + Arrays.toString(q));
            }
        }
        double[] requested = q.clone();
        double[] grid = grid(requested);
        boolean oneBlock = x.chunks().totalBlocks() == 1;
        TaskFunction chunkStep = TaskFunction.named("percentile-chunk", arguments -> {
            double[] values = sortedValues(Blocks.dense(arguments.get(0), "percentiles"));
            double[] partial = new double[grid.length + 1];
            partial[0] = values.length;
            for (int i = 0; i < grid.length; i++) {
                partial[i + 1] = interpolated(values, grid[i]);
            }
            return NDArrays.array(partial).reshape(1, grid.length + 1);
        });
        TaskFunction combineStep = TaskFunction.named("percentile-combine",
                arguments -> NDArrays.concatenate(PartialTree.partials(arguments), 0));
        // A block's report is a row of the grid's values and its count; its values are copied to a double[] and sorted.
        long reportBytes = (grid.length + 1L) * Long.BYTES;
        long blocks = x.chunks().totalBlocks();
        PartialTree.Partials sizes = new PartialTree.Partials(reportBytes, 0, blocks * reportBytes, Double.BYTES + x.dtype().byteSize(), 0, 0);
        ChunkedArray reports = PartialTree.reduce("percentile-reports", x, chunkStep, combineStep, TreeReduction.DEFAULT_SPLIT_EVERY,
                new long[] {blocks, grid.length + 1}, DType.FLOAT64, sizes);
        // The merge makes a weighted sample of every report value (a double[2] each in a list), then their positions and values.
        Working merging = Working.fixed(blocks * (grid.length + 1L) * SAMPLE_BYTES);
        return MapBlocks.of(blocks2 -> NDArrays.array(merge(blocks2[0], grid, requested, oneBlock)), reports)
                .label("percentile").dropAxis(0, 1).newAxis(0, new long[] {requested.length}).dtype(DType.FLOAT64).token(Arrays.toString(requested))
                .working(merging).build();
    }

    /** The requested percentiles and every whole percent, sorted and distinct. */
    private static double[] grid(double[] requested) {
        double[] grid = Arrays.copyOf(requested, requested.length + GRID_STEPS + 1);
        for (int step = 0; step <= GRID_STEPS; step++) {
            grid[requested.length + step] = 100.0 * step / GRID_STEPS;
        }
        return Arrays.stream(grid).sorted().distinct().toArray();
    }

    private static double[] sortedValues(NDArray block) {
        double[] values = new double[(int) block.size()];
        NDArray flat = block.reshape(block.size());
        for (int i = 0; i < values.length; i++) {
            values[i] = flat.getDouble(i);
        }
        Arrays.sort(values);
        return values;
    }

    /** NumPy's linear method on sorted values: position {@code q/100 * (n - 1)}, interpolated. */
    static double interpolated(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        if (Double.isNaN(sorted[sorted.length - 1])) {
            return Double.NaN;
        }
        double position = q / 100 * (sorted.length - 1);
        int below = (int) Math.floor(position);
        int above = Math.min(below + 1, sorted.length - 1);
        double fraction = position - below;
        return fraction == 0 ? sorted[below] : sorted[below] + (sorted[above] - sorted[below]) * fraction;
    }

    private static double[] merge(NDArray reports, double[] grid, double[] requested, boolean oneBlock) {
        int blocks = (int) reports.shape(0);
        double[] answers = new double[requested.length];
        List<double[]> samples = new ArrayList<>();
        double total = 0;
        for (int block = 0; block < blocks; block++) {
            double count = reports.getDouble(block, 0);
            if (count == 0) {
                continue;
            }
            for (int i = 0; i < grid.length; i++) {
                double value = reports.getDouble(block, i + 1);
                if (Double.isNaN(value)) {
                    Arrays.fill(answers, Double.NaN);
                    return answers;
                }
                // The sample stands for the elements halfway to its neighbours on the grid.
                double left = i == 0 ? grid[0] : (grid[i - 1] + grid[i]) / 2;
                double right = i == grid.length - 1 ? grid[i] : (grid[i] + grid[i + 1]) / 2;
                double weight = count * (right - left) / 100;
                samples.add(new double[] {value, weight});
                total += weight;
            }
        }
        if (samples.isEmpty()) {
            Arrays.fill(answers, Double.NaN);
            return answers;
        }
        if (oneBlock) {
            for (int i = 0; i < requested.length; i++) {
                answers[i] = reports.getDouble(0, 1 + Arrays.binarySearch(grid, requested[i]));
            }
            return answers;
        }
        samples.sort((first, second) -> Double.compare(first[0], second[0]));
        double[] positions = new double[samples.size()];
        double[] values = new double[samples.size()];
        double cumulative = 0;
        for (int i = 0; i < samples.size(); i++) {
            double weight = samples.get(i)[1];
            positions[i] = (cumulative + weight / 2) / total * 100;
            values[i] = samples.get(i)[0];
            cumulative += weight;
        }
        double smallest = values[0];
        double largest = values[values.length - 1];
        for (int i = 0; i < requested.length; i++) {
            double q = requested[i];
            if (q <= positions[0] || q == 0) {
                answers[i] = q == 0 ? smallest : values[0];
            } else if (q >= positions[positions.length - 1] || q == 100) {
                answers[i] = q == 100 ? largest : values[values.length - 1];
            } else {
                int above = Arrays.binarySearch(positions, q);
                if (above >= 0) {
                    answers[i] = values[above];
                } else {
                    above = -above - 1;
                    double fraction = (q - positions[above - 1]) / (positions[above] - positions[above - 1]);
                    answers[i] = values[above - 1] + (values[above] - values[above - 1]) * fraction;
                }
            }
        }
        return answers;
    }
}

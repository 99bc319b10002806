package org.tessera.array.plan;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.tessera.graph.Key;
import org.tessera.graph.layer.HighLevelGraph;
import org.tessera.graph.memory.MemoryProjection;
import org.tessera.graph.memory.MemoryProjection.LayerRow;
import org.tessera.graph.memory.StreamedOutputs;

/**
 * What a computation will do and hold, said before anything runs: its layers and tasks after
 * optimisation, the bytes it reads from and writes to stores, the task that holds most while it
 * runs, and the peak of the whole computation on {@link #workers()} workers under the scheduler's
 * order. Projections come from the blocks' shapes and dtypes and each operation's declared working
 * memory ({@link Footprints}); {@code toString()} is the table a person reads.
 */
public final class Plan {
    private final HighLevelGraph graph;
    private final List<Key> outputs;
    private final List<String> arrays;
    private final MemoryProjection projection;
    private final StreamedOutputs streamed;
    private final int workers;
    private final Budget budget;

    private Plan(HighLevelGraph graph, List<Key> outputs, List<String> arrays, StreamedOutputs streamed, int workers, Budget budget) {
        this.graph = graph;
        this.outputs = List.copyOf(outputs);
        this.arrays = List.copyOf(arrays);
        this.streamed = streamed;
        this.projection = MemoryProjection.of(graph, outputs, workers, streamed);
        this.workers = workers;
        this.budget = budget;
    }

    /** The plan of computing {@code outputs} of {@code graph} (the arrays {@code arrays}) on {@code workers} workers within {@code budget}. */
    public static Plan of(HighLevelGraph graph, List<Key> outputs, List<String> arrays, int workers, Budget budget) {
        return of(graph, outputs, arrays, StreamedOutputs.NONE, workers, budget);
    }

    /** As {@link #of(HighLevelGraph, List, List, int, Budget)}, the {@code streamed} outputs copied into results held from the start. */
    public static Plan of(HighLevelGraph graph, List<Key> outputs, List<String> arrays, StreamedOutputs streamed, int workers, Budget budget) {
        return new Plan(graph, outputs, arrays, streamed, workers, budget);
    }

    /** The same computation planned on {@code count} workers. */
    public Plan withWorkers(int count) {
        return count == workers ? this : new Plan(graph, outputs, arrays, streamed, count, budget);
    }

    public int tasks() {
        return projection.tasks();
    }

    public List<LayerRow> layers() {
        return projection.layers();
    }

    public int workers() {
        return workers;
    }

    public Budget budget() {
        return budget;
    }

    /** The projected peak of the whole computation: results held and every running task's allocations. */
    public long projectedPeakBytes() {
        return projection.peakBytes();
    }

    /** The results that blocks are copied into as they finish, allocated before any task runs (counted in the projected peak). */
    public long assembledBytes() {
        return streamed.resultBytes();
    }

    /** What the largest task holds while it runs: its inputs, its result and its working memory. */
    public long largestTaskBytes() {
        return projection.largestTaskBytes();
    }

    public Key largestTask() {
        return projection.largestTask();
    }

    public long bytesRead() {
        return projection.bytesRead();
    }

    public long bytesWritten() {
        return projection.bytesWritten();
    }

    /** Layers whose operation declared no working memory; empty when every one did. */
    public Set<String> undeclaredLayers() {
        return projection.undeclared();
    }

    /** Whether the largest task fits the budget: with results spilled to disk beyond it, the computation then runs within it. */
    public boolean fits() {
        return largestTaskBytes() <= budget.bytes();
    }

    /** Whether the whole computation fits the budget without spilling any result. */
    public boolean fitsInMemory() {
        return projectedPeakBytes() <= budget.bytes();
    }

    /** This plan, or a refusal naming the task that does not fit and what would. */
    public Plan requireFits() {
        if (!fits()) {
            throw new MemoryPlanException(this, refusal());
        }
        return this;
    }

    private String refusal() {
        Key task = largestTask();
        double over = (double) largestTaskBytes() / budget.bytes();
        return String.format(Locale.ROOT, "the plan of %s does not fit the memory budget of %s: task %s of layer %s holds %s while it runs "
                        + "(its inputs, result and working memory), %.1f times the budget. Blocks about %d times smaller would fit "
                        + "(rechunk the input to smaller chunks), or, for a rechunk, go through an intermediate store (StoreRechunk); "
                        + "or give a larger budget.",
                String.join(", ", arrays), budget, task, task == null ? "?" : task.name(), Sizes.format(largestTaskBytes()), over,
                (long) Math.ceil(over));
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "Plan of %s: %d tasks on %d workers%n", String.join(", ", arrays), tasks(), workers));
        int width = Math.max(5, layers().stream().mapToInt(row -> label(row).length()).max().orElse(5));
        text.append(String.format(Locale.ROOT, "  %-" + width + "s %7s %12s %12s%n", "layer", "tasks", "results", "largest task"));
        for (LayerRow row : layers()) {
            text.append(String.format(Locale.ROOT, "  %-" + width + "s %7d %12s %12s%n", label(row), row.tasks(), Sizes.format(row.resultBytes()),
                    Sizes.format(row.largestBytes())));
        }
        text.append(String.format(Locale.ROOT, "  read from stores   %s%n", Sizes.format(bytesRead())));
        text.append(String.format(Locale.ROOT, "  written to stores  %s%n", Sizes.format(bytesWritten())));
        if (assembledBytes() > 0) {
            text.append(String.format(Locale.ROOT, "  results assembled  %s, held from the start%n", Sizes.format(assembledBytes())));
        }
        text.append(String.format(Locale.ROOT, "  largest task       %s: %s%n", largestTask(), Sizes.format(largestTaskBytes())));
        text.append(String.format(Locale.ROOT, "  projected peak     %s%n", Sizes.format(projectedPeakBytes())));
        text.append(String.format(Locale.ROOT, "  budget             %s: %s%n", budget,
                fitsInMemory() ? "fits" : fits() ? "fits, spilling results to disk beyond it" : "does not fit"));
        if (!undeclaredLayers().isEmpty()) {
            text.append("  undeclared working memory: ").append(String.join(", ", undeclaredLayers())).append(System.lineSeparator());
        }
        return text.toString();
    }

    /** A layer's name without its token, as Dask's key_split shows it. */
    private static String label(LayerRow row) {
        String name = row.name();
        int dash = name.lastIndexOf('-');
        return dash > 0 && name.length() - dash > 8 ? name.substring(0, dash) : name;
    }

    /** The table as HTML, with a bar per layer of its largest task against the budget (SVG). */
    public String toHtml() {
        StringBuilder html = new StringBuilder("<table class=\"tessera-plan\">\n<tr><th>layer</th><th>tasks</th><th>results</th><th>largest task</th><th></th></tr>\n");
        long scale = Math.max(budget.bytes(), layers().stream().mapToLong(LayerRow::largestBytes).max().orElse(1));
        for (LayerRow row : layers()) {
            double share = (double) row.largestBytes() / scale;
            double limit = (double) budget.bytes() / scale;
            html.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>"
                            + "<svg width=\"120\" height=\"12\"><rect width=\"%.1f\" height=\"12\" fill=\"%s\"/>"
                            + "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"12\" stroke=\"black\"/></svg></td></tr>%n",
                    escape(label(row)), row.tasks(), Sizes.format(row.resultBytes()), Sizes.format(row.largestBytes()), 120 * share,
                    row.largestBytes() <= budget.bytes() ? "#4c78a8" : "#e45756", 120 * limit, 120 * limit));
        }
        html.append(String.format(Locale.ROOT, "</table>%n<p>%d tasks on %d workers; read %s, written %s; results assembled %s; largest task %s; "
                        + "projected peak %s; budget %s.</p>%n",
                tasks(), workers, Sizes.format(bytesRead()), Sizes.format(bytesWritten()), Sizes.format(assembledBytes()), Sizes.format(largestTaskBytes()),
                Sizes.format(projectedPeakBytes()), budget));
        return html.toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}

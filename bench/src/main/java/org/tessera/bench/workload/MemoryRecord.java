package org.tessera.bench.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.tessera.array.plan.Plan;
import org.tessera.graph.schedule.Callback;
import org.tessera.graph.schedule.ExecutionStatistics;

/**
 * The projected and the measured memory of each computation a workload runs: the plan as the
 * computation starts (a {@link org.tessera.array.plan.PlanObservers} observer) and the scheduler's
 * count as it ends (a {@link Callback}). Computations run one after another, so the n-th plan and
 * the n-th count belong together.
 */
final class MemoryRecord implements Callback, Consumer<Plan> {
    private final List<Long> projected = new ArrayList<>();
    private final List<Long> measured = new ArrayList<>();

    @Override
    public synchronized void accept(Plan plan) {
        projected.add(plan.projectedPeakBytes());
    }

    @Override
    public synchronized void statistics(ExecutionStatistics statistics) {
        measured.add(statistics.measuredPeakBytes());
    }

    synchronized void clear() {
        projected.clear();
        measured.clear();
    }

    /**
     * The largest projected and measured peaks, and for the computations both sides saw, the
     * largest measured/projected ratio and whether every measured peak stayed within its projection.
     */
    synchronized Map<String, Object> figures() {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("projected_peak_bytes", projected.stream().mapToLong(Long::longValue).max().orElse(0));
        figures.put("measured_peak_bytes", measured.stream().mapToLong(Long::longValue).max().orElse(0));
        int paired = Math.min(projected.size(), measured.size());
        double worst = 0;
        double least = Double.MAX_VALUE;
        for (int computation = 0; computation < paired; computation++) {
            double ratio = (double) measured.get(computation) / Math.max(1, projected.get(computation));
            worst = Math.max(worst, ratio);
            least = Math.min(least, ratio);
        }
        figures.put("computations", paired);
        if (paired > 0) {
            figures.put("measured_to_projected_max", worst);
            figures.put("measured_to_projected_min", least);
            figures.put("within_projection", worst <= 1.0);
        }
        return figures;
    }
}

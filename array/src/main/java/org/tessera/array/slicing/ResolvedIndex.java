package org.tessera.array.slicing;

import java.util.ArrayList;
import java.util.List;

import org.tessera.ndarray.NDArray;

/**
 * An index resolved against a shape: one selector per axis (plus new axes), in index order, and
 * the point arrays of the advanced part.
 *
 * <p>The "view" of an index is the array after its basic part: every selector applied except
 * {@link AxisSelector.Gathered}, which keeps its axis whole. Its axes are the selectors that are
 * not {@link AxisSelector.Point}. The point arrays then index the gathered view axes together.
 *
 * @param selectors     one per indexed axis and one per new axis, in index order
 * @param pointArrays   int64 arrays of in-bounds, non-negative positions, one per gathered axis
 * @param pointShape    the shape B the point arrays broadcast to (empty when there are none)
 * @param pointPosition where the B axes go among the view's other axes (NumPy's placement rule)
 */
record ResolvedIndex(List<AxisSelector> selectors, List<NDArray> pointArrays, long[] pointShape, int pointPosition) {

    ResolvedIndex {
        selectors = List.copyOf(selectors);
        pointArrays = List.copyOf(pointArrays);
        pointShape = pointShape.clone();
    }

    /** Whether the index has integer arrays (or masks), which gather points. */
    boolean gathers() {
        return !pointArrays.isEmpty();
    }

    /** The basic part: gathered axes kept whole. */
    List<AxisSelector> viewSelectors() {
        return selectors.stream().map(selector -> selector instanceof AxisSelector.Gathered ? (AxisSelector) new AxisSelector.Whole() : selector).toList();
    }

    /** The view axes of the gathered selectors, in index order. */
    int[] gatheredViewAxes() {
        List<Integer> axes = new ArrayList<>();
        int viewAxis = 0;
        for (AxisSelector selector : selectors) {
            if (selector instanceof AxisSelector.Gathered) {
                axes.add(viewAxis);
            }
            if (!(selector instanceof AxisSelector.Point)) {
                viewAxis++;
            }
        }
        return axes.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The point arrays in the order of {@link #gatheredViewAxes()}. */
    NDArray[] gatheredArrays() {
        return selectors.stream().filter(AxisSelector.Gathered.class::isInstance)
                .map(selector -> pointArrays.get(((AxisSelector.Gathered) selector).array())).toArray(NDArray[]::new);
    }
}

package org.tessera.ndarray.linalg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.dtype.Promotion;
import org.tessera.ndarray.error.ShapeMismatchException;
import org.tessera.ndarray.layout.Shapes;

/**
 * NumPy's {@code einsum} for explicit ({@code "ij,jk->ik"}) and implicit ({@code "ij,jk"}: the
 * labels used once, in alphabetical order) subscripts; {@code "..."} stands for broadcast axes
 * ({@code "...ij,...jk->...ik"}), and axes of length 1 broadcast against their label's length.
 *
 * <p>Evaluation: operands are cast to the promoted dtype; a label repeated within an operand takes
 * its diagonal (a view); a label no one else needs is summed away at once; then operands are
 * contracted left to right, each step one batched matmul of (batch, free, summed) by
 * (batch, summed, free). So {@code "bij,bjk->bik"} is one batched matmul and {@code "ii->"} a
 * diagonal and a sum. Sums keep the dtype, as NumPy's einsum does (int32 stays int32).
 */
public final class Einsum {
    private Einsum() {}

    private static final String ELLIPSIS = "...";
    private static final char FIRST_BROADCAST_LABEL = '\u03b1';

    /** An operand during evaluation: its array and the label of each axis. */
    private record Term(NDArray array, String labels) {}

    public static NDArray einsum(String subscripts, NDArray... operands) {
        String compact = subscripts.replace(" ", "");
        int arrow = compact.indexOf("->");
        String inputs = arrow < 0 ? compact : compact.substring(0, arrow);
        String[] inputLabels = inputs.split(",", -1);
        if (inputLabels.length != operands.length) {
            throw new IllegalArgumentException("einsum: '" + subscripts + "' names " + inputLabels.length
                    + " operands but " + operands.length + " were given");
        }
        int broadcastRank = 0;
        for (int i = 0; i < operands.length; i++) {
            int explicitCount = inputLabels[i].replace(ELLIPSIS, "").length();
            int rank = inputLabels[i].contains(ELLIPSIS) ? operands[i].ndim() - explicitCount : 0;
            if (rank < 0) {
                throw new IllegalArgumentException("einsum: operand " + i + " has " + operands[i].ndim()
                        + " dimensions but subscripts '" + inputLabels[i] + "' name " + explicitCount);
            }
            inputLabels[i] = inputLabels[i].replace(ELLIPSIS, broadcastLabels(rank));
            broadcastRank = Math.max(broadcastRank, rank);
        }
        String output = arrow < 0 ? broadcastLabels(broadcastRank) + implicitOutput(inputs.replace(ELLIPSIS, ""))
                : explicitOutput(subscripts, compact.substring(arrow + 2), broadcastRank);
        Map<Character, Long> lengths = checkLabels(subscripts, inputLabels, output, operands);
        DType dtype = operands[0].dtype();
        for (NDArray operand : operands) {
            dtype = Promotion.resultType(dtype, operand.dtype());
        }
        List<Term> terms = new ArrayList<>();
        for (int i = 0; i < operands.length; i++) {
            NDArray operand = Matmul.cast(operands[i], dtype);
            long[] stretched = inputLabels[i].chars().mapToLong(label -> lengths.get((char) label)).toArray();
            terms.add(takeDiagonals(new Term(operand.broadcastTo(stretched), inputLabels[i])));
        }
        Term current = sumUnneeded(terms.get(0), needed(output, terms, 1));
        for (int i = 1; i < terms.size(); i++) {
            String neededAfter = needed(output, terms, i + 1);
            current = contract(current, sumUnneeded(terms.get(i), neededAfter + current.labels()), neededAfter);
        }
        current = sumUnneeded(current, output);
        return current.array().transpose(positions(current.labels(), output)).copy();
    }

    /**
     * Labels standing for the axes an ellipsis covers, aligned from the right as broadcasting aligns
     * them: the last covered axis of every operand gets the same label. Greek letters, so they never
     * clash with the Latin labels einsum accepts.
     */
    private static String broadcastLabels(int rank) {
        StringBuilder labels = new StringBuilder();
        for (int fromRight = rank - 1; fromRight >= 0; fromRight--) {
            labels.append((char) (FIRST_BROADCAST_LABEL + fromRight));
        }
        return labels.toString();
    }

    private static String explicitOutput(String subscripts, String output, int broadcastRank) {
        if (!output.contains(ELLIPSIS) && broadcastRank > 0) {
            throw new IllegalArgumentException("einsum: output has more dimensions than subscripts given in '" + subscripts
                    + "', but no '...' ellipsis provided to broadcast the extra dimensions.");
        }
        return output.replace(ELLIPSIS, broadcastLabels(broadcastRank));
    }

    /** The labels that occur exactly once, sorted: NumPy's implicit output. */
    private static String implicitOutput(String inputs) {
        StringBuilder output = new StringBuilder();
        inputs.chars().filter(Character::isLetter).distinct().sorted()
                .filter(label -> inputs.chars().filter(c -> c == label).count() == 1)
                .forEach(label -> output.append((char) label));
        return output.toString();
    }

    private static Map<Character, Long> checkLabels(String subscripts, String[] inputLabels, String output, NDArray[] operands) {
        Map<Character, Long> lengths = new HashMap<>();
        for (int i = 0; i < operands.length; i++) {
            String labels = inputLabels[i];
            if (labels.length() != operands[i].ndim()) {
                throw new IllegalArgumentException("einsum: operand " + i + " has " + operands[i].ndim()
                        + " dimensions but subscripts '" + labels + "' name " + labels.length());
            }
            for (int axis = 0; axis < labels.length(); axis++) {
                char label = labels.charAt(axis);
                if (!Character.isLetter(label) || label == '.') {
                    throw new IllegalArgumentException("einsum: invalid subscript '" + label + "' in '" + subscripts + "'");
                }
                long length = operands[i].shape(axis);
                Long known = lengths.putIfAbsent(label, length);
                if (known != null && known == 1) {
                    lengths.put(label, length); // a length of 1 broadcasts, as in NumPy
                } else if (known != null && known != length && length != 1) {
                    throw new ShapeMismatchException("einsum: label '" + label + "' has length " + known
                            + " and, in operand " + i + ", " + operands[i].shape(axis) + " ('" + subscripts + "')");
                }
            }
        }
        for (int k = 0; k < output.length(); k++) {
            char label = output.charAt(k);
            if (!lengths.containsKey(label) || output.indexOf(label) != k) {
                throw new IllegalArgumentException("einsum: output subscript '" + label + "' "
                        + (lengths.containsKey(label) ? "appears more than once" : "does not appear in the inputs")
                        + " in '" + subscripts + "'");
            }
        }
        return lengths;
    }

    /** Labels that the output or the terms from {@code from} on still use. */
    private static String needed(String output, List<Term> terms, int from) {
        StringBuilder labels = new StringBuilder(output);
        for (int i = from; i < terms.size(); i++) {
            labels.append(terms.get(i).labels());
        }
        return labels.toString();
    }

    /** A label repeated within one operand selects its diagonal (NumPy's "ii" trace semantics). */
    private static Term takeDiagonals(Term term) {
        String labels = term.labels();
        NDArray array = term.array();
        for (int first = 0; first < labels.length(); first++) {
            int second = labels.indexOf(labels.charAt(first), first + 1);
            if (second >= 0) {
                NDArray diagonal = array.diagonal(0, first, second);
                String rest = labels.substring(0, first) + labels.substring(first + 1, second) + labels.substring(second + 1);
                return takeDiagonals(new Term(diagonal, rest + labels.charAt(first)));
            }
        }
        return term;
    }

    /** Sums away the axes whose labels {@code keep} does not contain, keeping the dtype. */
    private static Term sumUnneeded(Term term, String keep) {
        StringBuilder kept = new StringBuilder();
        StringBuilder summed = new StringBuilder();
        for (char label : term.labels().toCharArray()) {
            (keep.indexOf(label) >= 0 ? kept : summed).append(label);
        }
        if (summed.isEmpty()) {
            return term;
        }
        NDArray arranged = term.array().transpose(positions(term.labels(), kept.toString() + summed));
        long[] keptShape = Arrays.copyOf(arranged.shape(), kept.length());
        long summedLength = AxisLists.product(arranged, IntStream.range(kept.length(), arranged.ndim()).toArray());
        NDArray ones = NDArray.zeros(arranged.dtype(), summedLength);
        ones.fill(1L);
        NDArray matrix = arranged.reshape(AxisLists.concat(keptShape, new long[] {summedLength}));
        return new Term(Matmul.matmul(matrix, ones), kept.toString());
    }

    /** One batched matmul: shared labels still needed are batch axes, the other shared ones are summed. */
    private static Term contract(Term left, Term right, String neededAfter) {
        StringBuilder batch = new StringBuilder(), summed = new StringBuilder();
        StringBuilder leftFree = new StringBuilder(), rightFree = new StringBuilder();
        for (char label : left.labels().toCharArray()) {
            if (right.labels().indexOf(label) < 0) {
                leftFree.append(label);
            } else {
                (neededAfter.indexOf(label) >= 0 ? batch : summed).append(label);
            }
        }
        for (char label : right.labels().toCharArray()) {
            if (left.labels().indexOf(label) < 0) {
                rightFree.append(label);
            }
        }
        NDArray leftArranged = left.array().transpose(positions(left.labels(), "" + batch + leftFree + summed));
        NDArray rightArranged = right.array().transpose(positions(right.labels(), "" + batch + summed + rightFree));
        int batchAxes = batch.length();
        long[] batchShape = Arrays.copyOf(leftArranged.shape(), batchAxes);
        long[] leftFreeShape = Arrays.copyOfRange(leftArranged.shape(), batchAxes, batchAxes + leftFree.length());
        long[] rightFreeShape = Arrays.copyOfRange(rightArranged.shape(), batchAxes + summed.length(), rightArranged.ndim());
        long batchSize = Shapes.size(batchShape);
        long rows = Shapes.size(leftFreeShape);
        long columns = Shapes.size(rightFreeShape);
        long depth = 1;
        for (int k = 0; k < summed.length(); k++) {
            depth *= leftArranged.shape(batchAxes + leftFree.length() + k);
        }
        NDArray product = Matmul.matmul(leftArranged.reshape(batchSize, rows, depth), rightArranged.reshape(batchSize, depth, columns));
        long[] shape = AxisLists.concat(AxisLists.concat(batchShape, leftFreeShape), rightFreeShape);
        return new Term(product.reshape(shape), "" + batch + leftFree + rightFree);
    }

    /** For each label of {@code order}, its axis in {@code labels}. */
    private static int[] positions(String labels, String order) {
        int[] axes = new int[order.length()];
        for (int k = 0; k < axes.length; k++) {
            axes[k] = labels.indexOf(order.charAt(k));
        }
        return axes;
    }
}

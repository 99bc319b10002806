package org.tessera.graph.layer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

import org.tessera.graph.GraphException;
import org.tessera.graph.Key;
import org.tessera.graph.Task;
import org.tessera.graph.TaskFunction;
import org.tessera.graph.layer.BlockwiseArgument.BlockIndex;
import org.tessera.graph.layer.BlockwiseArgument.Blocks;
import org.tessera.graph.layer.BlockwiseArgument.Constant;

/**
 * A layer in index notation, as Dask's {@code blockwise}: output block {@code (i, j)} is
 * {@code function} applied to the arguments with the letters of their patterns set to the block
 * index; letters the output lacks are contracted (the argument becomes a list of blocks along them).
 * It holds no tasks: a graph of a million blocks costs a few objects until a task is asked for.
 *
 * @param name          the layer name, also the name of every output key
 * @param outputIndices one letter per output block axis
 * @param function      applied to the arguments of each block
 * @param arguments     the arguments in order
 * @param blockCounts   blocks along each letter (output and contracted letters)
 * @param restriction   the output keys kept by culling, or null for all
 */
public record BlockwiseLayer(String name, String outputIndices, TaskFunction function, List<BlockwiseArgument> arguments,
                             Map<Character, Integer> blockCounts, Set<Key> restriction) implements Layer {

    public BlockwiseLayer {
        arguments = List.copyOf(arguments);
        blockCounts = Collections.unmodifiableMap(new LinkedHashMap<>(blockCounts));
        restriction = restriction == null ? null : Collections.unmodifiableSet(new LinkedHashSet<>(restriction));
        for (char letter : outputIndices.toCharArray()) {
            if (outputIndices.indexOf(letter) != outputIndices.lastIndexOf(letter)) {
                throw new IllegalArgumentException("blockwise " + name + ": output pattern '" + outputIndices + "' repeats letter " + letter);
            }
            requireCount(name, blockCounts, letter, "output");
        }
        for (BlockwiseArgument argument : arguments) {
            if (argument instanceof Blocks blocks) {
                for (int position = 0; position < blocks.indices().length(); position++) {
                    char letter = blocks.indices().charAt(position);
                    int layerCount = requireCount(name, blockCounts, letter, "input " + blocks.name());
                    int inputCount = blocks.blockCounts()[position];
                    if (inputCount != layerCount && inputCount != 1) {
                        throw new IllegalArgumentException("blockwise " + name + ": input " + blocks.name() + " has " + inputCount
                                + " blocks along '" + letter + "' but the layer has " + layerCount + " (only 1 broadcasts)");
                    }
                }
            } else if (argument instanceof BlockIndex index) {
                for (char letter : index.indices().toCharArray()) {
                    requireCount(name, blockCounts, letter, "block index");
                }
            }
        }
    }

    /** A layer over every output block. */
    public static BlockwiseLayer of(String name, String outputIndices, TaskFunction function, Map<Character, Integer> blockCounts,
                                    BlockwiseArgument... arguments) {
        return new BlockwiseLayer(name, outputIndices, function, List.of(arguments), blockCounts, null);
    }

    private static int requireCount(String name, Map<Character, Integer> blockCounts, char letter, String where) {
        Integer count = blockCounts.get(letter);
        if (count == null || count < 0) {
            throw new IllegalArgumentException("blockwise " + name + ": letter '" + letter + "' of the " + where
                    + " pattern has no block count in " + blockCounts);
        }
        return count;
    }

    /** The letters that arguments use but the output does not, in order of first use. */
    public String contractedIndices() {
        StringBuilder contracted = new StringBuilder();
        for (BlockwiseArgument argument : arguments) {
            if (argument instanceof Blocks blocks) {
                for (char letter : blocks.indices().toCharArray()) {
                    if (outputIndices.indexOf(letter) < 0 && contracted.indexOf(String.valueOf(letter)) < 0) {
                        contracted.append(letter);
                    }
                }
            }
        }
        return contracted.toString();
    }

    /** Names of the layers this one reads. */
    public Set<String> inputLayers() {
        Set<String> names = new LinkedHashSet<>();
        for (BlockwiseArgument argument : arguments) {
            if (argument instanceof Blocks blocks) {
                names.add(blocks.name());
            }
        }
        return names;
    }

    private long fullSize() {
        long size = 1;
        for (char letter : outputIndices.toCharArray()) {
            size *= blockCounts.get(letter);
        }
        return size;
    }

    @Override
    public long size() {
        return restriction == null ? fullSize() : restriction.size();
    }

    @Override
    public Iterable<Key> keys() {
        return restriction != null ? restriction : () -> new GridIterator(name, outputIndices.chars().map(letter -> blockCounts.get((char) letter)).toArray());
    }

    @Override
    public boolean contains(Key key) {
        if (restriction != null) {
            return restriction.contains(key);
        }
        if (!key.name().equals(name) || key.rank() != outputIndices.length()) {
            return false;
        }
        for (int axis = 0; axis < key.rank(); axis++) {
            if (key.index(axis) >= blockCounts.get(outputIndices.charAt(axis))) {
                return false;
            }
        }
        return true;
    }

    private int[] letterValues(Key key) {
        return letterValues(key, new int[128]);
    }

    /** The block position of each letter (indexed by the letter's char), written into {@code values}. */
    private int[] letterValues(Key key, int[] values) {
        if (!contains(key)) {
            throw new GraphException("blockwise layer " + name + " (blocks " + blockCounts + ") has no key " + key, List.of(key));
        }
        for (int axis = 0; axis < key.rank(); axis++) {
            values[outputIndices.charAt(axis)] = key.index(axis);
        }
        return values;
    }

    @Override
    public Task task(Key key) {
        return task(key, new int[128]);
    }

    /**
     * A function giving the task of each key asked, for callers that build many tasks one at a
     * time (fusing this layer into a reader): its scratch for the letters is allocated once. Not
     * for use by several threads at once.
     */
    public java.util.function.Function<Key, Task> taskBuilder() {
        int[] values = new int[128];
        return key -> task(key, values);
    }

    /** The task of {@code key}, with {@code values} as scratch: every letter it reads is written first. */
    private Task task(Key key, int[] values) {
        letterValues(key, values);
        List<Task> tasks = new ArrayList<>(arguments.size());
        for (BlockwiseArgument argument : arguments) {
            tasks.add(switch (argument) {
                case Constant constant -> Task.literal(constant.value());
                case BlockIndex index -> Task.literal(blockIndex(index.indices(), values));
                case Blocks blocks -> blocksTask(blocks, values, 0);
            });
        }
        return new Task.Call(function, tasks);
    }

    private static int[] blockIndex(String letters, int[] values) {
        int[] index = new int[letters.length()];
        for (int position = 0; position < index.length; position++) {
            index[position] = values[letters.charAt(position)];
        }
        return index;
    }

    /** A reference to one block, or nested lists along the contracted letters from {@code position} on. */
    private Task blocksTask(Blocks blocks, int[] values, int position) {
        String indices = blocks.indices();
        for (int at = position; at < indices.length(); at++) {
            char letter = indices.charAt(at);
            if (outputIndices.indexOf(letter) < 0) {
                int count = blocks.blockCounts()[at];
                List<Task> items = new ArrayList<>(count);
                for (int block = 0; block < count; block++) {
                    values[letter] = block;
                    items.add(blocksTask(blocks, values, at + 1));
                }
                return new Task.TaskList(items);
            }
        }
        return Task.ref(blockKey(blocks, values));
    }

    private static Key blockKey(Blocks blocks, int[] values) {
        int[] index = new int[blocks.indices().length()];
        for (int axis = 0; axis < index.length; axis++) {
            index[axis] = blocks.blockCounts()[axis] == 1 ? 0 : values[blocks.indices().charAt(axis)];
        }
        return Key.of(blocks.name(), index);
    }

    @Override
    public Set<Key> inputKeys(Key key) {
        int[] values = letterValues(key);
        Set<Key> keys = new LinkedHashSet<>();
        for (BlockwiseArgument argument : arguments) {
            if (argument instanceof Blocks blocks) {
                collectKeys(blocks, values, 0, keys);
            }
        }
        return keys;
    }

    private void collectKeys(Blocks blocks, int[] values, int position, Set<Key> keys) {
        String indices = blocks.indices();
        for (int at = position; at < indices.length(); at++) {
            char letter = indices.charAt(at);
            if (outputIndices.indexOf(letter) < 0) {
                for (int block = 0; block < blocks.blockCounts()[at]; block++) {
                    values[letter] = block;
                    collectKeys(blocks, values, at + 1, keys);
                }
                return;
            }
        }
        keys.add(blockKey(blocks, values));
    }

    @Override
    public Layer cull(Set<Key> wanted) {
        if (wanted.size() == size()) {
            return this;
        }
        return new BlockwiseLayer(name, outputIndices, function, arguments, blockCounts, wanted);
    }

    @Override
    public boolean isMaterialized() {
        return false;
    }

    @Override
    public Map<Key, Task> materialize() {
        Map<Key, Task> tasks = new LinkedHashMap<>();
        for (Key key : keys()) {
            tasks.put(key, task(key));
        }
        return tasks;
    }

    @Override
    public void materializeInto(org.tessera.graph.TaskGraph.Builder graph) {
        // One scratch array for the whole layer: a million blocks would otherwise allocate 512 MB of them.
        int[] values = new int[128];
        for (Key key : keys()) {
            graph.put(key, task(key, values));
        }
    }

    /** The keys of a block grid in C order. */
    private static final class GridIterator implements Iterator<Key> {
        private final String name;
        private final int[] counts;
        private final int[] next;
        private boolean more;

        GridIterator(String name, int[] counts) {
            this.name = name;
            this.counts = counts;
            this.next = new int[counts.length];
            boolean empty = false;
            for (int count : counts) {
                empty |= count == 0;
            }
            this.more = !empty;
        }

        @Override
        public boolean hasNext() {
            return more;
        }

        @Override
        public Key next() {
            if (!more) {
                throw new NoSuchElementException();
            }
            Key key = Key.of(name, next);
            int axis = counts.length - 1;
            while (axis >= 0 && ++next[axis] == counts[axis]) {
                next[axis] = 0;
                axis--;
            }
            more = axis >= 0;
            return key;
        }
    }
}

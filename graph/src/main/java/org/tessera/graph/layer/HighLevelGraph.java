package org.tessera.graph.layer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.GraphException;
import org.tessera.graph.Key;
import org.tessera.graph.TaskGraph;
import org.tessera.graph.memory.Footprint;

/**
 * A graph as named layers with dependencies between layers, as Dask's {@code HighLevelGraph}.
 * Layers are kept in the order they were added, which is a topological order: a layer is added
 * after the layers it reads. Culling and blockwise fusion work on layers; {@link #materialize()}
 * gives the low-level {@link TaskGraph} that schedulers run.
 */
public final class HighLevelGraph {
    private final Map<String, Layer> layers;
    private final Map<String, Set<String>> dependencies;
    /** What each layer's tasks allocate, as its operation declared it (see {@link Footprint}); kept by layer name through every rewrite. */
    private final Map<String, Footprint> footprints;

    private HighLevelGraph(Map<String, Layer> layers, Map<String, Set<String>> dependencies, Map<String, Footprint> footprints) {
        this.layers = Collections.unmodifiableMap(layers);
        this.dependencies = Collections.unmodifiableMap(dependencies);
        this.footprints = Collections.unmodifiableMap(footprints);
    }

    private HighLevelGraph(Map<String, Layer> layers, Map<String, Set<String>> dependencies) {
        this(layers, dependencies, new HashMap<>());
    }

    public static HighLevelGraph empty() {
        return new HighLevelGraph(new LinkedHashMap<>(), new LinkedHashMap<>());
    }

    /** The footprint declared for layer {@code name}, or null where none was. */
    public Footprint footprint(String name) {
        return footprints.get(name);
    }

    /** Every declared footprint, by layer name. */
    public Map<String, Footprint> footprints() {
        return footprints;
    }

    /** This graph with {@code footprint} declared for layer {@code name} (which need not be here yet), replacing any before. */
    public HighLevelGraph withFootprint(String name, Footprint footprint) {
        if (footprint == null || footprint.equals(footprints.get(name))) {
            return this;
        }
        Map<String, Footprint> declared = new HashMap<>(footprints);
        declared.put(name, footprint);
        return new HighLevelGraph(layers, dependencies, declared);
    }

    /** This graph with the footprints of {@code other} where this one declares none for a layer. */
    public HighLevelGraph withFootprintsOf(HighLevelGraph other) {
        if (other.footprints.isEmpty() || footprints.keySet().containsAll(other.footprints.keySet())) {
            return this;
        }
        Map<String, Footprint> declared = new HashMap<>(other.footprints);
        declared.putAll(footprints);
        return new HighLevelGraph(layers, dependencies, declared);
    }

    /** A graph of one layer on top of the layers of {@code inputs}. */
    public static HighLevelGraph fromLayer(Layer layer, Set<String> layerDependencies, HighLevelGraph... inputs) {
        return merge(inputs).with(layer, layerDependencies);
    }

    /**
     * The union of several graphs. Layers of the same name are taken to be the same layer, as in
     * Dask, where names are tokens of what a layer computes; the first one is kept.
     */
    public static HighLevelGraph merge(HighLevelGraph... graphs) {
        Map<String, Layer> layers = new LinkedHashMap<>();
        Map<String, Set<String>> dependencies = new LinkedHashMap<>();
        Map<String, Footprint> footprints = new HashMap<>();
        for (HighLevelGraph graph : graphs) {
            graph.layers.forEach(layers::putIfAbsent);
            graph.dependencies.forEach(dependencies::putIfAbsent);
            graph.footprints.forEach(footprints::putIfAbsent);
        }
        return new HighLevelGraph(layers, dependencies, footprints);
    }

    /** This graph with one more layer reading {@code layerDependencies}, which must be here. */
    public HighLevelGraph with(Layer layer, Set<String> layerDependencies) {
        for (String dependency : layerDependencies) {
            if (!layers.containsKey(dependency)) {
                throw new IllegalArgumentException("layer " + layer.name() + " reads layer " + dependency
                        + ", which the graph lacks (it has " + layers.keySet() + ")");
            }
        }
        Map<String, Layer> newLayers = new LinkedHashMap<>(layers);
        newLayers.remove(layer.name());
        newLayers.put(layer.name(), layer);
        Map<String, Set<String>> newDependencies = new LinkedHashMap<>(dependencies);
        newDependencies.put(layer.name(), Set.copyOf(layerDependencies));
        return new HighLevelGraph(newLayers, newDependencies, footprints);
    }

    /**
     * This graph with layer {@code layer.name()}, which must be here, replaced by {@code layer} reading
     * {@code layerDependencies}. The layers are put back in a topological order, the present one as
     * far as it allows, since the new layer may read a layer that was added after the old one.
     */
    public HighLevelGraph replacing(Layer layer, Set<String> layerDependencies) {
        if (!layers.containsKey(layer.name())) {
            throw new IllegalArgumentException("the graph has no layer " + layer.name() + " to replace (it has " + layers.keySet() + ")");
        }
        Map<String, Set<String>> newDependencies = new LinkedHashMap<>(dependencies);
        newDependencies.put(layer.name(), Set.copyOf(layerDependencies));
        Map<String, Layer> sorted = new LinkedHashMap<>();
        Set<String> visiting = new HashSet<>();
        for (String name : layers.keySet()) {
            addAfterDependencies(name, layer, newDependencies, sorted, visiting);
        }
        return new HighLevelGraph(sorted, newDependencies, footprints);
    }

    private void addAfterDependencies(String name, Layer replacement, Map<String, Set<String>> newDependencies, Map<String, Layer> sorted, Set<String> visiting) {
        if (sorted.containsKey(name)) {
            return;
        }
        if (!visiting.add(name)) {
            throw new GraphException("replacing layer " + replacement.name() + " makes a cycle through layer " + name, List.of());
        }
        for (String dependency : newDependencies.getOrDefault(name, Set.of())) {
            if (!layers.containsKey(dependency)) {
                throw new IllegalArgumentException("layer " + name + " reads layer " + dependency + ", which the graph lacks (it has " + layers.keySet() + ")");
            }
            addAfterDependencies(dependency, replacement, newDependencies, sorted, visiting);
        }
        sorted.put(name, name.equals(replacement.name()) ? replacement : layers.get(name));
    }

    public Map<String, Layer> layers() {
        return layers;
    }

    public Layer layer(String name) {
        Layer layer = layers.get(name);
        if (layer == null) {
            throw new IllegalArgumentException("the graph has no layer " + name + " (it has " + layers.keySet() + ")");
        }
        return layer;
    }

    /** Names of the layers that {@code name} reads. */
    public Set<String> dependencies(String name) {
        return dependencies.getOrDefault(name, Set.of());
    }

    /** Names of the layers that read {@code name}. */
    public Set<String> dependents(String name) {
        Set<String> readers = new LinkedHashSet<>();
        dependencies.forEach((layer, reads) -> {
            if (reads.contains(name)) {
                readers.add(layer);
            }
        });
        return readers;
    }

    /** The number of tasks, counted without building any. */
    public long taskCount() {
        return layers.values().stream().mapToLong(Layer::size).sum();
    }

    /**
     * {@code keys} and every key of the same layer they read, directly or through each other: a
     * layer may chain its own keys (a scan's carries), and the layers are visited once each.
     */
    private static Set<Key> readsWithinLayer(Layer layer, Set<Key> keys) {
        Set<Key> closed = new HashSet<>(keys);
        java.util.ArrayDeque<Key> pending = new java.util.ArrayDeque<>(keys);
        while (!pending.isEmpty()) {
            for (Key input : layer.inputKeys(pending.pop())) {
                if (input.name().equals(layer.name()) && closed.add(input)) {
                    pending.push(input);
                }
            }
        }
        return closed;
    }

    /**
     * The graph reduced to what {@code outputs} need, layer by layer from the last. A layer needed
     * whole is passed on whole, so culling a symbolic layer of a million blocks to all its blocks
     * neither lists its keys nor builds its tasks.
     */
    public HighLevelGraph cull(Collection<Key> outputs) {
        // Keys of a symbolic layer are listed only where part of it is wanted.
        Map<String, Set<Key>> wanted = new HashMap<>();
        for (Key output : outputs) {
            Layer layer = layers.get(output.name());
            if (layer == null || !layer.contains(output)) {
                throw new GraphException("requested key " + output + " is not in the graph", List.of(output));
            }
            wanted.computeIfAbsent(output.name(), name -> new HashSet<>()).add(output);
        }
        Set<String> wholeLayers = new HashSet<>();
        List<String> names = new ArrayList<>(layers.keySet());
        Map<String, Layer> kept = new LinkedHashMap<>();
        for (String name : names.reversed()) {
            Layer layer = layers.get(name);
            Set<Key> keys = wanted.get(name);
            boolean whole = wholeLayers.contains(name) || (keys != null && keys.size() == layer.size());
            if (whole && layer instanceof BlockwiseLayer) {
                // A blockwise layer over all its blocks reads all blocks of its inputs.
                kept.put(name, layer);
                wholeLayers.addAll(dependencies(name));
            } else if (whole || keys != null) {
                Layer culled = whole ? layer : layer.cull(readsWithinLayer(layer, keys));
                kept.put(name, culled);
                List<Key> inputs = new ArrayList<>();
                for (Key key : culled.keys()) {
                    inputs.clear();
                    culled.collectInputKeys(key, inputs);
                    for (Key input : inputs) {
                        if (!wholeLayers.contains(input.name())) {
                            wanted.computeIfAbsent(input.name(), reader -> new HashSet<>()).add(input);
                        }
                    }
                }
            }
        }
        Map<String, Layer> ordered = new LinkedHashMap<>();
        Map<String, Set<String>> keptDependencies = new LinkedHashMap<>();
        for (String name : names) {
            if (kept.containsKey(name)) {
                ordered.put(name, kept.get(name));
                Set<String> reads = new LinkedHashSet<>(dependencies(name));
                reads.retainAll(kept.keySet());
                keptDependencies.put(name, reads);
            }
        }
        return new HighLevelGraph(ordered, keptDependencies, footprints);
    }

    /** Every task of every layer, as the low-level graph a scheduler runs. */
    public TaskGraph materialize() {
        TaskGraph.Builder tasks = TaskGraph.builder();
        layers.values().forEach(layer -> layer.materializeInto(tasks));
        return tasks.build();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("HighLevelGraph[");
        layers.forEach((name, layer) -> text.append('\n').append("  ").append(name).append(": ")
                .append(layer.isMaterialized() ? "materialized" : "blockwise").append(", ").append(layer.size())
                .append(" tasks, reads ").append(dependencies(name)));
        return text.append(']').toString();
    }
}

package org.tessera.graph.layer;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.tessera.graph.GraphException;
import org.tessera.graph.Key;
import org.tessera.graph.Task;

/** A layer whose tasks are held in a map: for small or irregular layers (reductions, rechunks). */
public record MaterializedLayer(String name, Map<Key, Task> tasks) implements Layer {

    public MaterializedLayer {
        tasks = Collections.unmodifiableMap(new LinkedHashMap<>(tasks));
        for (Key key : tasks.keySet()) {
            if (!key.name().equals(name)) {
                throw new GraphException("layer " + name + " holds key " + key + " of another name", List.of(key));
            }
        }
    }

    @Override
    public long size() {
        return tasks.size();
    }

    @Override
    public Iterable<Key> keys() {
        return tasks.keySet();
    }

    @Override
    public boolean contains(Key key) {
        return tasks.containsKey(key);
    }

    @Override
    public Task task(Key key) {
        Task task = tasks.get(key);
        if (task == null) {
            throw new GraphException("layer " + name + " has no key " + key, List.of(key));
        }
        return task;
    }

    @Override
    public Set<Key> inputKeys(Key key) {
        return task(key).dependencies();
    }

    @Override
    public void collectInputKeys(Key key, Collection<Key> keys) {
        task(key).collectDependencies(keys);
    }

    @Override
    public Layer cull(Set<Key> wanted) {
        if (wanted.size() == tasks.size()) {
            return this;
        }
        Map<Key, Task> kept = new LinkedHashMap<>();
        wanted.forEach(key -> kept.put(key, task(key)));
        return new MaterializedLayer(name, kept);
    }

    @Override
    public boolean isMaterialized() {
        return true;
    }

    @Override
    public Map<Key, Task> materialize() {
        return tasks;
    }
}

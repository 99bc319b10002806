package org.tessera.io.zarr;

import java.io.IOException;
import java.util.List;
import java.util.TreeSet;

import org.tessera.io.store.Store;
import org.tessera.io.store.StoreKeys;

/** Questions about the nodes (groups and arrays) of a Zarr hierarchy, asked of its store's keys. */
final class ZarrNodes {
    static final List<String> METADATA_KEYS = List.of(".zarray", ".zgroup", "zarr.json");

    private ZarrNodes() {
    }

    static boolean exists(Store store, String node) throws IOException {
        for (String key : METADATA_KEYS) {
            if (store.contains(StoreKeys.join(node, key))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Creates a group of {@code zarrFormat} at every ancestor of {@code node} that has no node yet,
     * the root included, as zarr-python does, so that the new node can be reached from the root.
     */
    static void createMissingParents(Store store, String node, int zarrFormat) throws IOException {
        if (node.isEmpty()) {
            return;
        }
        int slash = node.lastIndexOf('/');
        String parent = slash < 0 ? "" : node.substring(0, slash);
        if (!exists(store, parent)) {
            ZarrGroup.create(store, parent, zarrFormat);
        }
    }

    /** Deletes the node's metadata and everything under it. */
    static void deleteNode(Store store, String node) throws IOException {
        if (node.isEmpty()) {
            for (String key : store.list("")) {
                store.delete(key);
            }
        } else {
            store.deletePrefix(node);
        }
    }

    /** The names of the direct children of {@code node} that are groups or arrays, sorted. */
    static List<String> children(Store store, String node) throws IOException {
        String prefix = node.isEmpty() ? "" : node + "/";
        TreeSet<String> names = new TreeSet<>();
        for (String key : store.list(prefix)) {
            String rest = key.substring(prefix.length());
            int slash = rest.indexOf('/');
            if (slash > 0 && METADATA_KEYS.contains(rest.substring(slash + 1))) {
                names.add(rest.substring(0, slash));
            }
        }
        return List.copyOf(names);
    }
}

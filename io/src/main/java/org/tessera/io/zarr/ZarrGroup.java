package org.tessera.io.zarr;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.tessera.io.store.Store;
import org.tessera.io.store.StoreKeys;

/**
 * A Zarr group: a node with attributes whose children are groups and arrays. Version 2 keeps it
 * in {@code .zgroup} and {@code .zattrs}, version 3 in a {@code zarr.json} with node_type "group".
 * Children are created in the group's format.
 */
public final class ZarrGroup {
    private final Store store;
    private final String path;
    private final int zarrFormat;
    private final Map<String, Object> attributes;

    private ZarrGroup(Store store, String path, int zarrFormat, Map<String, Object> attributes) {
        this.store = store;
        this.path = path;
        this.zarrFormat = zarrFormat;
        this.attributes = new LinkedHashMap<>(attributes);
    }

    /** Creates a group of format 2 or 3 at {@code path}, or fails when a node is there already. */
    public static ZarrGroup create(Store store, String path, int zarrFormat, Map<String, ?> attributes) throws IOException {
        if (zarrFormat != 2 && zarrFormat != 3) {
            throw new IllegalArgumentException("zarr format must be 2 or 3, got " + zarrFormat);
        }
        String node = StoreKeys.normalizePath(path);
        if (ZarrNodes.exists(store, node)) {
            throw new FileAlreadyExistsException(store.describe() + ": a Zarr node already exists at path \"" + node + "\"");
        }
        ZarrNodes.createMissingParents(store, node, zarrFormat);
        ZarrGroup group = new ZarrGroup(store, node, zarrFormat, new LinkedHashMap<>(attributes));
        group.writeMetadata();
        return group;
    }

    public static ZarrGroup create(Store store, String path, int zarrFormat) throws IOException {
        return create(store, path, zarrFormat, Map.of());
    }

    public static ZarrGroup open(Store store, String path) throws IOException {
        String node = StoreKeys.normalizePath(path);
        if (store.contains(StoreKeys.join(node, ".zgroup"))) {
            String where = store.describe() + ": " + StoreKeys.join(node, ".zgroup");
            int format = ZarrJson.intField(ZarrJson.parse(store.get(StoreKeys.join(node, ".zgroup")).orElseThrow(), where), "zarr_format", -1, where);
            if (format != 2) {
                throw new ZarrFormatException(where + ": zarr_format is " + format + ", expected 2");
            }
            Optional<byte[]> attributes = store.get(StoreKeys.join(node, ".zattrs"));
            return new ZarrGroup(store, node, 2, attributes.isPresent()
                    ? ZarrJson.toMap(ZarrJson.parse(attributes.get(), store.describe() + ": " + StoreKeys.join(node, ".zattrs"))) : Map.of());
        }
        Optional<byte[]> version3 = store.get(StoreKeys.join(node, "zarr.json"));
        if (version3.isPresent()) {
            String where = store.describe() + ": " + StoreKeys.join(node, "zarr.json");
            JsonNode json = ZarrJson.parse(version3.get(), where);
            String nodeType = ZarrJson.textField(json, "node_type", "", where);
            if (ZarrJson.intField(json, "zarr_format", -1, where) != 3 || !nodeType.equals("group")) {
                throw new ZarrFormatException(where + ": expected a version 3 group, found zarr_format " + json.get("zarr_format") + " node_type \"" + nodeType + "\"");
            }
            return new ZarrGroup(store, node, 3, ZarrJson.attributes(json, where));
        }
        throw new NoSuchFileException(store.describe() + ": no Zarr group at path \"" + node + "\" (neither .zgroup nor zarr.json)");
    }

    private void writeMetadata() throws IOException {
        if (zarrFormat == 2) {
            store.set(StoreKeys.join(path, ".zgroup"), ZarrJson.write(ZarrJson.object().put("zarr_format", 2)));
            if (!attributes.isEmpty()) {
                store.set(StoreKeys.join(path, ".zattrs"), ZarrJson.write(ZarrJson.fromMap(attributes)));
            }
        } else {
            ObjectNode json = ZarrJson.object().put("zarr_format", 3).put("node_type", "group");
            json.set("attributes", ZarrJson.fromMap(attributes));
            store.set(StoreKeys.join(path, "zarr.json"), ZarrJson.write(json));
        }
    }

    public Store store() {
        return store;
    }

    public String path() {
        return path;
    }

    public int zarrFormat() {
        return zarrFormat;
    }

    public Map<String, Object> attributes() {
        return new LinkedHashMap<>(attributes);
    }

    /** This group with its attributes replaced, written to the store. */
    public ZarrGroup withAttributes(Map<String, ?> newAttributes) throws IOException {
        ZarrGroup updated = new ZarrGroup(store, path, zarrFormat, new LinkedHashMap<>(newAttributes));
        if (zarrFormat == 2) {
            store.set(StoreKeys.join(path, ".zattrs"), ZarrJson.write(ZarrJson.fromMap(newAttributes)));
        } else {
            updated.writeMetadata();
        }
        return updated;
    }

    /** The names of the child groups and arrays, sorted. */
    public List<String> memberNames() throws IOException {
        return ZarrNodes.children(store, path);
    }

    public ZarrGroup createGroup(String name) throws IOException {
        return create(store, StoreKeys.join(path, childName(name)), zarrFormat);
    }

    public ZarrGroup group(String name) throws IOException {
        return open(store, StoreKeys.join(path, childName(name)));
    }

    /** Creates a child array; its metadata must have this group's format. */
    public ZarrArray createArray(String name, ArrayMetadata metadata) throws IOException {
        if (metadata.zarrFormat() != zarrFormat) {
            throw new IllegalArgumentException("cannot create a Zarr v" + metadata.zarrFormat() + " array in the v" + zarrFormat + " group \"" + path + "\"");
        }
        return ZarrArray.create(store, StoreKeys.join(path, childName(name)), metadata);
    }

    public ZarrArray array(String name) throws IOException {
        return ZarrArray.open(store, StoreKeys.join(path, childName(name)));
    }

    private static String childName(String name) {
        return StoreKeys.normalizePath(name);
    }

    @Override
    public String toString() {
        return "Zarr v" + zarrFormat + " group " + (path.isEmpty() ? "/" : "\"" + path + "\"") + " in " + store.describe();
    }
}

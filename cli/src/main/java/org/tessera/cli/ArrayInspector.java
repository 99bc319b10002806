package org.tessera.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.tessera.io.hdf5.Hdf5;
import org.tessera.io.hdf5.Hdf5Dataset;
import org.tessera.io.store.Store;
import org.tessera.io.store.StoreKeys;
import org.tessera.io.zarr.ArrayMetadata;
import org.tessera.io.zarr.ArrayMetadataV2;
import org.tessera.io.zarr.ArrayMetadataV3;
import org.tessera.io.zarr.Zarr;
import org.tessera.io.zarr.ZarrArray;
import org.tessera.io.zarr.ZarrGroup;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.npy.Npy;

/**
 * Finds out what a path holds, by its metadata only (no chunk is read): a Zarr v2 or v3 array or
 * group (a directory with {@code .zarray}, {@code .zgroup} or {@code zarr.json}), an HDF5 file
 * (by its signature) or a {@code .npy} file (by its magic string). A store named by a URI
 * ({@code s3://}, {@code https://}) is read as a Zarr array or group through its {@link Store}.
 */
final class ArrayInspector {
    private static final byte[] HDF5_SIGNATURE = {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    private static final byte[] NPY_MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};

    /** What a path holds: a heading (the container, e.g. a group and its members) and the arrays in it. */
    record Inspection(String heading, List<ArrayInfo> arrays) {
        Inspection {
            arrays = List.copyOf(arrays);
        }
    }

    private ArrayInspector() {
    }

    /**
     * @throws IllegalArgumentException when the path holds none of the formats above, naming what was looked for
     */
    static Inspection inspect(Path path) throws IOException {
        if (Files.isDirectory(path)) {
            return inspectZarr(path);
        }
        byte[] head = readHead(path, 8);
        if (startsWith(head, NPY_MAGIC)) {
            return inspectNpy(path);
        }
        if (hasHdf5Signature(path)) {
            return inspectHdf5(path);
        }
        throw new IllegalArgumentException(path + " is not a Zarr store, an HDF5 file or a .npy file (no .zarray, .zgroup or zarr.json in a directory, "
                + "no HDF5 signature, no NumPy magic string)");
    }

    /**
     * What the store at {@code location} holds at its root: a Zarr array or group. Sizes are the
     * sum of the sizes of the keys under each node, where the store lists its keys (S3 does, HTTP
     * does not: there they are {@link ArrayInfo#UNKNOWN_SIZE}, and a group's members are unknown).
     *
     * @throws IllegalArgumentException when the root holds no Zarr node, naming {@code location}
     * @throws IOException when the store cannot be read (a missing bucket, refused credentials, ...)
     */
    static Inspection inspect(Store store, String location) throws IOException {
        NodeKind root = nodeKind(store, "");
        if (root == NodeKind.NONE) {
            throw new IllegalArgumentException(location + " holds no Zarr array or group: it has no .zarray, .zgroup or zarr.json");
        }
        KeySizes sizes = KeySizes.of(store);
        if (root == NodeKind.ARRAY) {
            ArrayInfo info = zarrArray(store, "", "/", sizes);
            return new Inspection(info.format() + " array " + location, List.of(info));
        }
        ZarrGroup group = ZarrGroup.open(store, "");
        String heading = "Zarr v" + group.zarrFormat() + " group " + location + ": ";
        List<String> members;
        try {
            members = group.memberNames();
        } catch (UnsupportedOperationException noListing) {
            return new Inspection(heading + "members unknown (" + store.describe() + " cannot list its keys; name an array's location to describe it)",
                    List.of());
        }
        List<ArrayInfo> arrays = new ArrayList<>();
        collectZarrArrays(store, "", "", arrays, sizes);
        return new Inspection(heading + members.size() + " member" + (members.size() == 1 ? "" : "s")
                + (members.isEmpty() ? "" : " (" + String.join(", ", members) + ")") + ", " + arrays.size() + " array" + (arrays.size() == 1 ? "" : "s")
                + " in all, " + ArrayInfo.onDisk(sizes.under("")) + " on disk", arrays);
    }

    private enum NodeKind { ARRAY, GROUP, NONE }

    /** What {@code node} of {@code store} is, by its metadata documents. */
    private static NodeKind nodeKind(Store store, String node) throws IOException {
        // GETs rather than HEADs: an S3 GET tells a missing key from a missing bucket, which fails here with its own message.
        if (store.get(StoreKeys.join(node, ".zarray")).isPresent()) {
            return NodeKind.ARRAY;
        }
        if (store.get(StoreKeys.join(node, ".zgroup")).isPresent()) {
            return NodeKind.GROUP;
        }
        Optional<byte[]> document = store.get(StoreKeys.join(node, "zarr.json"));
        if (document.isEmpty()) {
            return NodeKind.NONE;
        }
        return new String(document.get(), java.nio.charset.StandardCharsets.UTF_8).replaceAll("\\s", "").contains("\"node_type\":\"array\"")
                ? NodeKind.ARRAY : NodeKind.GROUP;
    }

    private static void collectZarrArrays(Store store, String node, String prefix, List<ArrayInfo> arrays, KeySizes sizes) throws IOException {
        for (String member : ZarrGroup.open(store, node).memberNames()) {
            String child = StoreKeys.join(node, member);
            String name = prefix + "/" + member;
            switch (nodeKind(store, child)) {
                case ARRAY -> arrays.add(zarrArray(store, child, name, sizes));
                case GROUP -> collectZarrArrays(store, child, name, arrays, sizes);
                case NONE -> { }
            }
        }
    }

    private static ArrayInfo zarrArray(Store store, String node, String name, KeySizes sizes) throws IOException {
        ArrayMetadata metadata = ZarrArray.open(store, node).metadata();
        return new ArrayInfo(name, "Zarr v" + metadata.zarrFormat(), metadata.shape(), metadata.dtype(), Optional.of(metadata.chunkShape()),
                compressor(metadata), sizes.under(node));
    }

    /** The size of every key of a store, from its listing (one request per thousand keys on S3); unknown where it cannot list. */
    private record KeySizes(Map<String, Long> sizes) {
        static KeySizes of(Store store) throws IOException {
            try {
                return new KeySizes(store.listSizes(""));
            } catch (UnsupportedOperationException noListing) {
                return new KeySizes(null);
            }
        }

        /** The bytes of the keys under {@code node} ("" for all), or {@link ArrayInfo#UNKNOWN_SIZE}. */
        long under(String node) {
            if (sizes == null) {
                return ArrayInfo.UNKNOWN_SIZE;
            }
            String prefix = node.isEmpty() ? "" : node + "/";
            return sizes.entrySet().stream().filter(entry -> entry.getKey().startsWith(prefix)).mapToLong(Map.Entry::getValue).sum();
        }
    }

    private static Inspection inspectZarr(Path directory) throws IOException {
        if (!isZarrNode(directory)) {
            throw new IllegalArgumentException(directory + " is a directory but not a Zarr store: it has no .zarray, .zgroup or zarr.json");
        }
        if (isZarrArray(directory)) {
            ArrayInfo info = zarrArray(directory, "/");
            return new Inspection(info.format() + " array " + directory, List.of(info));
        }
        ZarrGroup group = Zarr.openGroup(directory);
        List<ArrayInfo> arrays = new ArrayList<>();
        collectZarrArrays(directory, "", arrays);
        List<String> members = group.memberNames();
        return new Inspection("Zarr v" + group.zarrFormat() + " group " + directory + ": " + members.size() + " member" + (members.size() == 1 ? "" : "s")
                + (members.isEmpty() ? "" : " (" + String.join(", ", members) + ")") + ", " + arrays.size() + " array" + (arrays.size() == 1 ? "" : "s")
                + " in all, " + ByteSize.format(bytesUnder(directory)) + " on disk", arrays);
    }

    private static void collectZarrArrays(Path directory, String prefix, List<ArrayInfo> arrays) throws IOException {
        for (String member : Zarr.openGroup(directory).memberNames()) {
            Path child = directory.resolve(member);
            String name = prefix + "/" + member;
            if (isZarrArray(child)) {
                arrays.add(zarrArray(child, name));
            } else if (isZarrNode(child)) {
                collectZarrArrays(child, name, arrays);
            }
        }
    }

    private static boolean isZarrNode(Path directory) {
        return Stream.of(".zarray", ".zgroup", "zarr.json").anyMatch(name -> Files.isRegularFile(directory.resolve(name)));
    }

    private static boolean isZarrArray(Path directory) throws IOException {
        if (Files.isRegularFile(directory.resolve(".zarray"))) {
            return true;
        }
        Path document = directory.resolve("zarr.json");
        // node_type is the one field that tells a v3 array from a v3 group.
        return Files.isRegularFile(document) && Files.readString(document).replaceAll("\\s", "").contains("\"node_type\":\"array\"");
    }

    private static ArrayInfo zarrArray(Path directory, String name) throws IOException {
        ZarrArray array = Zarr.open(directory);
        ArrayMetadata metadata = array.metadata();
        return new ArrayInfo(name, "Zarr v" + metadata.zarrFormat(), metadata.shape(), metadata.dtype(), Optional.of(metadata.chunkShape()),
                compressor(metadata), bytesUnder(directory));
    }

    private static String compressor(ArrayMetadata metadata) {
        return switch (metadata) {
            case ArrayMetadataV2 v2 -> v2.compressor() == null ? "none" : v2.compressor().toString();
            case ArrayMetadataV3 v3 -> v3.codecs().codecs().stream().map(Object::toString).collect(Collectors.joining(" -> "));
        };
    }

    private static Inspection inspectHdf5(Path file) throws IOException {
        List<ArrayInfo> arrays = new ArrayList<>();
        for (String datasetPath : Hdf5.datasetPaths(file)) {
            try (Hdf5Dataset dataset = Hdf5.open(file, datasetPath)) {
                String filters = dataset.filters().isEmpty() ? "none" : String.join(" -> ", dataset.filters());
                arrays.add(new ArrayInfo(datasetPath, "HDF5 " + dataset.layout().name().toLowerCase(java.util.Locale.ROOT), dataset.shape(), dataset.dtype(),
                        dataset.chunkShape(), filters, ArrayInfo.SHARED_FILE));
            }
        }
        return new Inspection("HDF5 file " + file + ": " + arrays.size() + " dataset" + (arrays.size() == 1 ? "" : "s") + ", "
                + ByteSize.format(Files.size(file)) + " on disk", arrays);
    }

    private static Inspection inspectNpy(Path file) throws IOException {
        NDArray mapped = Npy.map(file, FileChannel.MapMode.READ_ONLY);
        ArrayInfo info = new ArrayInfo("/", ".npy", mapped.shape(), mapped.dtype(), Optional.empty(), "none", Files.size(file));
        return new Inspection(".npy file " + file, List.of(info));
    }

    private static boolean hasHdf5Signature(Path file) throws IOException {
        // The superblock sits at 0 or, after a user block, at 512, 1024, 2048, ... (HDF5 file format, section II.A).
        long size = Files.size(file);
        try (FileChannel channel = FileChannel.open(file)) {
            for (long offset = 0; offset + HDF5_SIGNATURE.length <= size; offset = offset == 0 ? 512 : offset * 2) {
                java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(HDF5_SIGNATURE.length);
                channel.read(buffer, offset);
                if (Arrays.equals(buffer.array(), HDF5_SIGNATURE)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static byte[] readHead(Path file, int length) throws IOException {
        try (InputStream input = Files.newInputStream(file)) {
            return input.readNBytes(length);
        }
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    private static long bytesUnder(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
        }
    }
}

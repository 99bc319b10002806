package org.tessera.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.tessera.array.render.ChunkSvg;
import org.tessera.io.store.Store;
import org.tessera.io.store.Stores;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tessera info LOCATION}: what a stored array holds, read from its metadata alone. */
@Command(name = "info",
        header = "Describes a stored array: Zarr, HDF5 or .npy.",
        description = "Shape, dtype, chunks, compressor, size on disk and in memory, and number of blocks of a Zarr array "
                + "or of every array of a Zarr group (v2 or v3), of every dataset of an HDF5 file, or of a .npy file. Reads metadata only. "
                + "A Zarr store may also be named by a URI: s3://bucket/prefix (configured as the AWS tools are: AWS_ENDPOINT_URL, "
                + "AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION) or http(s)://... (read-only; HTTP cannot list keys, so sizes "
                + "and a group's members are unknown there).")
final class InfoCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Parameters(paramLabel = "LOCATION", description = "A Zarr store directory, an HDF5 file or a .npy file, or the URI of a Zarr store "
            + "(s3://bucket/prefix, http(s)://host/path, file:///path).")
    private String location;

    @Option(names = "--svg", paramLabel = "FILE", description = "Also draw the chunk grid as SVG (of the first array, for a group or an HDF5 file).")
    private Path svg;

    @Override
    public Integer call() throws IOException {
        ArrayInspector.Inspection inspection = Stores.isUri(location) ? inspectUri() : inspectPath(Path.of(location));
        PrintWriter out = spec.commandLine().getOut();
        out.println(inspection.heading());
        for (ArrayInfo array : inspection.arrays()) {
            array.lines().forEach(out::println);
        }
        if (svg != null) {
            if (inspection.arrays().isEmpty()) {
                throw new IllegalStateException(location + " holds no array to draw");
            }
            Files.writeString(svg, ChunkSvg.render(inspection.arrays().getFirst().grid()));
            out.println("chunk diagram of " + inspection.arrays().getFirst().name() + " written to " + svg);
        }
        out.flush();
        return 0;
    }

    private ArrayInspector.Inspection inspectPath(Path path) throws IOException {
        if (!Files.exists(path)) {
            throw new ParameterException(spec.commandLine(), "no such file or directory: " + path);
        }
        try {
            return ArrayInspector.inspect(path);
        } catch (IllegalArgumentException unrecognised) {
            throw new ParameterException(spec.commandLine(), unrecognised.getMessage(), unrecognised, null, path.toString());
        }
    }

    /**
     * A Zarr store named by a URI: a {@code file:} URI is its path; any other is read through its
     * {@link Store}. What the store's requests fail with (a missing bucket, refused credentials, an
     * unreachable host) comes back as one line naming the URI.
     */
    private ArrayInspector.Inspection inspectUri() throws IOException {
        URI uri;
        try {
            uri = new URI(location);
        } catch (URISyntaxException malformed) {
            throw new ParameterException(spec.commandLine(), "not a valid URI: " + location + " (" + malformed.getReason() + ")");
        }
        if ("file".equalsIgnoreCase(uri.getScheme())) {
            return inspectPath(Path.of(uri));
        }
        Store store;
        try {
            store = Stores.open(uri);
        } catch (IllegalArgumentException unusable) {
            throw new ParameterException(spec.commandLine(), unusable.getMessage(), unusable, null, location);
        }
        try {
            return ArrayInspector.inspect(store, location);
        } catch (IllegalArgumentException nothingThere) {
            throw new ParameterException(spec.commandLine(), nothingThere.getMessage(), nothingThere, null, location);
        } catch (IOException | RuntimeException failure) {
            String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
            throw new IOException("cannot read " + location + ": " + message.replace('\n', ' '), failure);
        }
    }
}

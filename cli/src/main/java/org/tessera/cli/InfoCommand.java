package org.tessera.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.tessera.array.render.ChunkSvg;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tessera info PATH}: what a stored array holds, read from its metadata alone. */
@Command(name = "info",
        header = "Describes a stored array: Zarr, HDF5 or .npy.",
        description = "Shape, dtype, chunks, compressor, size on disk and in memory, and number of blocks of a Zarr array "
                + "or of every array of a Zarr group (v2 or v3), of every dataset of an HDF5 file, or of a .npy file. Reads metadata only.")
final class InfoCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Parameters(paramLabel = "PATH", description = "A Zarr store directory, an HDF5 file or a .npy file.")
    private Path path;

    @Option(names = "--svg", paramLabel = "FILE", description = "Also draw the chunk grid as SVG (of the first array, for a group or an HDF5 file).")
    private Path svg;

    @Override
    public Integer call() throws IOException {
        if (!Files.exists(path)) {
            throw new ParameterException(spec.commandLine(), "no such file or directory: " + path);
        }
        ArrayInspector.Inspection inspection;
        try {
            inspection = ArrayInspector.inspect(path);
        } catch (IllegalArgumentException unrecognised) {
            throw new ParameterException(spec.commandLine(), unrecognised.getMessage(), unrecognised, null, path.toString());
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(inspection.heading());
        for (ArrayInfo array : inspection.arrays()) {
            array.lines().forEach(out::println);
        }
        if (svg != null) {
            if (inspection.arrays().isEmpty()) {
                throw new IllegalStateException(path + " holds no array to draw");
            }
            Files.writeString(svg, ChunkSvg.render(inspection.arrays().getFirst().grid()));
            out.println("chunk diagram of " + inspection.arrays().getFirst().name() + " written to " + svg);
        }
        out.flush();
        return 0;
    }
}

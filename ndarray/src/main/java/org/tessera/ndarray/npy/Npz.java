package org.tessera.ndarray.npy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import org.tessera.ndarray.NDArray;

/** NumPy's {@code .npz}: a zip of {@code name.npy} entries, stored or deflated. */
public final class Npz {
    private Npz() {}

    /** Every array of the archive by name (without ".npy"), in archive order. */
    public static Map<String, NDArray> read(Path file) throws IOException {
        Map<String, NDArray> arrays = new LinkedHashMap<>();
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(file))) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                String name = entry.getName().endsWith(".npy") ? entry.getName().substring(0, entry.getName().length() - 4) : entry.getName();
                arrays.put(name, Npy.readFrom(zip, file + ":" + entry.getName()));
            }
        } catch (ZipException corrupt) {
            throw new IOException(file + ": not a valid .npz (zip) archive: " + corrupt.getMessage(), corrupt);
        } catch (IOException failure) {
            // The inflater's failures (an archive that ends early) do not say which file they are about.
            if (String.valueOf(failure.getMessage()).contains(file.toString())) {
                throw failure;
            }
            throw new IOException(file + ": cannot read the .npz archive: " + failure.getMessage(), failure);
        } catch (IllegalArgumentException badName) {
            // ZipInputStream refuses an entry name that is not valid UTF-8 with an IllegalArgumentException.
            throw new IOException(file + ": not a valid .npz (zip) archive: " + badName.getMessage(), badName);
        }
        return arrays;
    }

    /** Writes the arrays as {@code key.npy} entries, deflated when {@code compressed} (np.savez_compressed). */
    public static void write(Path file, Map<String, NDArray> arrays, boolean compressed) throws IOException {
        try (OutputStream output = Files.newOutputStream(file); ZipOutputStream zip = new ZipOutputStream(output)) {
            zip.setMethod(compressed ? ZipOutputStream.DEFLATED : ZipOutputStream.STORED);
            for (Map.Entry<String, NDArray> entry : arrays.entrySet()) {
                byte[] bytes = Npy.toBytes(entry.getValue());
                ZipEntry zipEntry = new ZipEntry(entry.getKey() + ".npy");
                if (!compressed) {
                    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
                    crc.update(bytes);
                    zipEntry.setSize(bytes.length);
                    zipEntry.setCompressedSize(bytes.length);
                    zipEntry.setCrc(crc.getValue());
                }
                zip.putNextEntry(zipEntry);
                zip.write(bytes);
                zip.closeEntry();
            }
        }
    }
}

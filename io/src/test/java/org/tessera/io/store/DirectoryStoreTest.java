package org.tessera.io.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryStoreTest extends StoreContract {
    @TempDir
    Path directory;

    @Override
    protected Store newStore() throws IOException {
        return DirectoryStore.open(Files.createTempDirectory(directory, "store"));
    }

    @Test
    void keysAreFilesInNestedDirectoriesAsZarrPythonLaysThemOut() throws IOException {
        DirectoryStore store = DirectoryStore.open(directory.resolve("data.zarr"));
        store.set("group/array/0.1", new byte[] {5});
        assertArrayEquals(new byte[] {5}, Files.readAllBytes(directory.resolve("data.zarr/group/array/0.1")));
    }

    @Test
    void partialFilesOfAKilledWriterAreNeverListedAndCanBeRemoved() throws IOException {
        DirectoryStore store = DirectoryStore.open(directory.resolve("data.zarr"));
        store.set("x/0.0", new byte[] {1});
        // What a writer killed between writing its temporary file and renaming it leaves behind.
        Files.write(directory.resolve("data.zarr/x/.0.1.5eed5eed5eed5eed.partial"), new byte[] {1, 2});
        assertEquals(List.of("x/0.0"), store.list(""));
        assertEquals(1, store.deletePartialWrites(""));
        try (var files = Files.list(directory.resolve("data.zarr/x"))) {
            assertEquals(List.of("0.0"), files.map(file -> file.getFileName().toString()).toList());
        }
    }

    @Test
    void aSerializedStoreReadsTheSameDirectory() throws Exception {
        DirectoryStore store = DirectoryStore.open(directory.resolve("data.zarr"));
        store.set("k", new byte[] {3});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream output = new ObjectOutputStream(bytes)) {
            output.writeObject(store);
        }
        try (ObjectInputStream input = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            Store copy = (Store) input.readObject();
            assertArrayEquals(new byte[] {3}, copy.get("k").orElseThrow());
            assertTrue(copy.describe().contains("data.zarr"));
        }
    }
}

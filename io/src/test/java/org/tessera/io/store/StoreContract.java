package org.tessera.io.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

/** The contract every {@link Store} keeps; each implementation's test extends it. */
abstract class StoreContract {

    protected abstract Store newStore() throws IOException;

    @Test
    void getReturnsWhatSetStoredAndEmptyForAbsentKeys() throws IOException {
        Store store = newStore();
        assertEquals(Optional.empty(), store.get("a/b/0.0"));
        assertFalse(store.contains("a/b/0.0"));
        store.set("a/b/0.0", new byte[] {1, 2, 3});
        assertArrayEquals(new byte[] {1, 2, 3}, store.get("a/b/0.0").orElseThrow());
        assertTrue(store.contains("a/b/0.0"));
        store.set("a/b/0.0", new byte[] {4});
        assertArrayEquals(new byte[] {4}, store.get("a/b/0.0").orElseThrow());
        store.set("empty", new byte[0]);
        assertArrayEquals(new byte[0], store.get("empty").orElseThrow());
    }

    @Test
    void mapGivesTheValueReadOnlyAndEmptyForAbsentKeys() throws IOException {
        Store store = newStore();
        store.set("a/0.0", new byte[] {5, 6, 7});
        store.set("empty", new byte[0]);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mapped = store.map("a/0.0", arena).orElseThrow();
            assertArrayEquals(new byte[] {5, 6, 7}, mapped.toArray(ValueLayout.JAVA_BYTE));
            assertTrue(mapped.isReadOnly(), "a mapped value cannot change what is stored");
            assertEquals(0, store.map("empty", arena).orElseThrow().byteSize());
            assertEquals(Optional.empty(), store.map("a/1.0", arena));
            assertEquals(Optional.empty(), store.map("a", arena), "a prefix of keys is no value");
        }
        assertArrayEquals(new byte[] {5, 6, 7}, store.get("a/0.0").orElseThrow());
    }

    @Test
    void valuesAreCopiedSoCallersCannotChangeWhatIsStored() throws IOException {
        Store store = newStore();
        byte[] value = {1, 2};
        store.set("k", value);
        value[0] = 9;
        store.get("k").orElseThrow()[1] = 9;
        assertArrayEquals(new byte[] {1, 2}, store.get("k").orElseThrow());
    }

    @Test
    void getRangeReadsPartOfAValueAndRefusesRangesPastItsEnd() throws IOException {
        Store store = newStore();
        store.set("shard", new byte[] {0, 1, 2, 3, 4, 5});
        assertArrayEquals(new byte[] {2, 3, 4}, store.getRange("shard", 2, 3).orElseThrow());
        assertEquals(Optional.empty(), store.getRange("absent", 0, 1));
        IOException error = assertThrows(IOException.class, () -> store.getRange("shard", 4, 3));
        assertTrue(error.getMessage().contains("[4, 7)") && error.getMessage().contains("6 bytes"), error.getMessage());
    }

    @Test
    void listFindsKeysByPrefixAndDeleteRemovesThem() throws IOException {
        Store store = newStore();
        for (String key : List.of("x/.zarray", "x/0.0", "x/0.1", "y/c/0/0", "xy")) {
            store.set(key, new byte[] {7});
        }
        assertEquals(List.of("x/.zarray", "x/0.0", "x/0.1"), store.list("x/").stream().sorted().toList());
        assertEquals(List.of("x/.zarray", "x/0.0", "x/0.1", "xy"), store.list("x").stream().sorted().toList());
        assertEquals(5, store.list("").size());
        assertEquals(List.of("y/c/0/0"), store.list("y/c/"));
        store.delete("x/0.1");
        store.delete("never-there");
        assertFalse(store.contains("x/0.1"));
        store.deletePrefix("x");
        assertEquals(List.of("xy", "y/c/0/0"), store.list("").stream().sorted().toList());
    }

    @Test
    void listSizesGivesEachKeyWithTheLengthOfItsValue() throws IOException {
        Store store = newStore();
        store.set("x/0.0", new byte[3]);
        store.set("x/0.1", new byte[0]);
        store.set("y", new byte[9]);
        assertEquals(java.util.Map.of("x/0.0", 3L, "x/0.1", 0L), store.listSizes("x/"));
        assertEquals(java.util.Map.of("x/0.0", 3L, "x/0.1", 0L, "y", 9L), store.listSizes(""));
    }

    @Test
    void keysThatCouldEscapeOrAliasAreRefusedWithTheirName() throws IOException {
        Store store = newStore();
        for (String key : List.of("../outside", "a//b", "/absolute", "a/./b", "trailing/", "")) {
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> store.set(key, new byte[1]));
            assertTrue(error.getMessage().contains("'" + key + "'"), error.getMessage());
        }
    }

    @Test
    void concurrentWritersOfOneKeyLeaveOneWholeValue() throws Exception {
        Store store = newStore();
        int writers = 8;
        int length = 1 << 16;
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> futures = new java.util.ArrayList<>();
            for (int writer = 0; writer < writers; writer++) {
                byte fillByte = (byte) writer;
                futures.add(pool.submit(() -> {
                    byte[] value = new byte[length];
                    java.util.Arrays.fill(value, fillByte);
                    for (int round = 0; round < 20; round++) {
                        store.set("contested", value);
                        byte[] seen = store.get("contested").orElseThrow();
                        assertEquals(length, seen.length);
                        for (byte part : seen) {
                            assertEquals(seen[0], part, "a reader saw a mixture of two writes");
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        }
    }
}

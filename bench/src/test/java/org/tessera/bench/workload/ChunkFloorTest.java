package org.tessera.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.tessera.array.RegionSource;
import org.tessera.array.blockwise.DeferredBlock;
import org.tessera.ndarray.NDArray;
import org.tessera.ndarray.dtype.DType;
import org.tessera.ndarray.layout.Order;
import org.tessera.ndarray.memory.BlockPool;

/**
 * The floors of the stored workloads read every chunk once: whole, or in slabs of a strip's rows
 * that cover each chunk's rows in order, one after the other.
 */
class ChunkFloorTest {
    private static final List<String> CHUNKS = List.of("0,0", "0,600", "1200,0", "1200,600", "600,0", "600,600");
    /** A 1400 x 1000 source in the floor's square chunks of 600 (wider than a strip), which records what is read. */
    private static class RecordingSource implements RegionSource {
        final List<String> wholeReads = Collections.synchronizedList(new ArrayList<>());
        final List<String> slabs = Collections.synchronizedList(new ArrayList<>());

        @Override
        public long[] shape() {
            return new long[] {1400, 1000};
        }

        @Override
        public DType dtype() {
            return DType.FLOAT64;
        }

        @Override
        public NDArray read(long[] start, long[] shape) {
            wholeReads.add(start[0] + "," + start[1]);
            return NDArray.zeros(DType.FLOAT64, shape);
        }

        @Override
        public Object identity() {
            return this;
        }

        @Override
        public Optional<SlabReader> slabs(long[] start, long[] shape) {
            return Optional.of((firstRow, rows) -> {
                slabs.add(start[0] + "," + start[1] + ":" + firstRow + "+" + rows);
                return NDArray.zeros(DType.FLOAT64, rows, shape[1]);
            });
        }
    }

    @Test
    void theWholeChunksFloorReadsEachChunkOnce() throws Exception {
        RecordingSource source = new RecordingSource();
        assertTrue(ChunkFloor.seconds(source, 600, "a recording source") > 0);
        assertEquals(CHUNKS, source.wholeReads.stream().sorted().toList());
        assertTrue(source.slabs.isEmpty(), "no slabs: " + source.slabs);
    }

    @Test
    void theSlabFloorReadsEveryRowOfEachChunkOnceInStrips() throws Exception {
        RecordingSource source = new RecordingSource();
        assertTrue(ChunkFloor.slabSeconds(source, 600, "a recording source") > 0);
        assertTrue(source.wholeReads.isEmpty(), "no whole reads: " + source.wholeReads);
        for (String chunk : CHUNKS) {
            long columns = chunk.endsWith(",0") ? 600 : 400;
            long rows = chunk.startsWith("1200") ? 200 : 600;
            long next = 0;
            for (String slab : source.slabs.stream().filter(read -> read.startsWith(chunk + ":")).toList()) {
                String[] span = slab.substring(chunk.length() + 1).split("\\+");
                assertEquals(next, Long.parseLong(span[0]), "chunk " + chunk + ": slabs in order, each after the last");
                assertTrue(Long.parseLong(span[1]) * columns <= DeferredBlock.STRIP_ELEMENTS, "a slab of " + span[1] + " rows of " + columns + " is more than a strip");
                next += Long.parseLong(span[1]);
            }
            assertEquals(rows, next, "chunk " + chunk + " is read to its last row");
        }
        assertTrue(source.slabs.stream().filter(read -> read.startsWith("0,0:")).count() > 1, "a chunk wider than a strip is read in several: " + source.slabs);
    }

    @Test
    void theWholeChunksFloorDecodesIntoTheMemoryOfEarlierChunks() throws Exception {
        // Chunks of 600 x 300 float64 (1.4 MB): blocks the pool hands out and takes back.
        List<Object> blocks = Collections.synchronizedList(new ArrayList<>());
        RegionSource pooled = new RecordingSource() {
            @Override
            public long[] shape() {
                return new long[] {1_800, 1_800};
            }

            @Override
            public NDArray read(long[] start, long[] shape) {
                NDArray block = NDArray.emptyBlock(DType.FLOAT64, Order.C, shape);
                blocks.add(block.segment().heapBase().orElseThrow());
                return block;
            }
        };
        long reusesBefore = BlockPool.reuses();
        assertTrue(ChunkFloor.seconds(pooled, 600, "a pooled source") > 0);
        assertEquals(9, blocks.size());
        Set<Object> arrays = Collections.newSetFromMap(new IdentityHashMap<>());
        arrays.addAll(blocks);
        long distinct = arrays.size();
        // A block per thread of the floor's pool at most, each read after the first into one given back.
        assertTrue(distinct <= Runtime.getRuntime().availableProcessors(), distinct + " arrays for 9 chunks");
        assertTrue(BlockPool.reuses() - reusesBefore >= 9 - distinct, "reuses " + (BlockPool.reuses() - reusesBefore));
    }
}

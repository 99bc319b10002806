package org.tessera.ndarray.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import org.junit.jupiter.api.Test;

class NativeBuffersTest {
    /** A size no other test leases, so that the buffers found idle are this test's. */
    private static final long BYTES = (5L << 20) + 8 * 3;

    @Test
    void aBufferGivenBackIsTheNextLeasesWithItsOldBytes() {
        long address;
        try (NativeBuffers.Lease lease = NativeBuffers.lease()) {
            MemorySegment first = lease.segment(BYTES);
            assertEquals(BYTES, first.byteSize());
            assertTrue(first.isNative());
            assertEquals(0, first.address() % 64, "aligned for vector loads");
            first.set(ValueLayout.JAVA_LONG, 16, 42L);
            address = first.address();
        }
        long counted = Allocations.ofCurrentThread().bytes();
        try (NativeBuffers.Lease lease = NativeBuffers.lease()) {
            MemorySegment smaller = lease.segment(BYTES - 4096);
            assertEquals(address, smaller.address(), "an idle buffer large enough is lent again");
            assertEquals(BYTES - 4096, smaller.byteSize());
            assertEquals(42L, smaller.get(ValueLayout.JAVA_LONG, 16), "the caller overwrites what it leases");
            assertEquals(counted + BYTES - 4096, Allocations.ofCurrentThread().bytes(), "a reused buffer counts as allocated");
            MemorySegment other = lease.segment(BYTES);
            assertNotEquals(address, other.address(), "a buffer in use is not lent twice");
            assertFalse(other.asOverlappingSlice(smaller).isPresent());
        }
    }

    /**
     * Inside an outer lease, inner leases that give a buffer back and take one again (a group's
     * products, one after another) count their most at once, not every lease; once the outermost
     * closes, the next lease counts afresh.
     */
    @Test
    void leasesCountTheMostTheyHoldAtOnceUntilTheOutermostCloses() {
        Allocations.Counter counter = Allocations.ofCurrentThread();
        long before = counter.bytes();
        try (NativeBuffers.Lease outer = NativeBuffers.lease()) {
            for (int product = 0; product < 3; product++) {
                try (NativeBuffers.Lease inner = NativeBuffers.lease()) {
                    inner.segment(BYTES);
                }
            }
            assertEquals(before + BYTES, counter.bytes(), "one buffer at a time, taken three times, counts once");
            try (NativeBuffers.Lease inner = NativeBuffers.lease()) {
                inner.segment(BYTES);
                inner.segment(BYTES);
            }
            assertEquals(before + 2 * BYTES, counter.bytes(), "two at once count twice");
            outer.segment(4096);
            assertEquals(before + 2 * BYTES, counter.bytes(), "within the most held already");
        }
        try (NativeBuffers.Lease next = NativeBuffers.lease()) {
            next.segment(BYTES);
        }
        assertEquals(before + 3 * BYTES, counter.bytes(), "a lease after the outermost closed counts again");
    }

    @Test
    void idleBytesAreBounded() {
        long big = NativeBuffers.IDLE_BYTES_LIMIT / 3 + 4096;
        try (NativeBuffers.Lease lease = NativeBuffers.lease()) {
            for (int buffer = 0; buffer < 3; buffer++) {
                lease.segment(big);
            }
        }
        assertTrue(NativeBuffers.idleBytes() <= NativeBuffers.IDLE_BYTES_LIMIT, "idle bytes: " + NativeBuffers.idleBytes());
        assertTrue(NativeBuffers.idleBytes() >= 2 * big, "the two given back last stay idle: " + NativeBuffers.idleBytes());
    }

    @Test
    void aLeaseRefusesANegativeSizeAndLendsAnEmptyOne() {
        try (NativeBuffers.Lease lease = NativeBuffers.lease()) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> lease.segment(-8));
            assertTrue(refused.getMessage().contains("-8"), refused.getMessage());
            assertEquals(0, lease.segment(0).byteSize());
        }
    }

    @Test
    void idleBuffersAreBoundedAndTheOneIdleLongestMakesRoom() {
        long address;
        try (NativeBuffers.Lease lease = NativeBuffers.lease()) {
            address = lease.segment(BYTES + 4096).address();
        }
        try (NativeBuffers.Lease lease = NativeBuffers.lease()) {
            for (int buffer = 0; buffer < NativeBuffers.IDLE_LIMIT + 3; buffer++) {
                lease.segment(4096);
            }
        }
        assertTrue(NativeBuffers.idleCount() <= NativeBuffers.IDLE_LIMIT, "idle: " + NativeBuffers.idleCount());
        assertTrue(NativeBuffers.idleBytes() <= NativeBuffers.IDLE_BYTES_LIMIT, "idle bytes: " + NativeBuffers.idleBytes());
        try (NativeBuffers.Lease lease = NativeBuffers.lease()) {
            assertNotEquals(address, lease.segment(BYTES + 4096).address(), "the large buffer, idle longest, made room for the small ones");
        }
        long large;
        try (NativeBuffers.Lease lease = NativeBuffers.lease()) {
            large = lease.segment(BYTES + 8192).address();
        }
        try (NativeBuffers.Lease lease = NativeBuffers.lease()) {
            for (int buffer = 0; buffer < NativeBuffers.IDLE_LIMIT - 1; buffer++) {
                lease.segment(4096);
            }
            assertEquals(large, lease.segment(BYTES + 8192).address(), "small requests take small buffers, and the large one given back last stays idle");
        }
    }
}

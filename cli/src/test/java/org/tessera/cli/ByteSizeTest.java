package org.tessera.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSizeTest {
    @ParameterizedTest
    @CsvSource({"512MB, 512000000", "4GB, 4000000000", "4gb, 4000000000", "4G, 4000000000", "1.5GB, 1500000000", "2GiB, 2147483648",
            "64KiB, 65536", "100000, 100000", "100000B, 100000", "2_000MB, 2000000000", "1TB, 1000000000000"})
    void parsesSizesAsPeopleWriteThem(String text, long bytes) {
        assertEquals(bytes, ByteSize.parse(text).bytes());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "GB", "-1GB", "4 GBs", "four", "1.2.3MB", "4PB"})
    void rejectsWhatIsNotASizeAndSaysHowToWriteOne(String text) {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class, () -> ByteSize.parse(text));
        assertEquals("'" + text + "' is not a size; write it as e.g. 512MB, 4GB or 2GiB", thrown.getMessage());
    }

    @Test
    void formatsWithThreeSignificantDigits() {
        assertEquals("2.00 GB", ByteSize.format(2e9));
        assertEquals("16.0 MB", ByteSize.format(16e6));
        assertEquals("334 MB", ByteSize.format(333.9e6));
        assertEquals("512 B", ByteSize.format(512));
        assertEquals("1.07 GB", ByteSize.format(1L << 30));
    }
}

package org.tessera.spark;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

import org.tessera.array.property.Chain;
import org.tessera.array.property.Chains;

/**
 * Chunked equals dense on Spark: the chains of the array module's {@code ChunkedPropertyTest} (random
 * shapes, dtypes, chunkings with empty blocks, and up to five operations) computed by the Spark
 * scheduler on embedded Spark ({@code local[2,4]}, loopback only), against the NDArray results, with
 * the same comparison (bit for bit, or within the stated tolerance after reordered float sums).
 * A few tries only: every compute is a Spark job, about a tenth of a second each. The seed is
 * jqwik's, random per run and printed with any failure.
 */
class SparkChunkedPropertyTest {

    @Provide
    Arbitrary<Chain> chains() {
        return Chains.chains(5);
    }

    @Property(tries = 15, shrinking = ShrinkingMode.BOUNDED, edgeCases = EdgeCasesMode.NONE)
    void chunkedEqualsDenseOnSpark(@ForAll("chains") Chain chain) {
        chain.run(LocalSpark.scheduler());
    }
}

package org.tessera.spark.plan;

import java.io.Serial;
import java.io.Serializable;
import java.util.Objects;

import org.tessera.graph.Key;

/**
 * A block that a Spark computation left in Spark storage: the value a persisted key stands for
 * while its data stay on the executors. A graph holds it as a literal; the Spark scheduler reads
 * the block where it lies instead of shipping anything from the driver.
 *
 * @param applicationId the Spark application whose storage holds it
 * @param datasetId     the persisted data set (its RDD id)
 * @param key           the block's key in that data set
 */
public record StoredBlock(String applicationId, int datasetId, Key key) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public StoredBlock {
        Objects.requireNonNull(applicationId, "a stored block needs its Spark application id");
        Objects.requireNonNull(key, "a stored block needs its key");
    }

    @Override
    public String toString() {
        return "StoredBlock[" + key + " in Spark dataset " + datasetId + " of " + applicationId + "]";
    }
}

package org.tessera.spark.lowering;

import java.io.Serial;
import java.io.Serializable;

import org.tessera.graph.Key;
import org.tessera.graph.Task;

/** A task with its key, as a partition's list of work carries it to an executor. */
record PlannedTask(Key key, Task task) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;
}

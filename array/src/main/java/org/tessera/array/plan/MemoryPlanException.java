package org.tessera.array.plan;

import java.io.Serial;

/** A computation refused before any task ran, because its plan does not fit the memory budget. */
public final class MemoryPlanException extends IllegalStateException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final transient Plan plan;

    MemoryPlanException(Plan plan, String message) {
        super(message + System.lineSeparator() + plan);
        this.plan = plan;
    }

    /** The plan that does not fit. */
    public Plan plan() {
        return plan;
    }
}

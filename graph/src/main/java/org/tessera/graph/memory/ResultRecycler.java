package org.tessera.graph.memory;

import java.util.ServiceLoader;

/**
 * Gives the memory of a result the scheduler drops back for reuse, where nothing the scheduler
 * still holds may share it. The graph module knows no array type, so the module that allocates
 * arrays provides this service ({@link ServiceLoader}); without one, dropped results are left to
 * the garbage collector.
 */
public interface ResultRecycler {

    /** Whether {@code result}'s memory is of the kind this recycler takes back: only such results are offered to {@link #recycle}. */
    boolean recyclable(Object result);

    /**
     * Takes back {@code dropped}'s memory unless one of {@code held} may share it. The scheduler
     * calls it, under its lock, once every task that read {@code dropped} has finished, with every
     * result it still holds (the outputs, and the inputs of tasks running or yet to run): a view of
     * the dropped result among them, or a value of a kind the recycler cannot see into, keeps the
     * memory from being reused. Task functions must not keep their inputs past their results.
     */
    void recycle(Object dropped, Iterable<Object> held);

    /** The recycler of the class path, or one that takes nothing back. */
    static ResultRecycler find() {
        return Holder.RECYCLER;
    }

    /** The recycler found once, when first asked for. */
    final class Holder {
        static final ResultRecycler RECYCLER = ServiceLoader.load(ResultRecycler.class).findFirst().orElse(new ResultRecycler() {
            @Override
            public boolean recyclable(Object result) {
                return false;
            }

            @Override
            public void recycle(Object dropped, Iterable<Object> held) {
            }
        });

        private Holder() {
        }
    }
}

package org.tessera.bench.workload;

import java.lang.reflect.InvocationTargetException;
import java.util.List;

import org.tessera.graph.schedule.Callback;
import org.tessera.graph.schedule.Scheduler;
import org.tessera.graph.schedule.SynchronousScheduler;
import org.tessera.graph.schedule.ThreadedScheduler;

/**
 * The schedulers a workload can run on, by the names of {@code ./tessera bench --scheduler}:
 * {@code threads} (the default: all cores), {@code sync} (the reference scheduler, one task at a
 * time) and {@code spark} (Spark in local mode, from the {@code tessera-spark} module).
 *
 * <p>Spark is looked up by reflection at run time, so that the bench module builds without Spark and
 * the name starts working as soon as {@code org.tessera.spark.SparkScheduler} is on the class path.
 */
public final class Schedulers {
    /** The names accepted, in the order help lists them. */
    public static final List<String> NAMES = List.of("threads", "sync", "spark");

    private static final String SPARK_SCHEDULER = "org.tessera.spark.SparkScheduler";
    private static final String SPARK_SESSION = "org.apache.spark.sql.SparkSession";

    private Schedulers() {
    }

    /**
     * Checks that {@code name} can be made here without making it (no Spark session is started).
     *
     * @throws IllegalArgumentException for a name not in {@link #NAMES}
     * @throws IllegalStateException when the scheduler's module is not on the class path
     */
    public static void requireAvailable(String name) {
        switch (name) {
            case "threads", "sync" -> { }
            case "spark" -> sparkClasses();
            default -> throw unknown(name);
        }
    }

    /** A new scheduler of that name; see {@link #requireAvailable} for the exceptions. */
    public static Scheduler named(String name) {
        return named(name, List.of());
    }

    /** A new scheduler of that name that feeds {@code callbacks} (a dashboard, a progress bar). */
    public static Scheduler named(String name, List<Callback> callbacks) {
        return switch (name) {
            case "threads" -> {
                ThreadedScheduler.Builder builder = ThreadedScheduler.builder();
                callbacks.forEach(builder::callback);
                yield builder.build();
            }
            case "sync" -> new SynchronousScheduler(callbacks.toArray(Callback[]::new));
            case "spark" -> withCallbacks(localSpark(), callbacks);
            default -> throw unknown(name);
        };
    }

    /** {@code spark.withCallback(c)} for each callback, by reflection as the rest of Spark here. */
    private static Scheduler withCallbacks(Scheduler spark, List<Callback> callbacks) {
        Scheduler watched = spark;
        for (Callback callback : callbacks) {
            try {
                watched = (Scheduler) watched.getClass().getMethod("withCallback", Callback.class).invoke(watched, callback);
            } catch (ReflectiveOperationException | ClassCastException mismatch) {
                throw new IllegalStateException("the spark module on the class path has no SparkScheduler.withCallback(Callback): " + mismatch, mismatch);
            }
        }
        return watched;
    }

    private static IllegalArgumentException unknown(String name) {
        return new IllegalArgumentException("unknown scheduler '" + name + "'; expected one of " + String.join(", ", NAMES));
    }

    private static Class<?>[] sparkClasses() {
        ClassLoader loader = Schedulers.class.getClassLoader();
        try {
            // Not initialised here: checking that Spark is present must not start any of it.
            return new Class<?>[] {Class.forName(SPARK_SCHEDULER, false, loader), Class.forName(SPARK_SESSION, false, loader)};
        } catch (ClassNotFoundException | LinkageError missing) {
            throw new IllegalStateException("the spark module is not on the class path (" + missing.getMessage()
                    + " not found); build it and add tessera-spark to tessera-bench's dependencies", missing);
        }
    }

    /** Spark in local mode on all cores, as a scheduler; its session lives as long as the JVM. */
    private static Scheduler localSpark() {
        return localSpark(Runtime.getRuntime().availableProcessors()).scheduler();
    }

    /** An embedded Spark session and the scheduler that runs graphs on it; closing it stops the session. */
    public record LocalSpark(Object session, Scheduler scheduler) implements AutoCloseable {
        @Override
        public void close() throws ReflectiveOperationException {
            session.getClass().getMethod("stop").invoke(session);
        }
    }

    /**
     * {@code SparkScheduler.of(SparkSession.builder().master("local[threads]")...getOrCreate())}, by
     * reflection, with no web UI and the driver on the loopback interface.
     */
    public static LocalSpark localSpark(int threads) {
        Class<?>[] classes = sparkClasses();
        try {
            Object builder = classes[1].getMethod("builder").invoke(null);
            builder = builder.getClass().getMethod("master", String.class).invoke(builder, "local[" + threads + "]");
            builder = builder.getClass().getMethod("appName", String.class).invoke(builder, "tessera-bench");
            for (String[] setting : new String[][] {{"spark.ui.enabled", "false"}, {"spark.driver.host", "127.0.0.1"},
                    {"spark.driver.bindAddress", "127.0.0.1"}}) {
                builder = builder.getClass().getMethod("config", String.class, String.class).invoke(builder, setting[0], setting[1]);
            }
            Object session = builder.getClass().getMethod("getOrCreate").invoke(builder);
            return new LocalSpark(session, (Scheduler) classes[0].getMethod("of", classes[1]).invoke(null, session));
        } catch (InvocationTargetException failure) {
            throw new IllegalStateException("could not start Spark in local mode: " + failure.getCause(), failure.getCause());
        } catch (ReflectiveOperationException | ClassCastException mismatch) {
            throw new IllegalStateException("the spark module on the class path has no SparkScheduler.of(SparkSession) returning a Scheduler: " + mismatch, mismatch);
        }
    }
}

package org.tessera.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The embedded Spark of the tests: local mode with two threads and up to four attempts per task
 * ({@code local[2,4]}), started once and shared by the test classes. A JVM holds one Spark
 * context at a time, so the standalone-cluster test stops it first.
 */
final class LocalSpark {
    private static SparkSession session;

    private LocalSpark() {
    }

    static synchronized SparkSession session() {
        if (session == null) {
            session = SparkSession.builder()
                    .master("local[2,4]")
                    .appName("tessera-spark-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.sql.shuffle.partitions", "4")
                    .getOrCreate();
            Runtime.getRuntime().addShutdownHook(new Thread(LocalSpark::stop));
        }
        return session;
    }

    static SparkScheduler scheduler() {
        return SparkScheduler.of(session());
    }

    static synchronized void stop() {
        if (session != null) {
            session.stop();
            session = null;
        }
    }
}

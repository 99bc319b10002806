package org.tessera.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The options a JVM that runs Spark needs on Java 17 and later: the packages its serialisers and
 * Netty reach into. One list, kept in the module's build ({@code spark.java.options}), serves the
 * tests, the executors of a cluster and every launcher that starts a JVM with Spark in it.
 */
public final class SparkJvmOptions {
    private static final String RESOURCE = "jvm-options.txt";

    private SparkJvmOptions() {
    }

    /** The options, one per element, as a command line takes them. */
    public static List<String> required() {
        try (InputStream stream = SparkJvmOptions.class.getResourceAsStream(RESOURCE)) {
            if (stream == null) {
                throw new IllegalStateException("the spark module's " + RESOURCE + " is missing from the class path");
            }
            String text = new String(stream.readAllBytes(), StandardCharsets.UTF_8).strip();
            if (text.startsWith("${")) {
                throw new IllegalStateException("the spark module's " + RESOURCE + " was not filtered by its build: " + text);
            }
            return Arrays.stream(text.split("\\s+")).toList();
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read the spark module's " + RESOURCE, failure);
        }
    }
}

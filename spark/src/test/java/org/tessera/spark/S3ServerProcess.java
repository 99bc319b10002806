package org.tessera.spark;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.tessera.io.store.S3Settings;
import org.tessera.io.store.S3Store;
import org.tessera.io.store.S3TestServer;

/**
 * The io module's {@link S3TestServer} (s3proxy on loopback, each directory of its root a bucket)
 * in a JVM of its own. s3proxy's Jetty 12 needs the Servlet 6 API and Spark's Jetty 11 the Servlet
 * 5 API, which no one class path holds both of; this JVM gets the test class path with Servlet 6
 * ahead of it (the jar the build copies for it, {@code tessera.s3proxy.servlet.jar}). Requests are
 * signed with {@link S3TestServer#ACCESS_KEY}.
 */
final class S3ServerProcess implements AutoCloseable {
    private static final Pattern STARTED = Pattern.compile("S3 server at (http://127\\.0\\.0\\.1:\\d+)");
    private static final long START_TIMEOUT_SECONDS = 60;

    private final Process process;
    private final Path root;
    private final String endpoint;

    private S3ServerProcess(Process process, Path root, String endpoint) {
        this.process = process;
        this.root = root;
        this.endpoint = endpoint;
    }

    /** Starts the server on a free port, keeping its buckets under {@code root} and its output in {@code log}. */
    static S3ServerProcess start(Path root, Path log) throws IOException, InterruptedException {
        String servletJar = System.getProperty("tessera.s3proxy.servlet.jar");
        if (servletJar == null || !Files.isRegularFile(Path.of(servletJar))) {
            throw new IllegalStateException("the Servlet 6 API jar for s3proxy is missing (" + servletJar
                    + "): the build's maven-dependency-plugin copies it before the tests run");
        }
        Files.createDirectories(root);
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of("-Xmx256m", "-cp", servletJar + File.pathSeparator + StandaloneCluster.classPath(),
                S3TestServer.class.getName(), root.toString(), "0"));
        ProcessBuilder builder = new ProcessBuilder(command);
        // Nothing from this machine's AWS configuration: the server knows only the test keys.
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(name -> name.startsWith("AWS_"));
        builder.redirectErrorStream(true);
        builder.redirectOutput(log.toFile());
        Process process = builder.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
            while (true) {
                Matcher started = STARTED.matcher(Files.readString(log));
                if (started.find()) {
                    return new S3ServerProcess(process, root, started.group(1));
                }
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("the S3 server " + (process.isAlive() ? "did not start within " + START_TIMEOUT_SECONDS + " s" : "exited with "
                            + process.exitValue()) + "; its output, in " + log + ":\n" + Files.readString(log));
                }
                Thread.sleep(50);
            }
        } catch (IOException | InterruptedException | RuntimeException failure) {
            process.destroyForcibly();
            throw failure;
        }
    }

    String endpoint() {
        return endpoint;
    }

    /** The settings of a client of this server: its endpoint and keys, nothing from this JVM's environment. */
    S3Settings settings() {
        return S3Settings.resolve(Map.of(), new Properties()).withEndpoint(endpoint).withCredentials(S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY);
    }

    /** The store at {@code s3://bucket/prefix} of this server. */
    S3Store store(String bucket, String prefix) {
        return S3Store.open(URI.create("s3://" + bucket + "/" + prefix), settings());
    }

    /** The directory that holds the objects of {@code bucket}. */
    Path bucketDirectory(String bucket) {
        return root.resolve(bucket);
    }

    /** Makes {@code bucket} (a directory of the server's root) when it is not there yet. */
    void createBucket(String bucket) throws IOException {
        Files.createDirectories(bucketDirectory(bucket));
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}

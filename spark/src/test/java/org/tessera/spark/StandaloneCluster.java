package org.tessera.spark;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A Spark standalone cluster on loopback for tests: a master and workers started as JVMs of their
 * own from the Spark jars on the test class path (nothing downloaded, nothing installed), bound to
 * 127.0.0.1 on free ports. Spark's worker builds executor command lines from a Spark home, so the
 * cluster makes an empty one; executors get the test class path through
 * {@code spark.executor.extraClassPath}.
 */
final class StandaloneCluster implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern ALIVE_WORKERS = Pattern.compile("\"aliveworkers\"\\s*:\\s*(\\d+)");

    private final Path directory;
    private final Path sparkHome;
    private final int masterPort;
    private final int masterWebPort;
    private final List<Process> processes = new ArrayList<>();
    private final List<Process> workers = new ArrayList<>();

    private StandaloneCluster(Path directory) throws IOException {
        this.directory = directory;
        this.sparkHome = Files.createDirectories(directory.resolve("spark-home"));
        Files.createDirectories(sparkHome.resolve("jars"));
        this.masterPort = freePort();
        this.masterWebPort = freePort();
    }

    /** Starts a master and {@code workerCount} workers of one core each, and waits until they are up. */
    static StandaloneCluster start(Path directory, int workerCount) throws IOException, InterruptedException {
        StandaloneCluster cluster = new StandaloneCluster(directory);
        try {
            cluster.processes.add(cluster.launch("master", "org.apache.spark.deploy.master.Master",
                    "--host", "127.0.0.1", "--port", Integer.toString(cluster.masterPort), "--webui-port", Integer.toString(cluster.masterWebPort)));
            waitFor("the Spark master to listen on port " + cluster.masterPort, () -> isListening(cluster.masterPort));
            for (int worker = 0; worker < workerCount; worker++) {
                Path workDirectory = Files.createDirectories(directory.resolve("worker-" + worker));
                Process process = cluster.launch("worker-" + worker, "org.apache.spark.deploy.worker.Worker",
                        "--host", "127.0.0.1", "--port", Integer.toString(freePort()), "--webui-port", Integer.toString(freePort()),
                        "--cores", "1", "--memory", "1g", "--work-dir", workDirectory.toString(), cluster.masterUrl());
                cluster.processes.add(process);
                cluster.workers.add(process);
            }
            waitFor(workerCount + " workers to register with the master (see the logs in " + directory + ")",
                    () -> cluster.aliveWorkers() >= workerCount);
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException failure) {
            cluster.close();
            throw failure;
        }
    }

    String masterUrl() {
        return "spark://127.0.0.1:" + masterPort;
    }

    /** The JVM options of Spark's JVMs on Java 17+ (surefire passes the module's list). */
    static String javaOptions() {
        return System.getProperty("tessera.spark.java.options", "");
    }

    /** The test class path, for the cluster's JVMs and the executors. */
    static String classPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    /** The process ids of the executors worker {@code index} started (its child JVMs). */
    Set<Long> executorProcessIds(int index) {
        return workers.get(index).toHandle().descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
    }

    /** Kills worker {@code index} and the executors it started, at once, as a machine that dies. */
    void killWorker(int index) {
        Process worker = workers.get(index);
        worker.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
        worker.destroyForcibly();
    }

    private Process launch(String name, String mainClass, String... arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.add("-Xmx512m");
        for (String option : javaOptions().split("\\s+")) {
            if (!option.isBlank()) {
                command.add(option);
            }
        }
        // The master drops a worker silent for this many seconds; workers beat at a quarter of it, so both must agree.
        command.add("-Dspark.worker.timeout=10");
        command.add("-cp");
        command.add(classPath());
        command.add(mainClass);
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> environment = builder.environment();
        environment.put("SPARK_HOME", sparkHome.toString());
        environment.put("SPARK_SCALA_VERSION", "2.13");
        environment.put("SPARK_LOCAL_IP", "127.0.0.1");
        // Executors are started with $JAVA_HOME/bin/java: the JDK running the tests, not the machine's default.
        environment.put("JAVA_HOME", System.getProperty("java.home"));
        builder.redirectErrorStream(true);
        builder.redirectOutput(directory.resolve(name + ".log").toFile());
        return builder.start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static boolean isListening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    /** The workers the master counts as alive, from the JSON of its web UI (0 while it does not answer). */
    private int aliveWorkers() {
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + masterWebPort + "/json/")).timeout(Duration.ofSeconds(2)).build();
            Matcher alive = ALIVE_WORKERS.matcher(client.send(request, HttpResponse.BodyHandlers.ofString()).body());
            return alive.find() ? Integer.parseInt(alive.group(1)) : 0;
        } catch (IOException notYet) {
            return 0;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** Polls {@code condition} until it holds, failing after the start timeout. */
    static void waitFor(String what, BooleanSupplier condition) throws InterruptedException {
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("timed out after " + START_TIMEOUT.toSeconds() + " s waiting for " + what);
            }
            Thread.sleep(200);
        }
    }

    /** Kills every process of the cluster with its children (executors), workers first. */
    @Override
    public void close() {
        for (Process process : processes.reversed()) {
            process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        for (Process process : processes) {
            try {
                process.waitFor(Duration.ofSeconds(10).toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}

package org.tessera.io.store;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;

/**
 * A real S3 server on loopback for tests: s3proxy, in this JVM, keeping its buckets as directories
 * of {@code directory} (a bucket is a directory, an object a file under it). Other modules' tests
 * use it through the io test jar.
 */
public final class S3TestServer implements AutoCloseable {
    public static final String ACCESS_KEY = "tessera-test";
    public static final String SECRET_KEY = "tessera-test-secret";

    private final S3Proxy proxy;
    private final Path directory;

    private S3TestServer(S3Proxy proxy, Path directory) {
        this.proxy = proxy;
        this.directory = directory;
    }

    /** A server that checks Signature V4 (and V2) against {@link #ACCESS_KEY} and {@link #SECRET_KEY}. */
    public static S3TestServer start(Path directory) throws Exception {
        return start(directory, true);
    }

    /** A server that checks signatures, or accepts any request when {@code authenticate} is false. */
    public static S3TestServer start(Path directory, boolean authenticate) throws Exception {
        return start(directory, authenticate, 0);
    }

    /** A server on {@code port} of the loopback interface (0 for any free one). */
    public static S3TestServer start(Path directory, boolean authenticate, int port) throws Exception {
        Files.createDirectories(directory);
        Properties properties = new Properties();
        properties.setProperty("s3proxy.endpoint", "http://127.0.0.1:" + port);
        properties.setProperty("s3proxy.authorization", authenticate ? "aws-v2-or-v4" : "none");
        if (authenticate) {
            properties.setProperty("s3proxy.identity", ACCESS_KEY);
            properties.setProperty("s3proxy.credential", SECRET_KEY);
        }
        Properties backend = new Properties();
        backend.setProperty("jclouds.filesystem.basedir", directory.toAbsolutePath().toString());
        S3Proxy proxy = S3Proxy.Builder.fromProperties(properties).blobStore(BlobStores.create("filesystem", backend)).build();
        proxy.start();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!proxy.getState().equals("STARTED")) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("s3proxy did not start within 30 s: " + proxy.getState());
            }
            Thread.sleep(10);
        }
        return new S3TestServer(proxy, directory);
    }

    public String endpoint() {
        return "http://127.0.0.1:" + proxy.getPort();
    }

    /** The directory that holds the objects of {@code bucket}. */
    public Path bucketDirectory(String bucket) {
        return directory.resolve(bucket);
    }

    /** Makes {@code bucket} (a directory of the backend) when it is not there yet. */
    public void createBucket(String bucket) throws IOException {
        Files.createDirectories(bucketDirectory(bucket));
    }

    /** Settings that reach this server with its keys. */
    public S3Settings settings() {
        return S3Settings.resolve(Map.of(), new Properties()).withEndpoint(endpoint()).withCredentials(ACCESS_KEY, SECRET_KEY);
    }

    /** The store at {@code s3://bucket/prefix} of this server, with its keys. */
    public S3Store store(String bucket, String prefix) {
        return S3Store.open(URI.create("s3://" + bucket + "/" + prefix), settings());
    }

    /** The environment a child process (zarr-python with boto3, a Spark worker) needs to reach this server. */
    public Map<String, String> environment() {
        return Map.of("AWS_ENDPOINT_URL", endpoint(), "AWS_ACCESS_KEY_ID", ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", SECRET_KEY, "AWS_REGION", "us-east-1");
    }

    /**
     * {@code ./tessera s3-server DIR [PORT]}: the same server in a process of its own, until it is
     * stopped, for trying {@code s3://} locations by hand and for the S3 benchmark; each directory
     * of DIR is a bucket.
     */
    public static void main(String[] arguments) throws Exception {
        if (arguments.length < 1 || arguments.length > 2) {
            System.err.println("usage: tessera s3-server DIR [PORT]   (s3proxy on loopback; each directory of DIR is a bucket; PORT 9000 by default)");
            System.exit(2);
        }
        S3TestServer server = start(Path.of(arguments[0]), true, arguments.length > 1 ? Integer.parseInt(arguments[1]) : 9000);
        System.out.println("S3 server at " + server.endpoint() + ", buckets in " + Path.of(arguments[0]).toAbsolutePath() + "; use it with:");
        server.environment().forEach((name, value) -> System.out.println("  export " + name + "=" + value));
        System.out.flush();
        Thread.currentThread().join();
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
    }
}

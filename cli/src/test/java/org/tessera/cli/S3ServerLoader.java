package org.tessera.cli;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The io module's {@code S3TestServer} (s3proxy on loopback) in this JVM, in a class loader of its
 * own. cli's class path holds Spark, whose Jetty 11 needs the Servlet 5 API, and s3proxy's Jetty 12
 * needs Servlet 6, which dropped classes of 5: no one class path serves both. The server's loader
 * reads the Servlet 6 jar (copied by the build, {@code tessera.s3proxy.servlet.jar}) before the
 * tests' class path, and has no parent but the platform's, so nothing of it meets Spark's classes.
 */
final class S3ServerLoader implements AutoCloseable {
    private final URLClassLoader loader;
    private final Object server;
    private final Path directory;

    private S3ServerLoader(URLClassLoader loader, Object server, Path directory) {
        this.loader = loader;
        this.server = server;
        this.directory = directory;
    }

    /** A server keeping its buckets in {@code directory}, checking signatures against S3TestServer's keys. */
    static S3ServerLoader start(Path directory) throws Exception {
        String servletJar = System.getProperty("tessera.s3proxy.servlet.jar");
        if (servletJar == null || !Files.isRegularFile(Path.of(servletJar))) {
            throw new IllegalStateException("the Servlet 6 jar of the S3 test server is missing (tessera.s3proxy.servlet.jar = " + servletJar
                    + "); Maven's generate-test-resources phase copies it");
        }
        List<URL> urls = new ArrayList<>();
        urls.add(Path.of(servletJar).toUri().toURL());
        for (String entry : System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")).split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        URLClassLoader loader = new URLClassLoader("s3-test-server", urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        // Jetty's threads and jclouds' service look-ups take the context class loader of the thread that starts them.
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Object server = loader.loadClass("org.tessera.io.store.S3TestServer").getMethod("start", Path.class).invoke(null, directory);
            return new S3ServerLoader(loader, server, directory);
        } catch (InvocationTargetException failed) {
            loader.close();
            throw failed.getCause() instanceof Exception cause ? cause : failed;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    String endpoint() throws ReflectiveOperationException {
        return (String) server.getClass().getMethod("endpoint").invoke(server);
    }

    /** The directory that holds the objects of {@code bucket}: a bucket is a directory, an object a file under it. */
    Path bucketDirectory(String bucket) {
        return directory.resolve(bucket);
    }

    void createBucket(String bucket) throws java.io.IOException {
        Files.createDirectories(bucketDirectory(bucket));
    }

    @Override
    public void close() throws Exception {
        try {
            server.getClass().getMethod("close").invoke(server);
        } finally {
            loader.close();
        }
    }
}

package org.tessera.io.store;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A TCP front for a real S3 server that injects the faults object storage has: for each request
 * (one per connection), by its number from 0, it answers 503 SlowDown itself, forwards only half
 * of the request's body and hangs up (a writer cut off mid-upload), or forwards the request whole
 * and relays the answer. The server behind it must not check signatures, as the Host changes.
 */
final class FaultyFront implements AutoCloseable {
    enum Fault { NONE, SLOW_DOWN, CUT_UPLOAD }

    private final ServerSocket listener;
    private final S3TestServer server;
    private final int upstreamPort;
    private final IntFunction<Fault> faults;
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger mostInFlight = new AtomicInteger();
    private final java.util.Queue<String> requestLines = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final Thread acceptor;

    FaultyFront(S3TestServer server, IntFunction<Fault> faults) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.server = server;
        this.upstreamPort = java.net.URI.create(server.endpoint()).getPort();
        this.faults = faults;
        this.acceptor = Thread.ofVirtual().start(this::accept);
    }

    String endpoint() {
        return "http://127.0.0.1:" + listener.getLocalPort();
    }

    /** The store at {@code s3://LOCATION} reached through this front, unsigned, with {@code attempts} tries a request. */
    S3Store store(String location, int attempts) {
        S3Settings settings = server.settings().withCredentials(null, null).withEndpoint(endpoint()).withRetries(attempts, java.time.Duration.ofSeconds(10));
        return S3Store.open(java.net.URI.create("s3://" + location), settings);
    }

    /** The request lines ({@code GET /bucket/key HTTP/1.1}) that have come in. */
    java.util.List<String> requestLines() {
        return java.util.List.copyOf(requestLines);
    }

    /** The most requests that were in this front at once. */
    int mostInFlight() {
        return mostInFlight.get();
    }

    /** How many requests have come in. */
    int requests() {
        return requests.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Thread.ofVirtual().start(() -> serve(client));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            String head = readHead(in);
            if (head.isEmpty()) {
                return;
            }
            byte[] body = in.readNBytes(contentLength(head));
            requestLines.add(head.substring(0, head.indexOf("\r\n")));
            Fault fault = faults.apply(requests.getAndIncrement());
            OutputStream out = client.getOutputStream();
            if (fault == Fault.SLOW_DOWN) {
                byte[] error = "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>".getBytes(StandardCharsets.UTF_8);
                out.write(("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/xml\r\nContent-Length: " + error.length
                        + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(error);
                out.flush();
                return;
            }
            // A request counts as in flight from its arrival until its answer starts back: the
            // client holds its permit until the answer has arrived, so the count never runs ahead
            // of the client's limit, as it would if it lasted until this thread finished sending.
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            byte[] answer;
            try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
                OutputStream toUpstream = upstream.getOutputStream();
                toUpstream.write(head.replaceFirst("\r\n\r\n$", "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                if (fault == Fault.CUT_UPLOAD) {
                    toUpstream.write(body, 0, body.length / 2);
                    toUpstream.flush();
                    return;
                }
                toUpstream.write(body);
                toUpstream.flush();
                answer = upstream.getInputStream().readAllBytes();
            } finally {
                inFlight.decrementAndGet();
            }
            out.write(answer);
            out.flush();
        } catch (IOException ignored) {
            // The client or the server hung up: what the test looks at is what got stored.
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while (matched < 4 && (b = in.read()) >= 0) {
            head.write(b);
            matched = (b == '\r' || b == '\n') && (matched % 2 == 0) == (b == '\r') ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    private static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        return 0;
    }

    @Override
    public void close() throws IOException {
        listener.close();
        acceptor.interrupt();
    }
}

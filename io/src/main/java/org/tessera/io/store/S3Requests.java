package org.tessera.io.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sends signed S3 requests over the JDK's HTTP client: at most {@link S3Settings#maxConcurrency()}
 * in flight to one endpoint from this JVM (the limit of the first store that reaches it). Failures
 * that may pass (time-outs, refused or reset connections, 5xx, 429, S3's {@code SlowDown} and
 * {@code RequestTimeout}) are retried with exponential back-off from 100 ms, doubling up to 10 s,
 * each wait drawn between half and all of it. A final failure is an {@link S3Exception} naming
 * the request, the URI, the endpoint and S3's error code.
 */
final class S3Requests {
    private static final long FIRST_BACKOFF_MILLIS = 100;
    private static final Pattern CODE = Pattern.compile("<Code>([^<]*)</Code>");
    private static final Pattern MESSAGE = Pattern.compile("<Message>([^<]*)</Message>");

    /** One gate per endpoint (a bucket's virtual host on AWS), shared by every store of this JVM. */
    private static final Map<String, Semaphore> GATES = new ConcurrentHashMap<>();

    /** A request's answer: its status, headers and body. */
    record Answer(int status, java.net.http.HttpHeaders headers, byte[] body) {
        String errorCode() {
            Matcher code = CODE.matcher(new String(body, StandardCharsets.UTF_8));
            return code.find() ? code.group(1) : "";
        }

        String errorMessage() {
            Matcher message = MESSAGE.matcher(new String(body, StandardCharsets.UTF_8));
            return message.find() ? message.group(1) : "";
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private S3Requests() {
    }

    /**
     * {@code path} (each segment encoded once with {@link SigV4#encode}) and the query parameters
     * in {@code query} appended to {@code base}, the parameters sorted and encoded as SigV4 signs them.
     */
    static URI uri(String base, String path, Map<String, String> query) {
        StringBuilder url = new StringBuilder(base).append(path);
        if (!query.isEmpty()) {
            StringBuilder joined = new StringBuilder();
            new TreeMap<>(query).forEach((name, value) -> {
                if (!joined.isEmpty()) {
                    joined.append('&');
                }
                joined.append(SigV4.encode(name, false)).append('=').append(SigV4.encode(value, false));
            });
            url.append('?').append(joined);
        }
        return URI.create(url.toString());
    }

    /**
     * Sends {@code method} to {@code uri} with {@code body} (null for none) and the extra headers,
     * signed when the settings have credentials; returns the first answer that is not a failure
     * that may pass, whatever its status. {@code what} names the request in messages.
     */
    static Answer send(S3Settings settings, String method, URI uri, byte[] body, Map<String, String> headers, String what) throws IOException {
        // A body with a checksum for the server to check need not be hashed too, unless the settings say so.
        boolean checked = headers.containsKey(CHECKSUM_HEADER) && !settings.signPayloads();
        String payloadHash = body == null || body.length == 0 ? SigV4.EMPTY_PAYLOAD_SHA256 : checked ? SigV4.UNSIGNED_PAYLOAD : SigV4.sha256Hex(body);
        Semaphore gate = GATES.computeIfAbsent(uri.getScheme() + "://" + uri.getAuthority(), endpoint -> new Semaphore(settings.maxConcurrency()));
        long backoff = FIRST_BACKOFF_MILLIS;
        for (int attempt = 1; ; attempt++) {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(settings.requestTimeout())
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
            headers.forEach(request::header);
            if (settings.signed()) {
                // Signed per attempt: a retry after a long back-off must not carry a stale date.
                SigV4.sign(method, uri, payloadHash, headers, settings, ZonedDateTime.now()).forEach(request::header);
            }
            Answer answer = null;
            IOException failure = null;
            acquire(gate, what);
            try {
                HttpResponse.BodyHandler<byte[]> handler = method.equals("HEAD") ? info -> HttpResponse.BodySubscribers.replacing(new byte[0]) : SizedBody::handle;
                HttpResponse<byte[]> response = Client.next().send(request.build(), handler);
                answer = new Answer(response.statusCode(), response.headers(), response.body() == null ? new byte[0] : response.body());
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw (InterruptedIOException) new InterruptedIOException(what + " was interrupted").initCause(interrupted);
            } catch (IOException io) {
                failure = io;
            } finally {
                gate.release();
            }
            if (answer != null && !mayPass(answer)) {
                return answer;
            }
            if (attempt >= settings.maxAttempts()) {
                if (answer != null) {
                    throw S3Exception.of(what, settings, answer, " on each of " + attempt + " attempts");
                }
                throw new S3Exception(what + " failed after " + attempt + " attempts: " + describe(failure, settings), 0, "", failure);
            }
            sleep(ThreadLocalRandom.current().nextLong(backoff / 2, backoff + 1), what);
            backoff = Math.min(backoff * 2, 10_000);
        }
    }

    private static boolean mayPass(Answer answer) {
        int status = answer.status();
        if (status / 100 == 5 || status == 429) {
            return true;
        }
        return status == 400 && answer.errorCode().equals("RequestTimeout");
    }

    private static String describe(IOException failure, S3Settings settings) {
        String endpoint = settings.endpoint() == null ? "AWS S3" : "the endpoint " + settings.endpoint();
        if (failure instanceof ConnectException) {
            return "cannot connect to " + endpoint + " (" + failure.getClass().getSimpleName() + (failure.getMessage() == null ? "" : ": " + failure.getMessage()) + ")";
        }
        if (failure instanceof HttpTimeoutException) {
            return "no answer from " + endpoint + " within " + settings.requestTimeout().toMillis() + " ms";
        }
        return failure.getClass().getSimpleName() + (failure.getMessage() == null ? "" : ": " + failure.getMessage()) + " talking to " + endpoint;
    }

    private static void acquire(Semaphore gate, String what) throws InterruptedIOException {
        try {
            gate.acquire();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw (InterruptedIOException) new InterruptedIOException(what + " was interrupted while waiting for a connection").initCause(interrupted);
        }
    }

    private static void sleep(long millis, String what) throws InterruptedIOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw (InterruptedIOException) new InterruptedIOException(what + " was interrupted while waiting to retry").initCause(interrupted);
        }
    }

    /**
     * The clients of every S3 store: HTTP/1.1, as S3 speaks it, each with a pool of kept-alive
     * connections. Several, because one JDK client moves every response's bytes through one
     * selector thread, which caps a JVM's throughput from a fast endpoint below what the cores decode.
     */
    private static final class Client {
        private static final HttpClient[] HTTP = new HttpClient[Math.max(2, Runtime.getRuntime().availableProcessors())];
        private static final java.util.concurrent.atomic.AtomicInteger TURN = new java.util.concurrent.atomic.AtomicInteger();

        static {
            for (int i = 0; i < HTTP.length; i++) {
                HTTP[i] = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(10))
                        .followRedirects(HttpClient.Redirect.NEVER)
                        .build();
            }
        }

        static HttpClient next() {
            return HTTP[Math.floorMod(TURN.getAndIncrement(), HTTP.length)];
        }
    }

    /** The header of a body's CRC32C, which S3 checks before it stores the body. */
    static final String CHECKSUM_HEADER = "x-amz-checksum-crc32c";

    /** The {@link #CHECKSUM_HEADER} of {@code body}: its CRC32C, big-endian, in base 64. */
    static Map<String, String> checksum(byte[] body) {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(body);
        byte[] value = java.nio.ByteBuffer.allocate(4).putInt((int) crc.getValue()).array();
        return Map.of(CHECKSUM_HEADER, java.util.Base64.getEncoder().encodeToString(value));
    }

    /** Header values for a byte range. */
    static Map<String, String> range(long offset, int length) {
        return Map.of("Range", "bytes=" + offset + "-" + (offset + length - 1));
    }

    static Optional<String> header(Answer answer, String name) {
        return answer.headers().firstValue(name);
    }
}

package org.tessera.io.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.Serial;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

import org.tessera.graph.metrics.StoreTraffic;

/**
 * A read-only store over plain HTTP(S), as public Zarr data sets are published: key {@code a/0.1}
 * is the URL {@code base/a/0.1}, read with a GET; a ranged read (one inner chunk of a shard) is a
 * GET with a {@code Range} header, and a server that ignores the header and answers with the whole
 * value is handled too, by slicing it. A 404 (or 410) is a missing key, so a missing chunk reads as
 * the fill value; every other status that is not a success is an IOException naming the URL.
 *
 * <p>HTTP has no listing, so {@link #list} throws: what needs the keys of a store (the children of
 * a group, deleting a node) does not work over HTTP, while opening an array or a group at a known
 * path does. Writing throws too.
 *
 * <p>Failures that may pass (an IOException such as a timeout or a reset connection, a 5xx status,
 * a 429) are retried, three attempts in all, 100 ms apart and then 200 ms; a 4xx status never is.
 * All stores share one {@link HttpClient} (HTTP/2 where the server offers it, else HTTP/1.1;
 * connect timeout 10 s, redirects followed except from HTTPS to HTTP); each request times out after
 * 60 s.
 */
public final class HttpStore extends RemoteStore {
    @Serial
    private static final long serialVersionUID = 1L;

    private static final int ATTEMPTS = 3;
    private static final long FIRST_BACKOFF_MILLIS = 100;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    /** The base URI, ending with '/'; a string, as the store is serializable. */
    private final String base;
    private HttpStore(String base) {
        this.base = base;
    }

    /**
     * A store whose keys lie under {@code base}, an {@code http} or {@code https} URI with a host
     * and no query or fragment; a '/' is added when it does not end with one.
     */
    public static HttpStore open(URI base) {
        String scheme = base.getScheme() == null ? "" : base.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("an HTTP store needs an http or https URI, got " + base);
        }
        if (base.getHost() == null) {
            throw new IllegalArgumentException("the URI " + base + " of an HTTP store has no host");
        }
        if (base.getRawQuery() != null || base.getRawFragment() != null) {
            throw new IllegalArgumentException("the URI " + base + " of an HTTP store must have no query or fragment");
        }
        String normalized = base.normalize().toString();
        return new HttpStore(normalized.endsWith("/") ? normalized : normalized + "/");
    }

    /** The base URI, ending with '/'. */
    public URI base() {
        return URI.create(base);
    }

    /** The URL of {@code key}: the base followed by the key's segments, percent-encoded where they must be. */
    public URI uri(String key) {
        StringBuilder url = new StringBuilder(base);
        String[] segments = StoreKeys.validate(key).split("/");
        for (int i = 0; i < segments.length; i++) {
            if (i > 0) {
                url.append('/');
            }
            appendEncoded(url, segments[i]);
        }
        return URI.create(url.toString());
    }

    /** Appends {@code segment} with every byte that may not stand in a path segment (RFC 3986 pchar) percent-encoded. */
    private static void appendEncoded(StringBuilder url, String segment) {
        for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~!$&'()*+,;=:@".indexOf(c) >= 0) {
                url.append((char) c);
            } else {
                url.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16))).append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
    }

    @Override
    Optional<byte[]> fetch(String key) throws IOException {
        URI uri = uri(key);
        HttpResponse<byte[]> response = send(HttpRequest.newBuilder(uri).GET(), HttpResponse.BodyHandlers.ofByteArray(), "GET " + uri);
        if (isMissing(response.statusCode())) {
            return Optional.empty();
        }
        requireSuccess(response, "GET " + uri);
        StoreTraffic.read(response.body().length);
        return Optional.of(response.body());
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        URI uri = uri(key);
        String range = "bytes [" + offset + ", " + (offset + length) + ")";
        if (offset < 0 || length < 0) {
            throw new IOException("byte range [" + offset + ", " + (offset + length) + ") of key " + key + " (" + uri + ") is not a range");
        }
        if (length == 0) {
            // "bytes=a-(a-1)" is not a range HTTP knows: ask for the size instead.
            OptionalLong size = size(key);
            if (size.isPresent() && offset > size.getAsLong()) {
                throw new IOException(range + " of " + uri + " are outside its " + size.getAsLong() + " bytes");
            }
            return size.isPresent() ? Optional.of(new byte[0]) : Optional.empty();
        }
        String what = "GET " + uri + " " + range;
        HttpResponse<byte[]> response = send(HttpRequest.newBuilder(uri).GET().header("Range", "bytes=" + offset + "-" + (offset + length - 1)),
                HttpResponse.BodyHandlers.ofByteArray(), what);
        int status = response.statusCode();
        if (isMissing(status)) {
            return Optional.empty();
        }
        byte[] body = response.body();
        if (status == 416) {
            throw new IOException(what + ": the server answered 416 (range not satisfiable): the range is outside the value"
                    + response.headers().firstValue("Content-Range").map(total -> " (" + total + ")").orElse(""));
        }
        requireSuccess(response, what);
        StoreTraffic.read(body.length);
        if (status == 206) {
            Optional<String> contentRange = response.headers().firstValue("Content-Range");
            if (contentRange.isPresent() && !contentRange.get().strip().startsWith("bytes " + offset + "-")) {
                throw new IOException(what + ": the server answered with the range " + contentRange.get());
            }
            if (body.length != length) {
                throw new IOException(what + ": the server answered with " + body.length + " bytes, not " + length
                        + " (the range is past the end of the value, or the body was cut short)");
            }
            return Optional.of(body);
        }
        // A server that ignores Range (a 200) sends the whole value.
        if (offset + length > body.length) {
            throw new IOException(what + " are outside the " + body.length + " bytes of key " + key);
        }
        return Optional.of(Arrays.copyOfRange(body, (int) offset, (int) offset + length));
    }

    @Override
    public OptionalLong size(String key) throws IOException {
        URI uri = uri(key);
        HttpResponse<Void> response = head(uri);
        int status = response.statusCode();
        if (isMissing(status)) {
            return OptionalLong.empty();
        }
        OptionalLong length = response.headers().firstValueAsLong("Content-Length");
        if (status == 405 || status == 501 || (status / 100 == 2 && length.isEmpty())) {
            // No HEAD, or no length in its answer: read the value to know its size.
            Optional<byte[]> value = get(key);
            return value.isPresent() ? OptionalLong.of(value.get().length) : OptionalLong.empty();
        }
        requireSuccess(response, "HEAD " + uri);
        return length;
    }

    @Override
    public boolean contains(String key) throws IOException {
        URI uri = uri(key);
        HttpResponse<Void> response = head(uri);
        if (isMissing(response.statusCode())) {
            return false;
        }
        if (response.statusCode() == 405 || response.statusCode() == 501) {
            return get(key).isPresent();
        }
        requireSuccess(response, "HEAD " + uri);
        return true;
    }

    private HttpResponse<Void> head(URI uri) throws IOException {
        return send(HttpRequest.newBuilder(uri).method("HEAD", HttpRequest.BodyPublishers.noBody()), HttpResponse.BodyHandlers.discarding(), "HEAD " + uri);
    }

    /** Throws {@link UnsupportedOperationException}: an HTTP store is read-only. */
    @Override
    public void set(String key, byte[] value) {
        throw new UnsupportedOperationException("cannot write key " + key + ": read-only " + describe());
    }

    /** Throws {@link UnsupportedOperationException}: an HTTP store is read-only. */
    @Override
    public void delete(String key) {
        throw new UnsupportedOperationException("cannot delete key " + key + ": read-only " + describe());
    }

    /** Throws {@link UnsupportedOperationException}: HTTP has no way to list the files under a URL. */
    @Override
    public List<String> list(String prefix) {
        throw new UnsupportedOperationException("cannot list the keys under \"" + prefix + "\" of " + describe()
                + ": HTTP has no listing; open arrays and groups by their paths");
    }

    private static boolean isMissing(int status) {
        return status == 404 || status == 410;
    }

    private static void requireSuccess(HttpResponse<?> response, String what) throws IOException {
        if (response.statusCode() / 100 != 2) {
            throw new IOException(what + ": the server answered " + response.statusCode());
        }
    }

    private static boolean isRetryable(int status) {
        return status / 100 == 5 || status == 429;
    }

    /**
     * Sends a request, retrying failures that may pass; the last answer is returned whatever its
     * status, and an IOException naming the request is thrown when every attempt failed with one.
     */
    private static <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> handler, String what) throws IOException {
        HttpRequest built = request.timeout(REQUEST_TIMEOUT).build();
        long backoff = FIRST_BACKOFF_MILLIS;
        for (int attempt = 1; ; attempt++) {
            HttpResponse<T> response = null;
            try {
                response = Client.HTTP.send(built, handler);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                InterruptedIOException failure = new InterruptedIOException(what + " was interrupted");
                failure.initCause(interrupted);
                throw failure;
            } catch (IOException failure) {
                if (attempt == ATTEMPTS) {
                    String reason = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getClass().getSimpleName() + ": " + failure.getMessage();
                    throw new IOException(what + " failed after " + ATTEMPTS + " attempts: " + reason, failure);
                }
            }
            if (response != null && !isRetryable(response.statusCode())) {
                return response;
            }
            if (response != null && attempt == ATTEMPTS) {
                throw new IOException(what + ": the server answered " + response.statusCode() + " to each of " + ATTEMPTS + " attempts");
            }
            try {
                Thread.sleep(backoff);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                InterruptedIOException failure = new InterruptedIOException(what + " was interrupted while waiting to retry");
                failure.initCause(interrupted);
                throw failure;
            }
            backoff *= 2;
        }
    }

    /** The client of every HTTP store, made when the first request is sent. */
    private static final class Client {
        static final HttpClient HTTP = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    @Override
    public String describe() {
        return "HTTP " + base;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HttpStore store && base.equals(store.base);
    }

    @Override
    public int hashCode() {
        return base.hashCode();
    }

    @Override
    public String toString() {
        return "HttpStore[" + base + "]";
    }
}

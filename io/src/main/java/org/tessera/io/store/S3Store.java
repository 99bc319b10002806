package org.tessera.io.store;

import java.io.IOException;
import java.io.Serial;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.tessera.graph.metrics.StoreTraffic;

/**
 * A store in an S3 bucket or an S3-compatible server: key {@code a/0.1} of the store at
 * {@code s3://bucket/data.zarr} is the object {@code data.zarr/a/0.1} of {@code bucket}, the layout
 * zarr-python's and s3fs's stores use, so either side reads what the other wrote.
 *
 * <p>Each value is one PUT with the CRC32C of its bytes, which the server checks before it keeps
 * them (see {@link S3Settings#signPayloads()}), or for a value over {@link S3Settings#multipartThreshold()} one
 * multipart upload, which S3 makes visible only when it completes: a chunk is whole or absent,
 * and a failed upload is aborted. Ranged reads are GETs with a {@code Range} header; listing is
 * {@code ListObjectsV2}, page by page. A missing key reads as empty (a chunk as its fill value); a
 * missing bucket, refused credentials, an unreachable endpoint or throttling that outlasts the
 * retries are {@link S3Exception}s naming the {@code s3://} URI. How requests are addressed,
 * signed, paced and retried is {@link S3Settings}'s.
 *
 * <p>This client is a lean one over the JDK's HTTP client with Signature V4, not the AWS SDK: the
 * store needs eight requests, and the SDK's {@code s3} artifact brings 45 jars (15.5 MB) to every
 * program that reads a Zarr store; {@code ./tessera s3-clients} compares their throughput (the
 * README gives the figures).
 */
public final class S3Store extends RemoteStore {
    @Serial
    private static final long serialVersionUID = 1L;

    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

    private final String bucket;
    /** The object-key prefix of the store's keys: "" or ending with '/'. */
    private final String root;
    private final S3Settings settings;

    private S3Store(String bucket, String root, S3Settings settings) {
        this.bucket = bucket;
        this.root = root;
        this.settings = settings;
    }

    /** The store at {@code location} ({@code s3://bucket} or {@code s3://bucket/prefix}), configured from this JVM's environment. */
    public static S3Store open(URI location) {
        return open(location, S3Settings.fromEnvironment());
    }

    /** The store at {@code location} with {@code settings}. */
    public static S3Store open(URI location, S3Settings settings) {
        if (!"s3".equalsIgnoreCase(location.getScheme())) {
            throw new IllegalArgumentException("an S3 store needs an s3:// URI, got " + location);
        }
        String bucket = location.getAuthority();
        if (bucket == null || !BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
            throw new IllegalArgumentException("the URI " + location + " does not name a valid bucket (3 to 63 lower-case letters, digits, '.' and '-')");
        }
        if (location.getRawQuery() != null || location.getRawFragment() != null) {
            throw new IllegalArgumentException("the URI " + location + " of an S3 store must have no query or fragment");
        }
        String prefix = StoreKeys.normalizePath(location.getPath() == null ? "" : location.getPath());
        return new S3Store(bucket, prefix.isEmpty() ? "" : prefix + "/", settings);
    }

    public String bucket() {
        return bucket;
    }

    public S3Settings settings() {
        return settings;
    }

    /** The {@code s3://} URI of the store, ending with '/'. */
    public URI uri() {
        return URI.create("s3://" + bucket + "/" + root);
    }

    private String s3Uri(String key) {
        return "s3://" + bucket + "/" + root + key;
    }

    /** The HTTP(S) URL of the object that holds {@code key} (or of the bucket for null), with {@code query}. */
    private URI url(String key, Map<String, String> query) {
        String path = key == null ? "/" : "/" + SigV4.encode(root + StoreKeys.validate(key), true);
        return S3Requests.uri(settings.endpointFor(bucket), path, query);
    }

    private S3Requests.Answer send(String method, String key, Map<String, String> query, byte[] body, Map<String, String> headers, String what) throws IOException {
        return S3Requests.send(settings, method, url(key, query), body, headers, what);
    }

    /** The answer when it is a success, empty when it says the key is missing; every other answer throws. */
    private Optional<S3Requests.Answer> successOrMissing(S3Requests.Answer answer, String what) throws S3Exception {
        if (answer.status() / 100 == 2) {
            return Optional.of(answer);
        }
        // A HEAD has no body, so its 404 cannot tell a missing key from a missing bucket; GETs can.
        if (answer.status() == 404 && !answer.errorCode().equals("NoSuchBucket")) {
            return Optional.empty();
        }
        throw S3Exception.of(what, settings, answer, "");
    }

    @Override
    Optional<byte[]> fetch(String key) throws IOException {
        String what = "GET " + s3Uri(key);
        Optional<S3Requests.Answer> answer = successOrMissing(send("GET", key, Map.of(), null, Map.of(), what), what);
        answer.ifPresent(found -> StoreTraffic.read(found.body().length));
        return answer.map(S3Requests.Answer::body);
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        String what = "GET " + s3Uri(key) + " bytes [" + offset + ", " + (offset + length) + ")";
        if (offset < 0 || length < 0) {
            throw new IOException(what + " is not a range");
        }
        if (length == 0) {
            OptionalLong size = size(key);
            if (size.isPresent() && offset > size.getAsLong()) {
                throw new IOException(what + " are outside its " + size.getAsLong() + " bytes");
            }
            return size.isPresent() ? Optional.of(new byte[0]) : Optional.empty();
        }
        S3Requests.Answer answer = send("GET", key, Map.of(), null, S3Requests.range(offset, length), what);
        if (answer.status() == 416) {
            throw new IOException(what + " are outside the value" + S3Requests.header(answer, "Content-Range").map(total -> " (" + total + ")").orElse(""));
        }
        Optional<S3Requests.Answer> found = successOrMissing(answer, what);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        byte[] body = found.get().body();
        StoreTraffic.read(body.length);
        if (answer.status() == 206) {
            if (body.length != length) {
                String total = S3Requests.header(answer, "Content-Range").map(range -> range.substring(range.indexOf('/') + 1)).orElse("?");
                throw new IOException(what + " are outside the " + total + " bytes of the value (the server sent " + body.length + " bytes, not " + length + ")");
            }
            return Optional.of(body);
        }
        if (offset + length > body.length) {
            throw new IOException(what + " are outside the " + body.length + " bytes of the value");
        }
        return Optional.of(Arrays.copyOfRange(body, (int) offset, (int) offset + length));
    }

    @Override
    public OptionalLong size(String key) throws IOException {
        String what = "HEAD " + s3Uri(key);
        Optional<S3Requests.Answer> answer = successOrMissing(send("HEAD", key, Map.of(), null, Map.of(), what), what);
        if (answer.isEmpty()) {
            return OptionalLong.empty();
        }
        return answer.get().headers().firstValueAsLong("Content-Length");
    }

    @Override
    public boolean contains(String key) throws IOException {
        return size(key).isPresent();
    }

    @Override
    public void set(String key, byte[] value) throws IOException {
        String what = "PUT " + s3Uri(key);
        if (value.length > settings.multipartThreshold()) {
            new MultipartUpload(key, what).upload(value);
        } else {
            S3Requests.Answer answer = send("PUT", key, Map.of(), value, S3Requests.checksum(value), what);
            if (answer.status() / 100 != 2) {
                throw S3Exception.of(what, settings, answer, "");
            }
        }
        StoreTraffic.written(value.length);
    }

    @Override
    public void delete(String key) throws IOException {
        String what = "DELETE " + s3Uri(key);
        S3Requests.Answer answer = send("DELETE", key, Map.of(), null, Map.of(), what);
        if (answer.status() / 100 != 2 && answer.status() != 404) {
            throw S3Exception.of(what, settings, answer, "");
        }
    }

    private static final Pattern CONTENTS = Pattern.compile("<Contents>(.*?)</Contents>", Pattern.DOTALL);
    private static final Pattern KEY = Pattern.compile("<Key>([^<]*)</Key>");
    private static final Pattern SIZE = Pattern.compile("<Size>(\\d+)</Size>");
    private static final Pattern NEXT = Pattern.compile("<NextContinuationToken>([^<]*)</NextContinuationToken>");
    private static final Pattern UPLOAD_ID = Pattern.compile("<UploadId>([^<]*)</UploadId>");

    @Override
    public List<String> list(String prefix) throws IOException {
        return new ArrayList<>(listSizes(prefix).keySet());
    }

    /** One {@code ListObjectsV2} request per thousand keys: each entry names its key and its size. */
    @Override
    public Map<String, Long> listSizes(String prefix) throws IOException {
        Map<String, Long> sizes = new java.util.LinkedHashMap<>();
        String token = null;
        do {
            Map<String, String> query = new HashMap<>(Map.of("list-type", "2", "prefix", root + prefix));
            if (token != null) {
                query.put("continuation-token", token);
            }
            String what = "LIST s3://" + bucket + "/" + root + prefix + "*";
            S3Requests.Answer answer = send("GET", null, query, null, Map.of(), what);
            if (answer.status() / 100 != 2) {
                throw S3Exception.of(what, settings, answer, "");
            }
            String xml = answer.text();
            Matcher entry = CONTENTS.matcher(xml);
            while (entry.find()) {
                Matcher key = KEY.matcher(entry.group(1));
                Matcher size = SIZE.matcher(entry.group(1));
                if (!key.find() || !size.find()) {
                    throw new IOException(what + ": a listing entry without a key or a size: " + entry.group(1));
                }
                sizes.put(unescape(key.group(1)).substring(root.length()), Long.parseLong(size.group(1)));
            }
            Matcher next = NEXT.matcher(xml);
            token = xml.contains("<IsTruncated>true</IsTruncated>") && next.find() ? unescape(next.group(1)) : null;
        } while (token != null);
        return sizes;
    }

    /** XML's five escapes, the only ones S3's listings use. */
    private static String unescape(String text) {
        return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&");
    }

    /** One multipart upload: created, its parts sent in order, then completed, or aborted on any failure. */
    private final class MultipartUpload {
        private final String key;
        private final String what;

        MultipartUpload(String key, String what) {
            this.key = key;
            this.what = what + " (multipart)";
        }

        void upload(byte[] value) throws IOException {
            S3Requests.Answer created = send("POST", key, Map.of("uploads", ""), null, Map.of(), what);
            Matcher id = UPLOAD_ID.matcher(created.text());
            if (created.status() / 100 != 2 || !id.find()) {
                throw S3Exception.of(what, settings, created, "");
            }
            String uploadId = id.group(1);
            try {
                StringBuilder completion = new StringBuilder("<CompleteMultipartUpload>");
                int parts = (int) ((value.length + (long) settings.partSize() - 1) / settings.partSize());
                for (int part = 1; part <= parts; part++) {
                    int from = (part - 1) * settings.partSize();
                    byte[] bytes = Arrays.copyOfRange(value, from, Math.min(value.length, from + settings.partSize()));
                    S3Requests.Answer sent = send("PUT", key, Map.of("partNumber", Integer.toString(part), "uploadId", uploadId), bytes, Map.of(),
                            what + " part " + part + " of " + parts);
                    Optional<String> etag = S3Requests.header(sent, "ETag");
                    if (sent.status() / 100 != 2 || etag.isEmpty()) {
                        throw S3Exception.of(what + " part " + part + " of " + parts, settings, sent, "");
                    }
                    completion.append("<Part><PartNumber>").append(part).append("</PartNumber><ETag>")
                            .append(etag.get().replace("&", "&amp;").replace("\"", "&quot;")).append("</ETag></Part>");
                }
                completion.append("</CompleteMultipartUpload>");
                S3Requests.Answer completed = send("POST", key, Map.of("uploadId", uploadId), completion.toString().getBytes(StandardCharsets.UTF_8),
                        Map.of("Content-Type", "application/xml"), what + " completion");
                // S3 may answer 200 with an error in the body when completion fails late.
                if (completed.status() / 100 != 2 || completed.text().contains("<Error>")) {
                    throw S3Exception.of(what + " completion", settings, completed, "");
                }
            } catch (IOException | RuntimeException failure) {
                abort(uploadId, failure);
                throw failure;
            }
        }

        private void abort(String uploadId, Exception failure) {
            try {
                send("DELETE", key, Map.of("uploadId", uploadId), null, Map.of(), what + " abort");
            } catch (IOException abortFailed) {
                failure.addSuppressed(abortFailed);
            }
        }
    }

    @Override
    public String describe() {
        return "S3 s3://" + bucket + "/" + root + (settings.endpoint() == null ? "" : " at " + settings.endpoint());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof S3Store store && bucket.equals(store.bucket) && root.equals(store.root)
                && java.util.Objects.equals(settings.endpoint(), store.settings.endpoint());
    }

    @Override
    public int hashCode() {
        return (bucket + "/" + root).toLowerCase(Locale.ROOT).hashCode();
    }

    @Override
    public String toString() {
        return "S3Store[s3://" + bucket + "/" + root + ", " + settings + "]";
    }
}

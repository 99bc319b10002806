package org.tessera.io.store;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 for S3 requests: the headers that sign a request, computed from its
 * method, its already-encoded path and query, and the hash of its body. S3 signs the path as sent
 * (it is not encoded a second time, unlike other AWS services), so the caller encodes each key
 * segment once, with {@link #encode}, and uses the same string in the URL.
 */
final class SigV4 {
    static final String EMPTY_PAYLOAD_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    /** The payload hash of a request whose body the signature does not cover. */
    static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final HexFormat HEX = HexFormat.of();

    private SigV4() {
    }

    /**
     * The headers to add to a request of {@code method} to {@code uri} whose body hashes to
     * {@code payloadSha256} (or {@link #UNSIGNED_PAYLOAD}) and that carries {@code requestHeaders}
     * too, whose {@code x-amz-*} ones are signed: {@code x-amz-date}, {@code x-amz-content-sha256},
     * the session token when there is one, and {@code Authorization}. {@code uri}'s raw path and query must be
     * encoded with {@link #encode} and its query parameters sorted, as {@link S3Requests} builds them.
     */
    static Map<String, String> sign(String method, URI uri, String payloadSha256, Map<String, String> requestHeaders, S3Settings settings, ZonedDateTime now) {
        String stamp = STAMP.format(now.withZoneSameInstant(ZoneOffset.UTC));
        String day = stamp.substring(0, 8);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("x-amz-content-sha256", payloadSha256);
        headers.put("x-amz-date", stamp);
        if (settings.sessionToken() != null) {
            headers.put("x-amz-security-token", settings.sessionToken());
        }
        TreeMap<String, String> signedHeaders = new TreeMap<>(headers);
        signedHeaders.put("host", hostHeader(uri));
        // S3 refuses x-amz-* headers that the signature does not cover (a checksum, say).
        requestHeaders.forEach((name, value) -> {
            String lower = name.toLowerCase(java.util.Locale.ROOT);
            if (lower.startsWith("x-amz-")) {
                signedHeaders.put(lower, value);
            }
        });
        StringBuilder canonical = new StringBuilder()
                .append(method).append('\n')
                .append(uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath()).append('\n')
                .append(uri.getRawQuery() == null ? "" : uri.getRawQuery()).append('\n');
        signedHeaders.forEach((name, value) -> canonical.append(name).append(':').append(value.strip()).append('\n'));
        String signedNames = String.join(";", signedHeaders.keySet());
        canonical.append('\n').append(signedNames).append('\n').append(payloadSha256);
        String scope = day + "/" + settings.region() + "/s3/aws4_request";
        String toSign = "AWS4-HMAC-SHA256\n" + stamp + "\n" + scope + "\n" + sha256Hex(canonical.toString().getBytes(StandardCharsets.UTF_8));
        byte[] key = hmac(("AWS4" + settings.secretKey()).getBytes(StandardCharsets.UTF_8), day);
        key = hmac(key, settings.region());
        key = hmac(key, "s3");
        key = hmac(key, "aws4_request");
        String signature = HEX.formatHex(hmac(key, toSign));
        headers.put("Authorization", "AWS4-HMAC-SHA256 Credential=" + settings.accessKey() + "/" + scope
                + ", SignedHeaders=" + signedNames + ", Signature=" + signature);
        return headers;
    }

    /** The Host header the JDK's HTTP client sends for {@code uri}: the port only when it is not the scheme's own. */
    private static String hostHeader(URI uri) {
        int port = uri.getPort();
        boolean defaultPort = port == -1 || (port == 80 && "http".equalsIgnoreCase(uri.getScheme())) || (port == 443 && "https".equalsIgnoreCase(uri.getScheme()));
        return defaultPort ? uri.getHost() : uri.getHost() + ":" + port;
    }

    /** {@code text} percent-encoded as SigV4 wants: every byte but A-Z a-z 0-9 - . _ ~ (and '/' when {@code keepSlash}). */
    static String encode(String text, boolean keepSlash) {
        StringBuilder encoded = new StringBuilder(text.length() + 8);
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~' || (keepSlash && c == '/')) {
                encoded.append((char) c);
            } else {
                encoded.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16))).append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return encoded.toString();
    }

    static String sha256Hex(byte[] data) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (GeneralSecurityException impossible) {
            throw new IllegalStateException("this JVM has no SHA-256", impossible);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException impossible) {
            throw new IllegalStateException("this JVM has no HmacSHA256", impossible);
        }
    }
}

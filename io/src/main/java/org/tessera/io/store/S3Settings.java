package org.tessera.io.store;

import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Where S3 requests go and how they are signed and paced, resolved the way the AWS SDKs and CLI
 * resolve them, so a program configured for them is configured for Tessera:
 *
 * <ul>
 *   <li>each value from the JVM's system properties first ({@code aws.accessKeyId},
 *       {@code aws.secretAccessKey}, {@code aws.sessionToken}, {@code aws.region},
 *       {@code aws.endpointUrl}, {@code aws.profile}), then the environment
 *       ({@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY}, {@code AWS_SESSION_TOKEN},
 *       {@code AWS_REGION} or {@code AWS_DEFAULT_REGION}, {@code AWS_ENDPOINT_URL_S3} or
 *       {@code AWS_ENDPOINT_URL}, {@code AWS_PROFILE}), then the profile's section of
 *       {@code ~/.aws/credentials} and {@code ~/.aws/config} (or the files that
 *       {@code AWS_SHARED_CREDENTIALS_FILE} and {@code AWS_CONFIG_FILE} name);</li>
 *   <li>no endpoint means AWS itself, addressed virtual-host style
 *       ({@code https://bucket.s3.region.amazonaws.com/key}); an endpoint means an S3-compatible
 *       server (MinIO, Ceph, s3proxy), addressed path-style ({@code endpoint/bucket/key});</li>
 *   <li>no access key means anonymous requests, unsigned, as public buckets allow.</li>
 * </ul>
 *
 * <p>A store carries its settings, credentials included, into the tasks that read it on Spark
 * executors, as Hadoop's configuration carries {@code fs.s3a} keys: an executor needs no
 * configuration of its own. {@link #toString()} never shows the secret.
 *
 * @param endpoint the endpoint of an S3-compatible server, or null for AWS
 * @param region the signing region; us-east-1 when none is configured
 * @param accessKey null for anonymous requests
 * @param maxConcurrency requests in flight at once to one endpoint, from this JVM
 * @param maxAttempts attempts of a request whose failure may pass (throttling, 5xx, time-outs)
 * @param multipartThreshold values larger than this are written by a multipart upload
 * @param partSize the size of each part of a multipart upload (S3 wants at least 5 MiB)
 * @param signPayloads whether a PUT signs the SHA-256 of its body; otherwise it sends
 *                     {@code UNSIGNED-PAYLOAD} and the server checks the body against the signed
 *                     CRC32C that every PUT of a value carries. SHA-256 costs more than the rest of
 *                     a PUT from a fast server (about 400 MB/s here), so by default only plain
 *                     {@code http://} endpoints sign bodies, as the AWS SDKs do; HTTPS protects
 *                     the body on its way. {@code tessera.s3.signPayloads} (or
 *                     {@code TESSERA_S3_SIGN_PAYLOADS}) true or false decides otherwise, for a
 *                     trusted network.
 */
public record S3Settings(String endpoint, String region, String accessKey, String secretKey, String sessionToken,
                         int maxConcurrency, int maxAttempts, Duration requestTimeout, long multipartThreshold, int partSize,
                         boolean signPayloads)
        implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private static final String DEFAULT_REGION = "us-east-1";
    private static final long MIB = 1 << 20;

    public S3Settings {
        if (endpoint != null) {
            URI parsed = URI.create(endpoint);
            String scheme = parsed.getScheme() == null ? "" : parsed.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || parsed.getHost() == null) {
                throw new IllegalArgumentException("the S3 endpoint " + endpoint + " must be an http or https URL with a host");
            }
            endpoint = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
        }
        if (region == null || region.isBlank()) {
            region = DEFAULT_REGION;
        }
        if ((accessKey == null) != (secretKey == null)) {
            throw new IllegalArgumentException("S3 credentials need both an access key and a secret key; only the "
                    + (accessKey == null ? "secret key" : "access key " + accessKey) + " is set");
        }
        if (maxConcurrency < 1 || maxAttempts < 1) {
            throw new IllegalArgumentException("S3 settings need at least one request in flight and one attempt, got "
                    + maxConcurrency + " and " + maxAttempts);
        }
        if (partSize < 5 * MIB || multipartThreshold < partSize) {
            throw new IllegalArgumentException("S3 multipart uploads need parts of at least 5 MiB and a threshold no smaller than a part, got parts of "
                    + partSize + " bytes and a threshold of " + multipartThreshold);
        }
    }

    /** The settings of this JVM: its system properties, its environment and the AWS profile files. */
    public static S3Settings fromEnvironment() {
        return resolve(System.getenv(), System.getProperties());
    }

    /** The settings that {@code environment} and {@code properties} give, with the profile files they name. */
    public static S3Settings resolve(Map<String, String> environment, Properties properties) {
        Lookup lookup = new Lookup(environment, properties);
        String profile = lookup.first("aws.profile", "AWS_PROFILE").orElse("default");
        Map<String, String> fromFiles = lookup.profile(profile);
        String endpoint = lookup.first("aws.endpointUrl", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL")
                .or(() -> Optional.ofNullable(fromFiles.get("endpoint_url"))).orElse(null);
        String region = lookup.first("aws.region", "AWS_REGION", "AWS_DEFAULT_REGION")
                .or(() -> Optional.ofNullable(fromFiles.get("region"))).orElse(DEFAULT_REGION);
        // Keys come as a pair from one place, never an access key from one and a secret from another.
        String accessKey = lookup.first("aws.accessKeyId").orElse(null);
        String secretKey = lookup.first("aws.secretAccessKey").orElse(null);
        String token = lookup.first("aws.sessionToken").orElse(null);
        if (accessKey == null && secretKey == null) {
            accessKey = lookup.first("AWS_ACCESS_KEY_ID").orElse(null);
            secretKey = lookup.first("AWS_SECRET_ACCESS_KEY").orElse(null);
            token = lookup.first("AWS_SESSION_TOKEN").orElse(null);
        }
        if (accessKey == null && secretKey == null) {
            accessKey = fromFiles.get("aws_access_key_id");
            secretKey = fromFiles.get("aws_secret_access_key");
            token = fromFiles.get("aws_session_token");
        }
        boolean plainHttp = endpoint != null && endpoint.regionMatches(true, 0, "http://", 0, 7);
        boolean signPayloads = lookup.first("tessera.s3.signPayloads", "TESSERA_S3_SIGN_PAYLOADS").map(Boolean::parseBoolean).orElse(plainHttp);
        return new S3Settings(endpoint, region, accessKey, secretKey, token, 32, 5, Duration.ofSeconds(60), 64 * MIB, (int) (16 * MIB), signPayloads);
    }

    /** The same settings against {@code newEndpoint} (path-style), as tests and local servers need. */
    public S3Settings withEndpoint(String newEndpoint) {
        return new S3Settings(newEndpoint, region, accessKey, secretKey, sessionToken, maxConcurrency, maxAttempts, requestTimeout, multipartThreshold, partSize, signPayloads);
    }

    /** The same settings with these keys ({@code null, null} for anonymous requests). */
    public S3Settings withCredentials(String newAccessKey, String newSecretKey) {
        return new S3Settings(endpoint, region, newAccessKey, newSecretKey, null, maxConcurrency, maxAttempts, requestTimeout, multipartThreshold, partSize, signPayloads);
    }

    /** The same settings with at most {@code requests} in flight to one endpoint. */
    public S3Settings withMaxConcurrency(int requests) {
        return new S3Settings(endpoint, region, accessKey, secretKey, sessionToken, requests, maxAttempts, requestTimeout, multipartThreshold, partSize, signPayloads);
    }

    /** The same settings with {@code attempts} tries of a request, each timing out after {@code timeout}. */
    public S3Settings withRetries(int attempts, Duration timeout) {
        return new S3Settings(endpoint, region, accessKey, secretKey, sessionToken, maxConcurrency, attempts, timeout, multipartThreshold, partSize, signPayloads);
    }

    /** The same settings uploading values over {@code threshold} bytes in parts of {@code part} bytes. */
    public S3Settings withMultipart(long threshold, int part) {
        return new S3Settings(endpoint, region, accessKey, secretKey, sessionToken, maxConcurrency, maxAttempts, requestTimeout, threshold, part, signPayloads);
    }

    /** The same settings, signing the bodies of PUTs or not (see the record's description). */
    public S3Settings withPayloadSigning(boolean sign) {
        return new S3Settings(endpoint, region, accessKey, secretKey, sessionToken, maxConcurrency, maxAttempts, requestTimeout, multipartThreshold, partSize, sign);
    }

    /** Whether requests are signed. */
    public boolean signed() {
        return accessKey != null;
    }

    /** Path-style addressing: always with an explicit endpoint, as S3-compatible servers expect. */
    public boolean pathStyle() {
        return endpoint != null;
    }

    /** The endpoint requests for {@code bucket} go to, without a trailing '/'. */
    public String endpointFor(String bucket) {
        if (endpoint != null) {
            return endpoint + "/" + bucket;
        }
        return "https://" + bucket + ".s3." + region + ".amazonaws.com";
    }

    @Override
    public String toString() {
        return "S3Settings[endpoint=" + (endpoint == null ? "AWS" : endpoint) + ", region=" + region
                + ", " + (accessKey == null ? "anonymous" : "access key " + accessKey) + ", maxConcurrency=" + maxConcurrency + "]";
    }

    /** Looks values up in the system properties, the environment and the profile files, in that order. */
    private record Lookup(Map<String, String> environment, Properties properties) {
        Optional<String> first(String... names) {
            for (String name : names) {
                String value = name.contains(".") ? properties.getProperty(name) : environment.get(name);
                if (value != null && !value.isBlank()) {
                    return Optional.of(value.strip());
                }
            }
            return Optional.empty();
        }

        /** The profile's keys: ~/.aws/config's {@code [profile NAME]} (or {@code [default]}), overridden by ~/.aws/credentials' {@code [NAME]}. */
        Map<String, String> profile(String name) {
            Path home = Path.of(properties.getProperty("user.home", System.getProperty("user.home")));
            Path config = first("AWS_CONFIG_FILE").map(Path::of).orElse(home.resolve(".aws").resolve("config"));
            Path credentials = first("AWS_SHARED_CREDENTIALS_FILE").map(Path::of).orElse(home.resolve(".aws").resolve("credentials"));
            Map<String, String> values = new HashMap<>(section(config, name.equals("default") ? List.of("default", "profile default") : List.of("profile " + name)));
            values.putAll(section(credentials, List.of(name)));
            return values;
        }

        /** The {@code key = value} lines of the first of {@code headers} found in the INI file {@code file}; empty when it has none. */
        private static Map<String, String> section(Path file, List<String> headers) {
            if (!Files.isRegularFile(file)) {
                return Map.of();
            }
            List<String> lines;
            try {
                lines = Files.readAllLines(file);
            } catch (IOException unreadable) {
                throw new IllegalArgumentException("cannot read the AWS profile file " + file + ": " + unreadable.getMessage(), unreadable);
            }
            for (String header : headers) {
                Map<String, String> values = new HashMap<>();
                boolean inside = false;
                boolean found = false;
                for (String raw : lines) {
                    String line = raw.strip();
                    if (line.startsWith("[") && line.endsWith("]")) {
                        inside = line.substring(1, line.length() - 1).strip().equals(header);
                        found |= inside;
                    } else if (inside && !line.startsWith("#") && !line.startsWith(";") && line.contains("=")) {
                        int equals = line.indexOf('=');
                        values.put(line.substring(0, equals).strip().toLowerCase(Locale.ROOT), line.substring(equals + 1).strip());
                    }
                }
                if (found) {
                    return values;
                }
            }
            return Map.of();
        }
    }
}

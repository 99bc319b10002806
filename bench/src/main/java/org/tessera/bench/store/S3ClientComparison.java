package org.tessera.bench.store;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.tessera.io.store.S3Settings;
import org.tessera.io.store.S3Store;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;

/**
 * {@code ./tessera s3-clients s3://BUCKET/STORE [ROUNDS]}: reads every object of a store (a Zarr
 * store's chunks) with each S3 client, in rounds that alternate the clients, and prints each
 * client's throughput: Tessera's {@link S3Store} (the JDK's HTTP client, Signature V4), and the AWS
 * SDK for Java v2 with its Apache 5 client (its default) and its URL-connection client. Each
 * client reads with the same number of requests in flight (threads), and keeps no value longer
 * than it takes to count its bytes. The endpoint and keys are the AWS convention's, as for any
 * {@code s3://} location ({@link S3Settings#fromEnvironment()}).
 */
public final class S3ClientComparison {
    private S3ClientComparison() {
    }

    /** A client's way to fetch one object's bytes. */
    @FunctionalInterface
    private interface Fetch {
        long bytes(String key) throws IOException;
    }

    public static void main(String[] arguments) throws Exception {
        if (arguments.length < 1 || arguments.length > 2) {
            System.err.println("usage: tessera s3-clients s3://BUCKET/STORE [ROUNDS]   (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, ... as for any s3:// location)");
            System.exit(2);
        }
        URI location = URI.create(arguments[0]);
        int rounds = arguments.length > 1 ? Integer.parseInt(arguments[1]) : 3;
        S3Settings settings = S3Settings.fromEnvironment();
        S3Store store = S3Store.open(location, settings);
        List<String> keys = store.list("").stream().filter(key -> !key.substring(key.lastIndexOf('/') + 1).startsWith(".")).sorted().toList();
        String prefix = location.getPath() == null || location.getPath().length() <= 1 ? "" : location.getPath().substring(1).replaceAll("/*$", "/");
        int threads = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

        Map<String, Fetch> clients = new LinkedHashMap<>();
        clients.put("tessera S3Store (java.net.http)", key -> store.get(key).orElseThrow().length);
        try (S3Client apache = sdk(settings, Apache5HttpClient.builder().maxConnections(threads).build());
             S3Client urlConnection = sdk(settings, UrlConnectionHttpClient.builder().build())) {
            clients.put("AWS SDK v2 + Apache 5 client", key -> sdkBytes(apache, store.bucket(), prefix + key));
            clients.put("AWS SDK v2 + URL-connection client", key -> sdkBytes(urlConnection, store.bucket(), prefix + key));
            Map<String, List<Double>> rates = new LinkedHashMap<>();
            System.out.printf(Locale.ROOT, "%d objects of %s, %d requests in flight, %d rounds (the first a warm-up)%n", keys.size(), location, threads, rounds + 1);
            for (int round = 0; round <= rounds; round++) {
                for (Map.Entry<String, Fetch> client : clients.entrySet()) {
                    long start = System.nanoTime();
                    long bytes = readAll(keys, client.getValue(), threads);
                    double seconds = (System.nanoTime() - start) / 1e9;
                    if (round > 0) {
                        rates.computeIfAbsent(client.getKey(), name -> new ArrayList<>()).add(bytes / seconds / 1e6);
                    }
                    System.out.printf(Locale.ROOT, "round %d  %-36s %,d bytes in %.2f s: %.0f MB/s%n", round, client.getKey(), bytes, seconds, bytes / seconds / 1e6);
                }
            }
            rates.forEach((name, values) -> System.out.printf(Locale.ROOT, "median   %-36s %.0f MB/s%n", name,
                    values.stream().sorted().toList().get(values.size() / 2)));
        }
    }

    private static S3Client sdk(S3Settings settings, SdkHttpClient http) {
        AwsCredentialsProvider credentials = settings.signed()
                ? StaticCredentialsProvider.create(AwsBasicCredentials.create(settings.accessKey(), settings.secretKey()))
                : AnonymousCredentialsProvider.create();
        var builder = S3Client.builder().httpClient(http).region(Region.of(settings.region())).credentialsProvider(credentials)
                .forcePathStyle(settings.pathStyle());
        if (settings.endpoint() != null) {
            builder.endpointOverride(URI.create(settings.endpoint()));
        }
        return builder.build();
    }

    private static long sdkBytes(S3Client client, String bucket, String key) {
        return client.getObject(GetObjectRequest.builder().bucket(bucket).key(key).build(), ResponseTransformer.toBytes()).asByteArray().length;
    }

    private static long readAll(List<String> keys, Fetch fetch, int threads) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<Long>> reads = new ArrayList<>();
            for (String key : keys) {
                reads.add(pool.submit(() -> fetch.bytes(key)));
            }
            long total = 0;
            for (Future<Long> read : reads) {
                total += read.get();
            }
            return total;
        }
    }
}

package org.tessera.io.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** S3 settings come from where the AWS tools take them, in the same order. */
class S3SettingsTest {
    @TempDir
    Path home;

    private Properties properties(String... pairs) {
        Properties properties = new Properties();
        properties.setProperty("user.home", home.toString());
        for (int i = 0; i < pairs.length; i += 2) {
            properties.setProperty(pairs[i], pairs[i + 1]);
        }
        return properties;
    }

    private void profiles() throws IOException {
        Files.createDirectories(home.resolve(".aws"));
        Files.writeString(home.resolve(".aws/credentials"), """
                [default]
                aws_access_key_id = DEFAULTKEY
                aws_secret_access_key = default-secret

                [lab]
                aws_access_key_id = LABKEY
                aws_secret_access_key = lab-secret
                aws_session_token = lab-token
                """);
        Files.writeString(home.resolve(".aws/config"), """
                [default]
                region = eu-west-1

                [profile lab]
                region = ap-south-1
                endpoint_url = http://minio.lab:9000
                """);
    }

    @Test
    void withNothingConfiguredRequestsAreAnonymousToAwsInUsEast1() {
        S3Settings settings = S3Settings.resolve(Map.of(), properties());
        assertFalse(settings.signed());
        assertNull(settings.endpoint());
        assertEquals("us-east-1", settings.region());
        assertEquals("https://my-bucket.s3.us-east-1.amazonaws.com", settings.endpointFor("my-bucket"));
    }

    @Test
    void theDefaultProfileGivesKeysAndRegion() throws IOException {
        profiles();
        S3Settings settings = S3Settings.resolve(Map.of(), properties());
        assertEquals("DEFAULTKEY", settings.accessKey());
        assertEquals("default-secret", settings.secretKey());
        assertEquals("eu-west-1", settings.region());
        assertFalse(settings.pathStyle());
    }

    @Test
    void aNamedProfileGivesItsEndpointAndTokenAndIsAddressedPathStyle() throws IOException {
        profiles();
        S3Settings settings = S3Settings.resolve(Map.of("AWS_PROFILE", "lab"), properties());
        assertEquals("LABKEY", settings.accessKey());
        assertEquals("lab-token", settings.sessionToken());
        assertEquals("ap-south-1", settings.region());
        assertEquals("http://minio.lab:9000", settings.endpoint());
        assertTrue(settings.pathStyle());
        assertEquals("http://minio.lab:9000/my-bucket", settings.endpointFor("my-bucket"));
    }

    @Test
    void theEnvironmentOverridesProfilesAndSystemPropertiesOverrideBoth() throws IOException {
        profiles();
        Map<String, String> environment = Map.of("AWS_ACCESS_KEY_ID", "ENVKEY", "AWS_SECRET_ACCESS_KEY", "env-secret",
                "AWS_REGION", "us-west-2", "AWS_ENDPOINT_URL", "http://127.0.0.1:9000/");
        S3Settings fromEnvironment = S3Settings.resolve(environment, properties());
        assertEquals("ENVKEY", fromEnvironment.accessKey());
        assertEquals("us-west-2", fromEnvironment.region());
        assertEquals("http://127.0.0.1:9000", fromEnvironment.endpoint(), "a trailing slash is dropped");
        S3Settings fromProperties = S3Settings.resolve(environment, properties("aws.accessKeyId", "PROPKEY", "aws.secretAccessKey", "prop-secret",
                "aws.region", "eu-central-1", "aws.endpointUrl", "http://localhost:9001"));
        assertEquals("PROPKEY", fromProperties.accessKey());
        assertEquals("prop-secret", fromProperties.secretKey());
        assertEquals("eu-central-1", fromProperties.region());
        assertEquals("http://localhost:9001", fromProperties.endpoint());
    }

    @Test
    void bodiesAreSignedOverPlainHttpOnlyUnlessConfiguredOtherwise() {
        assertFalse(S3Settings.resolve(Map.of(), properties()).signPayloads(), "AWS, over HTTPS");
        assertFalse(S3Settings.resolve(Map.of("AWS_ENDPOINT_URL", "https://minio.lab"), properties()).signPayloads());
        assertTrue(S3Settings.resolve(Map.of("AWS_ENDPOINT_URL", "http://minio.lab"), properties()).signPayloads());
        assertFalse(S3Settings.resolve(Map.of("AWS_ENDPOINT_URL", "http://127.0.0.1:9000", "TESSERA_S3_SIGN_PAYLOADS", "false"), properties()).signPayloads());
        assertTrue(S3Settings.resolve(Map.of(), properties("tessera.s3.signPayloads", "true")).signPayloads());
    }

    @Test
    void halfACredentialOrABadEndpointIsRefusedSayingWhat() {
        IllegalArgumentException half = assertThrows(IllegalArgumentException.class,
                () -> S3Settings.resolve(Map.of(), properties("aws.accessKeyId", "ONLYKEY")));
        assertTrue(half.getMessage().contains("only the access key ONLYKEY"), half.getMessage());
        IllegalArgumentException endpoint = assertThrows(IllegalArgumentException.class,
                () -> S3Settings.resolve(Map.of("AWS_ENDPOINT_URL", "minio:9000"), properties()));
        assertTrue(endpoint.getMessage().contains("minio:9000"), endpoint.getMessage());
    }

    @Test
    void badS3UrisAreRefusedNamingThem() {
        S3Settings settings = S3Settings.resolve(Map.of(), properties());
        IllegalArgumentException bucket = assertThrows(IllegalArgumentException.class,
                () -> S3Store.open(java.net.URI.create("s3://Bad_Bucket/x"), settings));
        assertTrue(bucket.getMessage().contains("s3://Bad_Bucket/x"), bucket.getMessage());
        assertThrows(IllegalArgumentException.class, () -> S3Store.open(java.net.URI.create("s3://ok-bucket/a/../b"), settings));
        assertEquals("s3://ok-bucket/data.zarr/", S3Store.open(java.net.URI.create("s3://ok-bucket/data.zarr/"), settings).uri().toString());
    }
}

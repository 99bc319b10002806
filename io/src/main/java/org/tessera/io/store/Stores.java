package org.tessera.io.store;

import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;

/** Stores named by location, as the command line and {@code Zarr.fromZarr(URI)} name them. */
public final class Stores {
    private Stores() {
    }

    /**
     * The store at {@code location}: an {@link S3Store} for {@code s3}, an {@link HttpStore}
     * (read-only) for {@code http} and {@code https}, a {@link DirectoryStore} for {@code file};
     * any other scheme is an IllegalArgumentException naming the URI.
     */
    public static Store open(URI location) {
        String scheme = location.getScheme() == null ? "" : location.getScheme().toLowerCase(Locale.ROOT);
        return switch (scheme) {
            case "s3" -> S3Store.open(location);
            case "http", "https" -> HttpStore.open(location);
            case "file" -> DirectoryStore.open(Path.of(location));
            default -> throw new IllegalArgumentException("cannot open a store at " + location + ": the schemes supported are s3, http, https and file");
        };
    }

    /** The store at {@code location}: a URI when it has a scheme ({@code s3://b/p}, {@code https://...}), else a local directory. */
    public static Store open(String location) {
        return isUri(location) ? open(URI.create(location)) : DirectoryStore.open(Path.of(location));
    }

    /** Whether {@code location} is written as a URI with a scheme rather than as a local path. */
    public static boolean isUri(String location) {
        int colon = location.indexOf("://");
        return colon > 1 && location.substring(0, colon).chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '+' || c == '-' || c == '.');
    }
}

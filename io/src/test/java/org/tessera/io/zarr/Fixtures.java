package org.tessera.io.zarr;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** Where the fixtures made by {@code make_fixtures.py} with zarr-python lie on the test class path. */
final class Fixtures {
    private Fixtures() {
    }

    static Path directory() {
        try {
            return Path.of(Fixtures.class.getResource("/zarr/manifest.json").toURI()).getParent();
        } catch (URISyntaxException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}

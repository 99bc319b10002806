package org.tessera.io.zarr;

import org.tessera.array.RegionSource;
import org.tessera.io.RegionSourceContract;
import org.tessera.io.store.MemoryStore;
import org.tessera.ndarray.NDArray;

class ZarrV2SourceTest extends RegionSourceContract {
    @Override
    protected RegionSource sourceOf(NDArray values) throws Exception {
        ZarrArray array = ZarrArray.create(new MemoryStore(), "x", ArrayMetadataV2.of(values.shape(), new long[] {4, 3}, values.dtype()));
        array.writeAll(values);
        return array;
    }
}

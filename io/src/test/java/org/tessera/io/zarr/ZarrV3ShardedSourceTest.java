package org.tessera.io.zarr;

import org.tessera.array.RegionSource;
import org.tessera.io.RegionSourceContract;
import org.tessera.io.codec.Zstd;
import org.tessera.io.store.MemoryStore;
import org.tessera.ndarray.NDArray;

class ZarrV3ShardedSourceTest extends RegionSourceContract {
    @Override
    protected RegionSource sourceOf(NDArray values) throws Exception {
        ZarrArray array = ZarrArray.create(new MemoryStore(), "x",
                ArrayMetadataV3.sharded(values.shape(), new long[] {4, 4}, new long[] {2, 2}, values.dtype(), new Zstd(1, false)));
        array.writeAll(values);
        return array;
    }
}

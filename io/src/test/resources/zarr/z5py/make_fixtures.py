#!/usr/bin/env python3
"""Writes a Zarr v2 group laid out as z5 (the C++ library behind z5py) writes one, and saves what
zarr-python reads from it.

z5py.zr holds a 512 x 512 x 3 uint8 array in chunks of 100 x 100 x 1 three times: "raw" (no
compressor), "blosc" (lz4, level 5, byte shuffle) and "gzip" (level 5), with the .zgroup and
.zarray documents z5py writes for such arrays. The values are this script's own: a seeded pattern
with noise, and pure noise in chunk 0.0.0, so that c-blosc stores that frame uncompressed
(memcpyed) while the others are compressed.

The chunks are encoded as z5 encodes them:
  * blosc: z5 sizes its output buffer for the worst case (the chunk's bytes plus
    BLOSC_MAX_OVERHEAD, 16), zero-filled, lets c-blosc write the frame into it, and then resizes
    the buffer to the frame's length plus BLOSC_MAX_OVERHEAD, which it stores. So every chunk is
    the frame (as numcodecs.Blosc writes it with the same cname, clevel, shuffle and the automatic
    blocksize z5 asks for) followed by 16 zero bytes its header does not count: the unused tail of
    the buffer, or, for a memcpyed frame that fills the buffer, the bytes the resize appends.
    c-blosc and zarr-python read the frame and ignore the rest.
  * gzip: z5 writes a zlib stream (RFC 1950, starting 0x78 0x5e at level 5), not a gzip member,
    as zlib.compress writes it; zarr-python rejects these chunks.
  * raw: the chunk's bytes. z5 writes edge chunks whole, padded with zeros, under every codec.

Only the chunks in CHUNKS are written (the others read as the fill value 0): two whole chunks of the
first row, one inside and the corner chunk, which is 12 x 12 inside the array. expected/<chunk>.npy
holds the chunk's values inside the array as zarr-python reads them from blosc/; the script checks
that raw/ and the inflated gzip/ chunks hold the same.

Run:  /usr/bin/python3 io/src/test/resources/zarr/z5py/make_fixtures.py
(numpy, numcodecs and zarr 2 as Debian packages them; the output does not depend on the machine.)
"""
import json
import os
import shutil
import struct
import zlib

import numcodecs
import numpy as np
import zarr
from numcodecs import Blosc

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "z5py.zr")
EXPECTED = os.path.join(HERE, "expected")
SHAPE = (512, 512, 3)
CHUNK_SHAPE = (100, 100, 1)
CHUNKS = ["0.0.0", "0.0.1", "2.3.1", "5.5.2"]
SEED = 20261125
BLOSC_MAX_OVERHEAD = 16
BLOSC_MEMCPYED = 0x02

COMPRESSORS = {
    "raw": None,
    "blosc": {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1},
    "gzip": {"id": "gzip", "level": 5},
}


def zarray(compressor):
    """The .zarray document z5py writes, with its keys in z5py's order and no trailing newline."""
    return json.dumps({"dtype": "|u1", "shape": list(SHAPE), "chunks": list(CHUNK_SHAPE), "fill_value": 0,
                       "zarr_format": 2, "order": "C", "filters": None, "compressor": compressor})


def z5_blosc(chunk, cname="lz4", clevel=5, shuffle=1):
    """The frame c-blosc writes, followed by the rest of z5's output buffer: BLOSC_MAX_OVERHEAD bytes."""
    frame = Blosc(cname=cname, clevel=clevel, shuffle=shuffle, blocksize=0).encode(chunk)
    return frame + bytes(BLOSC_MAX_OVERHEAD)


def z5_gzip(chunk, level=5):
    """z5's "gzip": a zlib stream."""
    return zlib.compress(chunk, level)


ENCODERS = {
    "raw": bytes,
    "blosc": lambda chunk: z5_blosc(chunk, **{k: COMPRESSORS["blosc"][k] for k in ("cname", "clevel", "shuffle")}),
    "gzip": lambda chunk: z5_gzip(chunk, COMPRESSORS["gzip"]["level"]),
}


def values():
    rng = np.random.default_rng(SEED)
    y, x, c = np.meshgrid(*(np.arange(n) for n in SHAPE), indexing="ij")
    pattern = ((x // 6 + y // 4) * 11 + 60 * c) % 256
    noisy = rng.random(SHAPE) < 0.25
    data = np.where(noisy, rng.integers(0, 256, size=SHAPE), pattern).astype(np.uint8)
    data[0:100, 0:100, 0] = rng.integers(0, 256, size=(100, 100))
    return data


def region(key):
    index = [int(part) for part in key.split(".")]
    return tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(index, CHUNK_SHAPE, SHAPE))


def chunk_bytes(data, key):
    """The chunk's bytes in C order, padded with zeros to the whole chunk shape, as z5 writes them."""
    inside = data[region(key)]
    chunk = np.zeros(CHUNK_SHAPE, dtype=np.uint8)
    chunk[tuple(slice(0, n) for n in inside.shape)] = inside
    return chunk.tobytes()


def main():
    numcodecs.blosc.use_threads = False
    shutil.rmtree(ROOT, ignore_errors=True)
    shutil.rmtree(EXPECTED, ignore_errors=True)
    os.makedirs(ROOT)
    os.makedirs(EXPECTED)
    with open(os.path.join(ROOT, ".zgroup"), "w") as out:
        out.write(json.dumps({"zarr_format": 2}))
    data = values()
    for name, compressor in COMPRESSORS.items():
        os.makedirs(os.path.join(ROOT, name))
        with open(os.path.join(ROOT, name, ".zarray"), "w") as out:
            out.write(zarray(compressor))
        for key in CHUNKS:
            with open(os.path.join(ROOT, name, key), "wb") as out:
                out.write(ENCODERS[name](chunk_bytes(data, key)))

    memcpyed = 0
    for key in CHUNKS:
        chunk = chunk_bytes(data, key)
        stored = open(os.path.join(ROOT, "blosc", key), "rb").read()
        frame = struct.unpack_from("<I", stored, 12)[0]
        assert len(stored) == frame + BLOSC_MAX_OVERHEAD and stored[frame:] == bytes(BLOSC_MAX_OVERHEAD), key
        assert numcodecs.blosc.decompress(stored) == chunk, key
        memcpyed += bool(stored[2] & BLOSC_MEMCPYED)
        gzip = open(os.path.join(ROOT, "gzip", key), "rb").read()
        assert gzip[:2] == b"\x78\x5e" and zlib.decompress(gzip) == chunk, key
    assert memcpyed == 1, "chunk 0.0.0, and only it, should be stored memcpyed"

    blosc = zarr.open(os.path.join(ROOT, "blosc"), mode="r")
    everything = blosc[...]
    assert (everything == zarr.open(os.path.join(ROOT, "raw"), mode="r")[...]).all()
    try:
        zarr.open(os.path.join(ROOT, "gzip"), mode="r")[...]
        raise AssertionError("zarr-python now reads z5's gzip chunks")
    except (OSError, ValueError, EOFError):
        pass
    for key in CHUNKS:
        assert (everything[region(key)] == data[region(key)]).all(), key
        np.save(os.path.join(EXPECTED, key + ".npy"), everything[region(key)])
    assert everything.sum() == sum(np.load(os.path.join(EXPECTED, key + ".npy")).sum() for key in CHUNKS)


if __name__ == "__main__":
    main()

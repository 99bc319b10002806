"""Writes the seed corpora of the @FuzzTest classes: small, valid files of each format.

Run from the repository root with a Python that has NumPy, h5py and numcodecs:
    python3 io/src/test/resources/fuzz/make_seeds.py
Each seed lands in <module>/src/test/resources/<package>/<TestClass>Inputs/<method>/, where Jazzer
replays it in every test run and starts from it when fuzzing. Zarr v2 seeds are zarr-python's
fixtures in io/src/test/resources/zarr/v2; Zarr v3 seeds are written here by hand (the installed
zarr-python writes only v2), with numcodecs' zstd, gzip and blosc.

The HDF5 corpus holds crash-v1-object-header-claims-1-1-gb, an input fuzzing found: its root
group's v1 object header claims 1.1 GB, and jhdf 0.13 reading through a file channel allocated that
much, then re-read the 28 bytes left in the file until the buffer was full (about 40 million reads,
81 s). Hdf5Files hands jhdf the file mapped into memory, where the claim fails at once.
"""
import gzip
import io
import json
import os
import pickle
import shutil
import struct
import zlib

import h5py
import numcodecs
import numpy as np

ROOT = os.getcwd()
IO = os.path.join(ROOT, "io/src/test/resources/org/tessera/io")
NDARRAY = os.path.join(ROOT, "ndarray/src/test/resources/org/tessera/ndarray/npy/NpyFuzzTestInputs")
FIXTURES = os.path.join(ROOT, "io/src/test/resources/zarr/v2")


def corpus(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def put(directory, name, data):
    with open(os.path.join(directory, name), "wb") as out:
        out.write(data)


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def fixture(name, chunk):
    with open(os.path.join(FIXTURES, name, ".zarray"), "rb") as f:
        metadata = f.read()
    with open(os.path.join(FIXTURES, name, chunk), "rb") as f:
        return metadata, f.read()


# ---- codecs: frames numcodecs writes
codecs = os.path.join(IO, "codec/CodecFuzzTestInputs")
values = np.arange(64, dtype="<i4").tobytes()
out = corpus(os.path.join(codecs, "blosc"))
for cname, shuffle in [("lz4", 1), ("zstd", 2), ("blosclz", 0), ("zlib", 1), ("lz4hc", 2)]:
    put(out, cname, numcodecs.Blosc(cname=cname, clevel=5, shuffle=shuffle).encode(values))
put(out, "memcpyed", numcodecs.Blosc(cname="lz4", clevel=0, shuffle=0).encode(values[:40]))
out = corpus(os.path.join(codecs, "zstd"))
put(out, "level1", numcodecs.Zstd(level=1).encode(values))
put(out, "level9", numcodecs.Zstd(level=9).encode(values * 4))
put(out, "empty", numcodecs.Zstd(level=1).encode(b""))
out = corpus(os.path.join(codecs, "gzip"))
put(out, "level1", numcodecs.GZip(level=1).encode(values))
put(out, "level9", gzip.compress(b"tessera" * 20, 9))
out = corpus(os.path.join(codecs, "zlib"))
put(out, "level1", numcodecs.Zlib(level=1).encode(values))
put(out, "stored", zlib.compress(b"tessera", 0))
out = corpus(os.path.join(codecs, "crc32c"))
for name, data in [("values", values[:32]), ("empty", b"")]:
    put(out, name, data + struct.pack("<I", crc32c(data)))

# ---- Zarr v2: .zarray, a zero byte, chunk 0
out = corpus(os.path.join(IO, "zarr/ZarrFuzzTestInputs/zarrV2"))
for name, chunk in [("float64_blosc_lz4", "0.0"), ("int32_blosc_zstd_bitshuffle", "0"), ("int16_gzip", "0.0"),
                    ("bigendian_uint32_zlib", "0"), ("int8_zstd", "0"), ("uint16_none", "0"), ("float64_fortran_order", "0.0"),
                    ("float64_scalar", "0"), ("int64_nested_separator", "0/0")]:
    if not os.path.exists(os.path.join(FIXTURES, name, chunk)):
        chunk = sorted(c for c in os.listdir(os.path.join(FIXTURES, name)) if not c.startswith("."))[0]
    metadata, data = fixture(name, chunk)
    put(out, name, metadata + b"\0" + data)

# ---- Zarr v3: zarr.json, a zero byte, chunk 0 (a shard where sharded)
def v3(shape, chunks, dtype, codecs, fill=0):
    return json.dumps({"zarr_format": 3, "node_type": "array", "shape": shape, "data_type": dtype,
                       "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": chunks}},
                       "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
                       "fill_value": fill, "codecs": codecs, "attributes": {"units": "m"}}).encode()


def shard(inner_chunks, index_at_end=True, empty=()):
    """A shard of encoded inner chunks with its (offset, length) index and the index's crc32c."""
    index_size = 16 * len(inner_chunks) + 4
    base = 0 if index_at_end else index_size
    data, index = b"", b""
    for position, chunk in enumerate(inner_chunks):
        if position in empty:
            index += struct.pack("<QQ", 2**64 - 1, 2**64 - 1)
        else:
            index += struct.pack("<QQ", base + len(data), len(chunk))
            data += chunk
    index += struct.pack("<I", crc32c(index))
    return data + index if index_at_end else index + data


LE = {"name": "bytes", "configuration": {"endian": "little"}}
out = corpus(os.path.join(IO, "zarr/ZarrFuzzTestInputs/zarrV3"))
grid = np.arange(16, dtype="<i4").reshape(4, 4)
put(out, "bytes", v3([4, 4], [4, 4], "int32", [LE]) + b"\0" + grid.tobytes())
put(out, "big_endian_gzip", v3([6], [4], "float64", [{"name": "bytes", "configuration": {"endian": "big"}}, {"name": "gzip", "configuration": {"level": 1}}])
    + b"\0" + gzip.compress(np.arange(4, dtype=">f8").tobytes()))
put(out, "transpose_zstd", v3([4, 4], [4, 4], "int32", [{"name": "transpose", "configuration": {"order": [1, 0]}}, LE,
                                                       {"name": "zstd", "configuration": {"level": 1, "checksum": False}}])
    + b"\0" + numcodecs.Zstd(level=1).encode(grid.T.copy().tobytes()))
put(out, "blosc_crc32c", v3([8], [8], "uint16", [LE, {"name": "blosc", "configuration": {"cname": "lz4", "clevel": 5, "shuffle": "shuffle", "typesize": 2, "blocksize": 0}},
                                                 {"name": "crc32c"}])
    + b"\0" + (lambda b: b + struct.pack("<I", crc32c(b)))(numcodecs.Blosc(cname="lz4", clevel=5, shuffle=1).encode(np.arange(8, dtype="<u2").tobytes())))
sharding = {"name": "sharding_indexed", "configuration": {"chunk_shape": [2, 2], "codecs": [LE],
                                                          "index_codecs": [LE, {"name": "crc32c"}], "index_location": "end"}}
inner = [grid[r:r + 2, c:c + 2].copy().tobytes() for r in (0, 2) for c in (0, 2)]
put(out, "sharded", v3([4, 4], [4, 4], "int32", [sharding]) + b"\0" + shard(inner, empty=(3,)))
sharding_start = {"name": "sharding_indexed", "configuration": {"chunk_shape": [2], "codecs": [LE, {"name": "gzip", "configuration": {"level": 1}}],
                                                                "index_codecs": [LE, {"name": "crc32c"}], "index_location": "start"}}
inner = [gzip.compress(np.arange(2 * i, 2 * i + 2, dtype="<i8").tobytes()) for i in range(3)]
put(out, "sharded_index_start_gzip", v3([5], [6], "int64", [sharding_start]) + b"\0" + shard(inner, index_at_end=False))

# ---- groups: .zgroup, a zero byte, .zattrs (or a v3 group's zarr.json)
out = corpus(os.path.join(IO, "zarr/ZarrFuzzTestInputs/group"))
with open(os.path.join(FIXTURES, "nested/.zgroup"), "rb") as g, open(os.path.join(FIXTURES, "nested/.zattrs"), "rb") as a:
    put(out, "nested", g.read() + b"\0" + a.read())
put(out, "v3", json.dumps({"zarr_format": 3, "node_type": "group", "attributes": {"a": [1, 2.5, None, {"b": "c"}]}}).encode())

# ---- npy stack info: the pickles Dask's to_npy_stack writes
out = corpus(os.path.join(IO, "npy/StackInfoFuzzTestInputs/info"))
for protocol in (2, 4, 5):
    put(out, "protocol%d" % protocol, pickle.dumps({"chunks": ((2, 3), (4,)), "dtype": np.dtype("f8"), "axis": 0}, protocol=protocol))
put(out, "big_endian", pickle.dumps({"chunks": ((5,), (1, 1, 2)), "dtype": np.dtype(">i2"), "axis": 1}, protocol=2))

# ---- HDF5: small files of each layout, filter and chunk index
out = corpus(os.path.join(IO, "hdf5/Hdf5FuzzTestInputs/hdf5"))


def h5(name, libver, build):
    path = os.path.join(out, name)
    with h5py.File(path, "w", libver=libver) as f:
        build(f)


small = np.arange(12, dtype="<f8").reshape(3, 4)
h5("contiguous", "earliest", lambda f: f.create_dataset("x", data=small))


def compact(f):
    space = h5py.h5s.create_simple((6,))
    plist = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    plist.set_layout(h5py.h5d.COMPACT)
    dataset = h5py.h5d.create(f.id, b"x", h5py.h5t.STD_I16BE, space, plist)
    dataset.write(h5py.h5s.ALL, h5py.h5s.ALL, np.arange(6, dtype=">i2"))


h5("compact", "earliest", compact)
h5("chunked_gzip_shuffle_btree1", "earliest",
   lambda f: f.create_dataset("g/x", data=small, chunks=(2, 2), compression="gzip", shuffle=True, fletcher32=True))
h5("chunked_single_chunk", "latest", lambda f: f.create_dataset("x", data=small, chunks=(3, 4), compression="gzip"))
h5("chunked_fixed_array", "latest", lambda f: f.create_dataset("x", data=small, chunks=(1, 2)))
h5("chunked_extensible_array", "latest", lambda f: f.create_dataset("x", data=np.arange(8, dtype="<i4"), chunks=(2,), maxshape=(None,)))
h5("chunked_btree2", "latest", lambda f: f.create_dataset("x", data=small, chunks=(2, 2), maxshape=(None, None)))

# ---- .npy and .npz: what NumPy writes
out = corpus(os.path.join(NDARRAY, "npy"))


def npy(name, array, version=None):
    buffer = io.BytesIO()
    if version is None:
        np.save(buffer, array)
    else:
        np.lib.format.write_array(buffer, array, version=version)
    put(out, name, buffer.getvalue())


npy("float64_2d", small)
npy("int16_big_endian", np.arange(5, dtype=">i2"))
npy("fortran", np.asfortranarray(small.astype("<f4")))
npy("bool_scalar", np.array(True))
npy("complex128_empty", np.zeros((0, 3), dtype="<c16"))
npy("version2", np.arange(3, dtype="<u8"), version=(2, 0))
npy("version3", np.arange(3, dtype="<u1"), version=(3, 0))
out = corpus(os.path.join(NDARRAY, "npz"))
for name, save in [("stored", np.savez), ("deflated", np.savez_compressed)]:
    buffer = io.BytesIO()
    save(buffer, a=np.arange(4, dtype="<i4"), b=small)
    put(out, name, buffer.getvalue())

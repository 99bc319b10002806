#!/usr/bin/env python3
"""Makes the HDF5 fixtures that Tessera's HDF5 reader is tested against, with h5py.

Each dataset's values are also saved as expected/<file stem>/<dataset path>.npy in native byte
order, so a test compares what it reads from the .h5 file with what NumPy holds. Object times are
not tracked, so running the script again gives the same bytes.

Run from anywhere: /usr/bin/python3 io/src/test/resources/hdf5/make_fixtures.py
(Debian: apt-get install python3-h5py).
"""
import os
import shutil

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "expected")


def save_expected(stem, path, values):
    target = os.path.join(EXPECTED, stem, path.strip("/") + ".npy")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    values = np.asarray(values)
    np.save(target, values.astype(values.dtype.newbyteorder("<")) if values.dtype.byteorder == ">" else values)


def dataset(file, stem, path, values, **options):
    values = np.asarray(values)
    file.create_dataset(path, data=values, track_times=False, **options)
    save_expected(stem, path, values)


def make(stem, builder, **file_options):
    with h5py.File(os.path.join(HERE, stem + ".h5"), "w", track_order=False, **file_options) as file:
        builder(file, stem)


def contiguous(file, stem):
    rng = np.random.default_rng(1)
    dataset(file, stem, "float64", rng.standard_normal((7, 5)))
    dataset(file, stem, "float32", rng.standard_normal((4, 6)).astype("<f4"))
    dataset(file, stem, "int32_big", rng.integers(-2**31, 2**31 - 1, (6, 4)).astype(">i4"))
    dataset(file, stem, "int64", rng.integers(-2**62, 2**62, (3, 4)).astype("<i8"))
    dataset(file, stem, "uint8", (np.arange(10) * 29 % 256).astype("u1"))
    dataset(file, stem, "uint64_big", (np.arange(6, dtype=np.uint64) * np.uint64(3 * 10**18)).astype(">u8"))
    dataset(file, stem, "float64_big", rng.standard_normal((5, 4)).astype(">f8"))
    dataset(file, stem, "bool", rng.random((5, 3)) > 0.5)
    dataset(file, stem, "scalar", np.float64(2.5))


def chunked_gzip(file, stem):
    rng = np.random.default_rng(2)
    # 23 x 17 in chunks of 5 x 4: the last row and column of chunks lie partly outside the dataset.
    dataset(file, stem, "data", rng.standard_normal((23, 17)), chunks=(5, 4), compression="gzip", compression_opts=4)
    dataset(file, stem, "int16_big", rng.integers(-30000, 30000, (20, 9)).astype(">i2"), chunks=(6, 4), compression="gzip")
    dataset(file, stem, "float16", rng.standard_normal((9, 6)).astype("<f2"), chunks=(4, 4), compression="gzip")
    # Only the chunks that are written exist; the others read as the fill value.
    sparse = file.create_dataset("sparse", shape=(12, 10), dtype="<f4", chunks=(4, 5), fillvalue=-1.0,
                                 compression="gzip", track_times=False)
    sparse[0:4, 0:5] = np.arange(20, dtype="<f4").reshape(4, 5)
    sparse[8:12, 5:10] = -np.arange(20, dtype="<f4").reshape(4, 5)
    save_expected(stem, "sparse", sparse[...])


def chunked_shuffle_gzip(file, stem):
    rng = np.random.default_rng(3)
    dataset(file, stem, "data", rng.standard_normal((30, 8)), chunks=(7, 8), shuffle=True, compression="gzip")
    dataset(file, stem, "uint32_big", rng.integers(0, 2**32 - 1, 25).astype(">u4"), chunks=(10,), shuffle=True, compression="gzip")
    dataset(file, stem, "int8", rng.integers(-128, 127, (11, 13)).astype("i1"), chunks=(4, 5), shuffle=True, compression="gzip", compression_opts=9)
    complex_values = rng.standard_normal((6, 5)) + 1j * rng.standard_normal((6, 5))
    dataset(file, stem, "complex128", complex_values, chunks=(3, 5), shuffle=True, compression="gzip")
    dataset(file, stem, "complex64_big", complex_values.astype(">c8"), chunks=(4, 2), compression="gzip")


def fletcher32(file, stem):
    # HDF5's Fletcher-32 appends a 4-byte checksum to every chunk after the other filters ran.
    rng = np.random.default_rng(6)
    # 4000-byte chunks: many of the checksum's 360-word blocks; partial edge chunks are stored whole.
    dataset(file, stem, "float64", rng.standard_normal((60, 45)), chunks=(25, 20), fletcher32=True)
    dataset(file, stem, "shuffle_gzip", rng.standard_normal((60, 45)), chunks=(25, 20), shuffle=True, compression="gzip",
            fletcher32=True)
    # Shuffle alone: a reader that left the checksum on would unshuffle the wrong number of bytes.
    dataset(file, stem, "int16_big_shuffle", rng.integers(-30000, 30000, (20, 9)).astype(">i2"), chunks=(6, 4), shuffle=True,
            fletcher32=True)
    # 5 x 3 uint8 chunks are 15 bytes: an odd count, whose last byte the checksum treats on its own.
    dataset(file, stem, "uint8_odd", rng.integers(0, 256, (11, 7)).astype("u1"), chunks=(5, 3), fletcher32=True)


def three_d(file, stem):
    rng = np.random.default_rng(4)
    dataset(file, stem, "volume", rng.integers(-1000, 1000, (6, 7, 8)).astype("<i2"), chunks=(2, 3, 4), shuffle=True, compression="gzip")
    dataset(file, stem, "volume_contiguous", rng.standard_normal((4, 5, 6)).astype("<f4"))


def nested(file, stem):
    rng = np.random.default_rng(5)
    dataset(file, stem, "a/b/c/values", rng.standard_normal((8, 3)), chunks=(3, 3), compression="gzip")
    dataset(file, stem, "a/counts", np.arange(4, dtype="<i4"))
    file["a/b"].attrs["description"] = "a group inside a group"


def unsupported(file, stem):
    # Scale-offset is a filter HDF5 defines that the Java reader does not decode; strings have no Tessera dtype.
    file.create_dataset("scaleoffset", data=np.arange(40, dtype="<i4").reshape(8, 5), chunks=(4, 5), scaleoffset=0, track_times=False)
    file.create_dataset("text", data=np.array([b"one", b"two"]), track_times=False)


def large_chunks(file, stem):
    # Chunks of 512 KB, so that what a read allocates per chunk can be told from the chunk itself.
    # The values are a formula the test computes again (no expected file of 2 MB), compressible.
    values = (np.arange(512 * 512) % 1000).reshape(512, 512) * 0.25
    file.create_dataset("values", data=values, chunks=(256, 256), shuffle=True, compression="gzip", track_times=False)


def userblock(file, stem):
    # With a user block, HDF5 addresses count from the superblock, not from the start of the file.
    dataset(file, stem, "values", np.arange(12, dtype="<f8").reshape(4, 3) / 4)


if __name__ == "__main__":
    shutil.rmtree(EXPECTED, ignore_errors=True)
    make("contiguous", contiguous)
    make("chunked_gzip", chunked_gzip)
    make("chunked_shuffle_gzip", chunked_shuffle_gzip)
    make("three_d", three_d)
    make("fletcher32", fletcher32)
    make("nested", nested)
    make("unsupported", unsupported)
    make("userblock", userblock, userblock_size=512)
    make("large_chunks", large_chunks)

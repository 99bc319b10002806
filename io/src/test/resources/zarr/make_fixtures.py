#!/usr/bin/env python3
"""Makes the Zarr v2 fixtures that Tessera's io tests read, with real zarr-python and numcodecs.

Run from anywhere:  /usr/bin/python3 io/src/test/resources/zarr/make_fixtures.py
It rewrites v2/ (one Zarr hierarchy holding every fixture array and group) and expected/ (the values
each array must read as, saved with numpy as .npy) next to this script, plus manifest.json, which
lists every array with its expected file so the Java test needs no list of its own.

Made with zarr 2.13 and numcodecs 0.11 (Debian's python3-zarr). Kept tiny on purpose: the arrays are
a few hundred bytes each, and several have partial edge chunks and chunks that were never written.
"""
import json
import os
import shutil

import numpy as np
import zarr
from numcodecs import Blosc, GZip, Zlib, Zstd

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "v2")
EXPECTED = os.path.join(HERE, "expected")


def values(shape, dtype, seed):
    """Deterministic values of every kind, with negative numbers where the dtype has them."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    native = dtype.newbyteorder("=")
    count = int(np.prod(shape, dtype=np.int64))
    if dtype.kind == "b":
        flat = rng.integers(0, 2, count).astype(bool)
    elif dtype.kind == "u":
        flat = rng.integers(0, np.iinfo(native).max, count, dtype=native, endpoint=True)
    elif dtype.kind == "i":
        info = np.iinfo(native)
        flat = rng.integers(info.min, info.max, count, dtype=native, endpoint=True)
    elif dtype.kind == "f":
        flat = (rng.standard_normal(count) * 100).astype(dtype)
    else:
        flat = (rng.standard_normal(count) + 1j * rng.standard_normal(count)).astype(dtype)
    return flat.astype(dtype).reshape(shape)


def main():
    shutil.rmtree(ROOT, ignore_errors=True)
    shutil.rmtree(EXPECTED, ignore_errors=True)
    os.makedirs(EXPECTED)
    root = zarr.open_group(ROOT, mode="w")
    root.attrs.update({"title": "Tessera fixtures", "made_by": "zarr " + zarr.__version__, "answer": 42})
    manifest = []

    def add(name, data, chunks, compressor, fill_value=0, written=None, group=root, **options):
        """Stores data (or only the region `written` of it) and records what a reader must see."""
        array = group.create_dataset(name, shape=data.shape, chunks=chunks, dtype=data.dtype,
                                     compressor=compressor, fill_value=fill_value, **options)
        if written is None:
            array[...] = data
            expected = data
        else:
            array[written] = data[written]
            expected = np.full(data.shape, fill_value, dtype=data.dtype)
            expected[written] = data[written]
        expected_name = array.path.replace("/", "__") + ".npy"
        # Expected values are saved in native little-endian order; the dtype under test is in manifest.
        np.save(os.path.join(EXPECTED, expected_name), expected.astype(expected.dtype.newbyteorder("<")))
        manifest.append({"path": array.path, "expected": expected_name, "dtype": data.dtype.str,
                         "compressor": None if compressor is None else compressor.get_config()})

    # Every compressor, with partial edge chunks.
    add("float64_blosc_lz4", values((7, 5), "<f8", 1), (3, 2), Blosc("lz4", 5, Blosc.SHUFFLE))
    add("int32_blosc_zstd_bitshuffle", values((10,), "<i4", 2), (4,), Blosc("zstd", 3, Blosc.BITSHUFFLE))
    add("uint8_blosc_blosclz_noshuffle", values((6, 7), "|u1", 3), (4, 4), Blosc("blosclz", 9, Blosc.NOSHUFFLE))
    add("int64_blosc_zlib", values((5, 6), "<i8", 4), (5, 4), Blosc("zlib", 1, Blosc.SHUFFLE))
    add("float32_blosc_lz4hc_autoshuffle", values((9, 3), "<f4", 5), (4, 3), Blosc("lz4hc", 5, Blosc.AUTOSHUFFLE))
    add("int16_gzip", values((5, 4, 3), "<i2", 6), (2, 3, 2), GZip(5))
    add("float32_zlib", values((8, 8), "<f4", 7), (3, 5), Zlib(1))
    add("complex128_zstd", values((4, 3), "<c16", 8), (3, 2), Zstd(3))
    add("uint16_none", values((11,), "<u2", 9), (4,), None)

    # Fill values (NaN, Infinity, complex, bool, the largest uint64) and chunks never written.
    add("float64_nan_fill_missing", values((6, 6), "<f8", 10), (2, 4), Zlib(1), fill_value=np.nan,
        written=(slice(0, 2), slice(0, 4)))
    add("float32_infinity_fill_missing", values((5,), "<f4", 11), (2,), None, fill_value=-np.inf,
        written=(slice(2, 4),))
    add("complex64_fill_missing", values((4, 4), "<c8", 12), (2, 2), Zstd(1), fill_value=1.5 - 2j,
        written=(slice(0, 2), slice(2, 4)))
    add("bool_fill_true_missing", values((9,), "|b1", 13), (4,), GZip(1), fill_value=True, written=(slice(0, 4),))
    add("uint64_max_fill_missing", values((3, 4), "<u8", 14), (2, 2), Blosc("lz4", 5, Blosc.SHUFFLE),
        fill_value=np.iinfo(np.uint64).max, written=(slice(0, 2), slice(0, 2)))

    # Every other dtype zarr v2 defines that Tessera has, big-endian ones included.
    add("int8_zstd", values((13,), "|i1", 15), (5,), Zstd(1))
    add("uint32_gzip", values((3, 5), "<u4", 16), (2, 2), GZip(1))
    add("float16_blosc", values((6, 2), "<f2", 17), (4, 1), Blosc("lz4", 5, Blosc.SHUFFLE))
    add("bigendian_float64_none", values((5, 3), ">f8", 18), (2, 2), None)
    add("bigendian_int16_gzip", values((7,), ">i2", 19), (3,), GZip(1))
    add("bigendian_complex128_blosc", values((3, 3), ">c16", 20), (2, 2), Blosc("zstd", 1, Blosc.SHUFFLE))
    add("bigendian_uint32_zlib", values((4,), ">u4", 21), (3,), Zlib(1))

    # Layouts: "/" as the dimension separator, Fortran order inside chunks, a 0-d array.
    add("int64_nested_separator", values((4, 5), "<i8", 22), (2, 2), Zstd(1), dimension_separator="/")
    add("float64_fortran_order", values((4, 6), "<f8", 23), (3, 4), Zlib(1), order="F")
    add("float64_scalar", values((), "<f8", 24), (), None)

    # Nested groups with attributes, and arrays inside them.
    nested = root.create_group("nested")
    nested.attrs.update({"level": 1, "tags": ["a", "b"], "nan": float("nan")})
    deeper = nested.create_group("deeper")
    deeper.attrs.update({"level": 2, "description": "a group inside a group"})
    add("values", values((3, 4), "<f8", 25), (2, 3), GZip(1), group=deeper)
    deeper["values"].attrs.update({"units": "metres", "scale": 0.5})

    with open(os.path.join(HERE, "manifest.json"), "w") as output:
        json.dump({"zarr": zarr.__version__, "arrays": manifest}, output, indent=2)
        output.write("\n")


if __name__ == "__main__":
    main()

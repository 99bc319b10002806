"""Writes cases.json, the sorting fixtures that SortingFixturesTest replays, with real NumPy.
Arrays use the conformance corpus encoding (dtype, shape, flat C-order data; "nan"/"inf" strings).
Run from this directory: python3 make_fixtures.py"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from corpus_encoding import encode  # noqa: E402

rng = np.random.default_rng(20261123)
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
SPECIALS = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -2.0]


def sample(dtype, shape):
    size = int(np.prod(shape))
    if dtype == "bool":
        return rng.integers(0, 2, size).astype(bool).reshape(shape)
    if dtype.startswith("uint"):
        info = np.iinfo(dtype)
        # few distinct values (ties), including the top of the range (uint64 above 2^63)
        pool = np.array([0, 1, 2, 7, info.max // 2, info.max // 2 + 1, info.max - 1, info.max], dtype=dtype)
        return rng.choice(pool, size).reshape(shape)
    if dtype.startswith("int"):
        info = np.iinfo(dtype)
        pool = np.array([info.min, -3, -1, 0, 1, 2, 5, info.max], dtype=dtype)
        return rng.choice(pool, size).reshape(shape)
    values = np.where(rng.random(size) < 0.3, rng.choice(SPECIALS, size), rng.integers(-4, 5, size).astype(float))
    if dtype.startswith("float"):
        return values.astype(dtype).reshape(shape)
    imag = np.where(rng.random(size) < 0.3, rng.choice(SPECIALS, size), rng.integers(-2, 3, size).astype(float))
    result = np.empty(size, dtype=dtype)
    result.real = values
    result.imag = imag
    return result.reshape(shape)


cases = []


def add(op, **fields):
    cases.append({"id": f"{op}-{len(cases):04d}", "op": op, **fields})


for dtype in DTYPES:
    for shape, axes in (((23,), [0, None]), ((4, 7), [0, 1, None]), ((2, 3, 5), [1, -1])):
        x = sample(dtype, shape)
        for axis in axes:
            for kind in ("stable", "quicksort"):
                add("sort", x=encode(x), axis=axis, kind=kind, expect=encode(np.sort(x, axis=axis, kind=kind)))
                add("argsort", x=encode(x), axis=axis, kind=kind,
                    expect=encode(np.argsort(x, axis=axis, kind=kind)),
                    sorted=encode(np.sort(x, axis=axis, kind="stable")))
            if axis is not None:
                length = x.shape[axis]
                kth = [0, length // 2, -1] if length > 2 else [0]
                for k in (kth[1] if len(kth) > 1 else 0, kth):
                    add("partition", x=encode(x), axis=axis, kth=k,
                        sorted=encode(np.sort(x, axis=axis, kind="stable")))
        for equal_nan in (True, False):
            values, index, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                                       return_counts=True, equal_nan=equal_nan)
            add("unique", x=encode(x), equal_nan=equal_nan,
                expect={"values": encode(values), "index": encode(index), "inverse": encode(inverse),
                        "counts": encode(counts)})
        add("nonzero", x=encode(x), expect=[encode(i) for i in np.nonzero(x)], flat=encode(np.flatnonzero(x)))
    a = sample(dtype, (17,))
    v = sample(dtype, (3, 4))
    for side in ("left", "right"):
        add("searchsorted", a=encode(np.sort(a, kind="stable")), v=encode(v), side=side,
            expect=encode(np.searchsorted(np.sort(a, kind="stable"), v, side=side)))
        sorter = np.argsort(a, kind="stable")
        add("searchsorted", a=encode(a), v=encode(v), side=side, sorter=encode(sorter),
            expect=encode(np.searchsorted(a, v, side=side, sorter=sorter)))

with open("cases.json", "w") as out:
    json.dump({"numpy": np.__version__, "cases": cases}, out, indent=None)
    out.write("\n")
print(len(cases), "cases")

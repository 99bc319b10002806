"""Writes the .npy/.npz fixtures that NpyTest reads, with real NumPy, and expected.json
describing each in the conformance corpus encoding (dtype, shape, flat C-order data).
Run from this directory: python3 make_fixtures.py"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from corpus_encoding import encode  # noqa: E402


arrays = {
    "bool": np.array([True, False, True]),
    "int8": np.array([-128, 0, 127], dtype=np.int8),
    "int16": np.array([-32768, 1, 32767], dtype=np.int16),
    "int32": np.arange(-6, 6, dtype=np.int32).reshape(3, 4),
    "int64": np.array([-2**63, 0, 2**63 - 1], dtype=np.int64),
    "uint8": np.array([0, 200, 255], dtype=np.uint8),
    "uint16": np.array([0, 65535], dtype=np.uint16),
    "uint32": np.array([0, 2**32 - 1], dtype=np.uint32),
    "uint64": np.array([0, 2**63 + 5, 2**64 - 1], dtype=np.uint64),
    "float16": np.array([0.5, -2.0, 65504.0, np.inf], dtype=np.float16),
    "float32": np.array([1.5, -0.0, np.nan, 3.4e38], dtype=np.float32),
    "float64": np.array([np.nan, np.inf, -np.inf, -0.0, 1e-300, 2.5]),
    "complex64": np.array([1 + 2j, -3.5j], dtype=np.complex64),
    "complex128": np.array([1.25 - 2j, np.nan + 1j]),
    "fortran": np.asfortranarray(np.arange(12.0).reshape(3, 4)),
    "big_int32": np.arange(5, dtype=">i4"),
    "big_float64": np.array([1.5, -2.25, 1e10], dtype=">f8"),
    "big_complex128": np.array([1 + 2j, 3 - 4j], dtype=">c16"),
    "scalar": np.array(7.25),
    "empty": np.zeros((0, 3)),
    "cube": np.arange(24, dtype=np.int16).reshape(2, 3, 4),
}
expected = {}
for name, a in arrays.items():
    np.save(name + ".npy", a)
    expected[name + ".npy"] = encode(a.astype(a.dtype.newbyteorder("=")))
for version in [(2, 0), (3, 0)]:
    name = "version%d.npy" % version[0]
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    with open(name, "wb") as f:
        np.lib.format.write_array(f, a, version=version)
    expected[name] = encode(a)
np.savez("archive.npz", first=np.arange(4), second=np.eye(2, dtype=np.float32))
np.savez_compressed("archive_compressed.npz", first=np.arange(4), second=np.eye(2, dtype=np.float32))
with open("expected.json", "w") as f:
    json.dump(expected, f, indent=1)

"""Writes the conformance suite `fft` (FORMAT.md encodings) from the NumPy this runs with (the corpus
was made with NumPy 2.4.6): numpy.fft's fft, ifft, rfft, irfft, fft2, ifft2, fftn, ifftn, rfftn and
irfftn on

  - every length 1..16, in every direction, with every norm;
  - powers of two up to 4096, primes (7 ... 4099), products of small primes (6 ... 3000); large
    lengths with few cases and short inputs, to keep the file small;
  - n cropping and zero-padding, negative axes, 2-D and 3-D arrays with axes and s;
  - dtypes float64, complex128, float32, complex64, int64, bool (and float16 for the odd irfft);
  - errors: no points (n=0, an empty axis, irfft of one value), an axis out of range, a bad norm,
    rfft of complex input, s and axes of different lengths.

Run from anywhere: python3 conformance/generate/fft.py. Deterministic (one seeded generator).
"""
import json
import os
import sys
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(CORPUS, "..", "ndarray", "src", "test", "resources"))
from corpus_encoding import encode  # noqa: E402
from suites import category  # noqa: E402

warnings.simplefilter("ignore")
rng = np.random.default_rng(20240611)

ONE_AXIS = {"fft": np.fft.fft, "ifft": np.fft.ifft, "rfft": np.fft.rfft, "irfft": np.fft.irfft}
SEVERAL_AXES = {"fft2": np.fft.fft2, "ifft2": np.fft.ifft2, "fftn": np.fft.fftn, "ifftn": np.fft.ifftn,
                "rfftn": np.fft.rfftn, "irfftn": np.fft.irfftn}
NORMS = [None, "backward", "ortho", "forward"]


cases = []
seen = set()


def add(op, args):
    key = json.dumps([op, args], sort_keys=True)
    if key in seen:
        return
    seen.add(key)
    x = decode(args["x"])
    kwargs = {k: (tuple(v) if isinstance(v, list) else v) for k, v in args.items() if k != "x"}
    function = ONE_AXIS.get(op) or SEVERAL_AXES[op]
    try:
        expect = {"array": encode(function(x, **kwargs))}
    except Exception as error:  # noqa: BLE001 - the category is the expectation
        expect = {"error": category(error)}
    cases.append({"id": "fft-f%05d" % (len(cases) + 1), "suite": "fft", "op": op, "args": args, "expect": expect})


def decode(node):
    data = [complex(v[0], v[1]) if isinstance(v, list) else v for v in node["data"]]
    data = [float(v) if isinstance(v, str) else v for v in data]
    return np.array(data, dtype=node["dtype"]).reshape(node["shape"])


def values(shape, dtype, short=False):
    """Random values of a dtype; short: multiples of 1/8 in [-4, 4], which print in a few characters."""
    size = int(np.prod(shape))
    if dtype == "bool":
        return rng.random(size).reshape(shape) < 0.5
    if dtype.startswith("int"):
        return rng.integers(-50, 50, size).astype(dtype).reshape(shape)
    if short:
        real = rng.integers(-32, 33, size) / 8.0
        imag = rng.integers(-32, 33, size) / 8.0
    else:
        real = rng.standard_normal(size)
        imag = rng.standard_normal(size)
    if dtype.startswith("complex"):
        return (real + 1j * imag).astype(dtype).reshape(shape)
    return real.astype(dtype).reshape(shape)


def one(op, x, n=None, axis=None, norm=None):
    args = {"x": encode(x)}
    if n is not None:
        args["n"] = n
    if axis is not None:
        args["axis"] = axis
    if norm is not None:
        args["norm"] = norm
    add(op, args)


def several(op, x, s=None, axes=None, norm=None):
    args = {"x": encode(x)}
    if s is not None:
        args["s"] = list(s)
    if axes is not None:
        args["axes"] = list(axes)
    if norm is not None:
        args["norm"] = norm
    add(op, args)


def input_dtype(op, dtype):
    return "float64" if op == "rfft" and dtype.startswith("complex") else dtype


# Every small length, every direction and norm.
for length in range(1, 17):
    for op in ONE_AXIS:
        for norm in NORMS:
            dtype = "float64" if op == "rfft" else "complex128"
            one(op, values((length,), dtype), norm=norm)
    one("fft", values((length,), "float64"))
    one("ifft", values((length,), "float64"))
    one("irfft", values((length,), "complex128"), n=2 * length - 1)

# Powers of two, primes and products of small primes: a case or two each, larger ones with short inputs.
for length in [32, 64, 128, 256, 512, 1024, 2048, 4096, 7, 13, 17, 31, 97, 101, 211, 1009, 4099,
               6, 12, 15, 30, 60, 100, 360, 1000, 3000]:
    short = length >= 1000
    if length <= 360:
        one("fft", values((length,), "complex128", short))
        one("ifft", values((length,), "complex128", short), norm="ortho")
        one("rfft", values((length,), "float64", short))
        one("irfft", values((length // 2 + 1,), "complex128", short), n=length)
    elif length <= 1024:
        one("fft", values((length,), "complex128", True))
        one("irfft", values((length // 2 + 1,), "complex128", True), n=length, norm="ortho")
    elif length == 4099:
        one("fft", values((length,), "float64", True))
    elif length == 2048:
        one("rfft", values((length,), "float64", True))
    elif length == 3000:
        one("irfft", values((length // 2 + 1,), "complex128", True), n=length, norm="forward")
    else:  # 4096
        one("rfft", values((length,), "float64", True), norm="ortho")
        one("irfft", values((length // 2 + 1,), "complex128", True))
    if length <= 360:
        one("irfft", values((length // 2 + 1,), "complex128", short), n=length, norm="forward")

# n crops and pads, along any axis, with every norm.
for op in ONE_AXIS:
    for n in [1, 3, 5, 8, 11, 20]:
        dtype = "float64" if op == "rfft" else "complex128"
        one(op, values((3, 8), dtype), n=n, axis=1, norm=NORMS[n % 4])
        one(op, values((8, 3), dtype), n=n, axis=0)
        one(op, values((2, 6, 3), dtype), n=n, axis=-2, norm="ortho")
    for axis in [0, 1, 2, -1, -3]:
        dtype = "float64" if op == "rfft" else "complex128"
        one(op, values((4, 5, 6), dtype), axis=axis, norm="forward")

# Dtypes: float32 and complex64 give complex64 (irfft float32); ints and bools complex128.
for dtype in ["float64", "complex128", "float32", "complex64", "int64", "bool", "int8", "uint8", "float16"]:
    for op in ONE_AXIS:
        if op == "rfft" and dtype.startswith("complex"):
            continue
        one(op, values((3, 10), dtype), norm="ortho")
        one(op, values((12,), dtype), n=9)
    several("fftn", values((3, 4, 5), dtype))
    several("ifft2", values((4, 6), dtype), norm="forward")
    if not dtype.startswith("complex"):
        several("rfftn", values((4, 6), dtype))
    several("irfftn", values((3, 4, 5), dtype))
    several("irfftn", values((4, 5), dtype), axes=[-1])
for length in [64, 100, 97]:
    one("fft", values((length,), "complex64"))
    one("irfft", values((length // 2 + 1,), "complex64"), n=length)
    one("rfft", values((length,), "float32"), norm="forward")

# Several axes: defaults, explicit axes (negative, reordered, repeated), s cropping and padding.
for op in SEVERAL_AXES:
    real = op == "rfftn"
    dtype = "float64" if real else "complex128"
    for norm in NORMS:
        several(op, values((4, 6), dtype), norm=norm)
    several(op, values((3, 4, 5), dtype))
    several(op, values((3, 4, 5), dtype), axes=[0, 2])
    several(op, values((3, 4, 5), dtype), axes=[2, 0], norm="ortho")
    several(op, values((3, 4, 5), dtype), axes=[-1, -2])
    several(op, values((3, 4, 5), dtype), axes=[1])
    several(op, values((2, 3, 4, 5), dtype), axes=[0, 1, 3])
    several(op, values((4, 6), dtype), s=[3, 8], axes=[0, 1])
    several(op, values((4, 6), dtype), s=[5, -1], axes=[0, 1], norm="forward")
    several(op, values((3, 4, 5), dtype), s=[6, 7], axes=[2, 0])
    several(op, values((3, 4, 5), dtype), s=[2, 3, 9])
    several(op, values((5, 7), dtype), s=[7, 5], axes=[-1, -2], norm="ortho")
    several(op, values((6, 7), dtype), axes=[1, 1])
    several(op, values((16, 12), dtype))
    if op in ("fftn", "rfftn", "irfftn"):
        several(op, values((9, 10, 11), dtype, True), norm="ortho")
        several(op, values((32, 30), dtype, True), axes=[-2, -1])

# Errors.
for op in ONE_AXIS:
    dtype = "float64" if op == "rfft" else "complex128"
    one(op, values((5,), dtype), n=0)
    one(op, values((5,), dtype), n=-2)
    one(op, values((3, 4), dtype), axis=2)
    one(op, values((3, 4), dtype), axis=-3, n=4)
    one(op, values((3, 4), dtype), norm="orthogonal")
    one(op, values((0,), dtype))
    one(op, values((2, 0), dtype), axis=0)
one("rfft", values((6,), "complex128"))
one("irfft", values((1,), "complex128"))
one("irfft", values((3, 1), "complex128"), axis=1)
for op in SEVERAL_AXES:
    dtype = "float64" if op == "rfftn" else "complex128"
    several(op, values((3, 4), dtype), s=[3, 4, 5], axes=[0, 1])
    several(op, values((3, 4), dtype), axes=[0, 2])
    several(op, values((6,), dtype), axes=[-2, -1])
    several(op, values((3, 4), dtype), s=[0, 4], axes=[0, 1])
    several(op, values((3, 4), dtype), norm="orthogonal")
several("rfftn", values((3, 4), "complex128"))
several("fft2", values((5,), "complex128"))
several("ifft2", values((5,), "complex128"))

with open(os.path.join(CORPUS, "fft.jsonl"), "w") as out:
    for case in cases:
        out.write(json.dumps(case) + "\n")
counts = {}
for case in cases:
    key = case["op"] + (" (error)" if "error" in case["expect"] else "")
    counts[key] = counts.get(key, 0) + 1
print(len(cases), "cases,", os.path.getsize(os.path.join(CORPUS, "fft.jsonl")), "bytes:", json.dumps(counts, sort_keys=True))

"""Writes the conformance suites of ordering across an axis (FORMAT.md encodings), from the NumPy this
runs with (the corpus was made with 2.4.6):

  sort      np.sort(x, axis, kind), np.argsort(x, axis, kind="stable") and np.unique(x) (NumPy 2's
            equal_nan=True: NaNs collapse to one) over float64 with NaN, -0.0 and 0.0, infinities and
            ties, int64, bool, float32 and a few other dtypes, 0-d to 3-d, empty arrays, and bad axes
  quantile  np.quantile(x, q, axis, method, keepdims), np.percentile(...) with every method of
            NumPy 2, and np.median(x, axis, keepdims): q a Python float (weak, as NumPy types the
            result by it) or a 1-d or 2-d float64 array; errors: q out of range or NaN, bad axes and
            methods, bool with an interpolating method (TypeError), an empty axis (IndexError)

Run from anywhere: python3 conformance/generate/sorting.py. Deterministic: one seeded generator per
suite. Sorts with kind "stable" are checked to keep -0.0 and 0.0 in input order, as a stable sort does.
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
from suites import Suite  # noqa: E402

warnings.simplefilter("ignore")


SPECIAL = [np.nan, -0.0, 0.0, np.inf, -np.inf]


def values(rng, shape, dtype, special=True):
    """Random values of few distinct levels (many ties); floats mix in NaN, signed zeros and infinities."""
    size = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return np.asarray(rng.random(size).reshape(shape) < 0.5)
    if dtype.startswith("float"):
        levels = rng.integers(-6, 7, size) / 2
        data = levels.astype(np.float64)
        if special:
            pick = rng.random(size) < 0.3
            data[pick] = rng.choice(SPECIAL, int(pick.sum()))
        return data.reshape(shape).astype(dtype)
    info = np.iinfo(dtype)
    low, high = (int(info.min), int(info.max)) if rng.random() < 0.15 else (max(int(info.min), -9), min(int(info.max), 9))
    data = rng.integers(low, high, size, endpoint=True, dtype=dtype)
    return data.reshape(shape)


SHAPES = [(), (0,), (1,), (5,), (8,), (13,), (2, 0), (0, 3), (3, 4), (4, 3), (2, 5), (2, 3, 4), (3, 1, 5), (1, 2, 3)]
DTYPES = ["float64", "float64", "float64", "int64", "int64", "bool", "float32", "int8", "uint64", "float16"]


def axes_for(rng, ndim):
    choices = [None] + list(range(-ndim, ndim))
    if rng.random() < 0.08:
        choices.append(ndim)  # out of bounds
    return choices[int(rng.integers(0, len(choices)))]


def zero_signs_in_input_order(x, result, axis):
    """Whether a stable float sort kept each lane's zeros in input order (their signs)."""
    if x.dtype.kind != "f":
        return True
    source = x.reshape(-1) if axis is None else np.moveaxis(x, axis, -1)
    target = result if axis is None else np.moveaxis(result, axis, -1)
    source = source.reshape(-1, source.shape[-1]) if source.size else source.reshape(0, 0)
    target = target.reshape(-1, target.shape[-1]) if target.size else target.reshape(0, 0)
    for lane, sorted_lane in zip(source, target):
        zeros = np.signbit(lane[lane == 0])
        if not np.array_equal(zeros, np.signbit(sorted_lane[sorted_lane == 0])):
            return False
    return True


def sort_suite():
    rng = np.random.default_rng(20240611)
    suite = Suite("sort", "s")
    for shape in SHAPES:
        for dtype in DTYPES:
            x = values(rng, shape, dtype)
            for _ in range(2):
                axis = axes_for(rng, len(shape))
                args = {"x": encode(x), "axis": axis}
                kind = ["quicksort", "stable", "mergesort", "heapsort"][int(rng.integers(0, 4))]
                suite.add("sort", dict(args, kind=kind), lambda: np.sort(x, axis=axis, kind=kind))
                stable = lambda: np.sort(x, axis=axis, kind="stable")  # noqa: E731
                suite.add("sort", dict(args, kind="stable"), stable)
                try:
                    assert zero_signs_in_input_order(x, stable(), axis), "NumPy's stable sort moved zeros"
                except (IndexError, ValueError, TypeError):
                    pass
                suite.add("argsort", dict(args, kind="stable"), lambda: np.argsort(x, axis=axis, kind="stable"))
            suite.add("unique", {"x": encode(x)}, lambda: np.unique(x))
    # Long lanes of few values: runs of ties across many blocks.
    for dtype in ["float64", "int64", "float32", "bool"]:
        for length in (17, 40):
            x = values(rng, (length,), dtype)
            suite.add("sort", {"x": encode(x), "axis": 0, "kind": "stable"}, lambda: np.sort(x, kind="stable"))
            suite.add("argsort", {"x": encode(x), "axis": 0, "kind": "stable"}, lambda: np.argsort(x, kind="stable"))
            suite.add("argsort", {"x": encode(x), "axis": None, "kind": "stable"}, lambda: np.argsort(x, axis=None, kind="stable"))
            suite.add("unique", {"x": encode(x)}, lambda: np.unique(x))
    # Only NaNs, only zeros of both signs, already sorted, reversed.
    for data in ([np.nan] * 5, [0.0, -0.0, 0.0, -0.0, -0.0, 0.0], list(range(9)), list(range(9, 0, -1)),
                 [np.inf, np.nan, -np.inf, np.nan, 0.0, -0.0, np.inf]):
        x = np.array(data, dtype=np.float64)
        for axis in (0, None):
            suite.add("sort", {"x": encode(x), "axis": axis, "kind": "stable"}, lambda: np.sort(x, axis=axis, kind="stable"))
            suite.add("argsort", {"x": encode(x), "axis": axis, "kind": "stable"}, lambda: np.argsort(x, axis=axis, kind="stable"))
        suite.add("unique", {"x": encode(x)}, lambda: np.unique(x))
    return suite


METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf",
           "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased", "normal_unbiased"]
Q_SCALARS = [0.0, 1.0, 0.5, 0.25, 0.75, 0.1, 0.9, 0.33, 0.05, 0.999]


def random_q(rng, percent):
    scale = 100.0 if percent else 1.0
    pick = rng.random()
    if pick < 0.45:
        return float(Q_SCALARS[int(rng.integers(0, len(Q_SCALARS)))] * scale)
    count = int(rng.integers(1, 5))
    q = rng.choice(Q_SCALARS, count) * scale
    if pick < 0.55:
        q = q[:1].reshape(1, 1) if count == 1 else np.resize(q, (2, 2))
    return q.astype(np.float64)


def quantile_suite():
    rng = np.random.default_rng(20240612)
    suite = Suite("quantile", "s")
    shapes = [(), (0,), (1,), (2,), (5,), (8,), (2, 0), (0, 3), (3, 4), (4, 3), (2, 3, 4), (3, 1, 5)]
    dtypes = ["float64", "float64", "float64", "int64", "int64", "bool", "float32", "float16", "int8", "uint64"]
    for shape in shapes:
        for dtype in dtypes:
            x = values(rng, shape, dtype, special=rng.random() < 0.4)
            for _ in range(4):
                axis = axes_for(rng, len(shape))
                keepdims = bool(rng.random() < 0.3)
                method = "linear" if rng.random() < 0.35 else METHODS[int(rng.integers(0, len(METHODS)))]
                percent = bool(rng.random() < 0.4)
                q = random_q(rng, percent)
                op = "percentile" if percent else "quantile"
                function = np.percentile if percent else np.quantile
                q_arg = q if isinstance(q, float) else encode(q)
                suite.add(op, {"x": encode(x), "q": q_arg, "axis": axis, "method": method, "keepdims": keepdims},
                          lambda: function(x, q, axis=axis, method=method, keepdims=keepdims))
            for axis in [None] + list(range(len(shape))):
                keepdims = bool(rng.random() < 0.3)
                suite.add("median", {"x": encode(x), "axis": axis, "keepdims": keepdims},
                          lambda: np.median(x, axis=axis, keepdims=keepdims))
    # Errors: q outside [0, 1] (or [0, 100]), NaN q, an unknown method, a bad axis, a 3-d q.
    x = values(rng, (3, 4), "float64", special=False)
    for q in (-0.1, 1.5, float("nan")):
        q_arg = "nan" if q != q else q  # a float datum as FORMAT.md writes it
        suite.add("quantile", {"x": encode(x), "q": q_arg, "axis": None, "method": "linear", "keepdims": False},
                  lambda: np.quantile(x, q))
        suite.add("percentile", {"x": encode(x), "q": "nan" if q != q else q * 100, "axis": 0, "method": "linear", "keepdims": False},
                  lambda: np.percentile(x, q * 100, axis=0))
    suite.add("quantile", {"x": encode(x), "q": encode(np.array([0.5, 1.2])), "axis": 1, "method": "lower", "keepdims": False},
              lambda: np.quantile(x, np.array([0.5, 1.2]), axis=1, method="lower"))
    suite.add("quantile", {"x": encode(x), "q": 0.5, "axis": 0, "method": "foo", "keepdims": False},
              lambda: np.quantile(x, 0.5, axis=0, method="foo"))
    suite.add("quantile", {"x": encode(x), "q": 0.5, "axis": 2, "method": "linear", "keepdims": False},
              lambda: np.quantile(x, 0.5, axis=2))
    suite.add("median", {"x": encode(x), "axis": -3, "keepdims": False}, lambda: np.median(x, axis=-3))
    q3 = np.full((1, 1, 2), 0.5)
    suite.add("quantile", {"x": encode(x), "q": encode(q3), "axis": 0, "method": "linear", "keepdims": False},
              lambda: np.quantile(x, q3, axis=0))
    # Infinities where the interpolation meets them: inf - inf is NaN, as in NumPy.
    for data in ([1.0, np.inf], [-np.inf, -np.inf, 2.0], [-np.inf, np.inf], [0.0, -0.0, 1.0], [np.nan, 1.0, 2.0]):
        x = np.array(data)
        for method in ("linear", "midpoint", "nearest", "hazen"):
            q = np.array([0.0, 0.3, 0.5, 1.0])
            suite.add("quantile", {"x": encode(x), "q": encode(q), "axis": 0, "method": method, "keepdims": False},
                      lambda: np.quantile(x, q, axis=0, method=method))
        suite.add("median", {"x": encode(x), "axis": None, "keepdims": False}, lambda: np.median(x))
    return suite


if __name__ == "__main__":
    for suite in (sort_suite(), quantile_suite()):
        print("%s: %d cases" % (suite.name, suite.write()))

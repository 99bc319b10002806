"""Writes the conformance suites of NumPy's corner cases (FORMAT.md encodings), from the NumPy this
runs with (the corpus was made with 2.4.6):

  getitem_bool_scalar  x[True], x[False] and boolean scalars (Python bools, 0-d boolean arrays)
                       mixed with integers, slices, None, Ellipsis, integer arrays and masks
  setitem_bool_scalar  the same index expressions assigned to, with values of the selection's shape,
                       of shapes that broadcast to it and of shapes that do not
  setitem_broadcast    assignments whose value must broadcast to a selection with new (None) or
                       empty axes, or whose value has more axes than the selection
  reduce_empty         reductions over empty axes: the ones without an identity (min, max, argmin,
                       argmax, nanmin, nanmax) raise ValueError, the others give their identity
                       (or NaN: mean, var, std, nanmean)
  ufunc_bool           every ufunc of the corpus on boolean operands, alone and with other dtypes
                       and weak scalars: NumPy refuses negative, positive, sign and boolean subtract

Run from anywhere: python3 conformance/generate/corners.py. Deterministic: one seeded generator
per suite, so a suite's cases do not depend on the others.
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
from suites import Suite, category  # noqa: E402

warnings.simplefilter("ignore")


def encode_index(index):
    items = []
    for item in index:
        if item is None:
            items.append(None)
        elif item is Ellipsis:
            items.append("...")
        elif isinstance(item, bool):
            items.append(item)
        elif isinstance(item, int):
            items.append(item)
        elif isinstance(item, slice):
            items.append({"slice": [item.start, item.stop, item.step]})
        else:
            items.append({"array": encode(item)})
    return items


# ---------------------------------------------------------------------------------------------
# Arrays and index expressions

DTYPES = ["int64", "float64", "bool", "int8", "uint16", "float32", "complex128"]


def values(rng, shape, dtype):
    size = int(np.prod(shape, dtype=np.int64))
    if dtype == "bool":
        return np.asarray(rng.random(size).reshape(shape) < 0.5)
    if dtype.startswith("complex"):
        return (rng.integers(-9, 10, size) + 1j * rng.integers(-9, 10, size)).reshape(shape).astype(dtype)
    if dtype.startswith("float"):
        return (rng.integers(-99, 100, size) / 4).reshape(shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -99), min(info.max, 99) + 1, size).reshape(shape).astype(dtype)


SHAPES = [(), (3,), (4,), (0,), (2, 3), (3, 4), (0, 3), (2, 0), (2, 3, 2), (1, 2, 3)]


def random_bool_index(rng, x):
    """A random index expression holding at least one boolean scalar, mostly valid for x."""
    items = []
    axis = 0
    used_ellipsis = False
    count = int(rng.integers(1, 5))
    bool_at = int(rng.integers(0, count))
    for position in range(count):
        if position == bool_at:
            kind = "bool"
        else:
            kind = rng.choice(["bool", "int", "slice", "none", "ellipsis", "intarray", "mask", "bool0d"])
        left = x.ndim - axis
        if kind == "bool":
            items.append(bool(rng.random() < 0.6))
        elif kind == "bool0d":
            items.append(np.array(rng.random() < 0.6))
        elif kind == "none":
            items.append(None)
        elif kind == "ellipsis" and not used_ellipsis:
            used_ellipsis = True
            items.append(Ellipsis)
        elif kind == "int" and left > 0:
            length = x.shape[axis]
            items.append(int(rng.integers(-length, length)) if length > 0 and rng.random() < 0.9 else length)
            axis += 1
        elif kind == "slice" and left > 0:
            start = [None, 0, 1, -1][int(rng.integers(0, 4))]
            stop = [None, 2, -1, 0][int(rng.integers(0, 4))]
            step = [None, 1, 2, -1][int(rng.integers(0, 4))]
            items.append(slice(start, stop, step))
            axis += 1
        elif kind == "intarray" and left > 0 and x.shape[axis] > 0:
            length = x.shape[axis]
            shape = [(2,), (1,), (0,), (2, 1), (3,)][int(rng.integers(0, 5))]
            items.append(rng.integers(-length, length, shape).astype(np.int64))
            axis += 1
        elif kind == "mask" and left > 0:
            width = 1 if left == 1 or rng.random() < 0.7 else 2
            items.append(rng.random(x.shape[axis:axis + width]) < 0.5)
            axis += width
        else:
            items.append(bool(rng.random() < 0.5))
    return tuple(items)


BOOL_INDEXES = [
    (True,), (False,), (True, True), (True, False), (False, False), (Ellipsis, True), (Ellipsis, False),
    (True, Ellipsis), (None, True), (True, None), (False, None, Ellipsis), (True, 0), (0, True), (False, 0),
    (True, -1), (slice(None), True), (slice(1, None), False), (True, slice(None, None, -1)),
    (True, [0]), ([0, 1], True), ([1, 0], False), (True, np.array([[0], [1]])), (0, True, 0),
    (0, slice(None), True), (True, Ellipsis, 0), (np.array(True),), (np.array(False),),
    (np.array(True), 0), (np.array(False), Ellipsis, None), (True, 9), (False, 9), (True, 0, 0, 0, 0),
    (Ellipsis, True, Ellipsis), (True, [0, 1], [0, 1, 0]), ([0, 1], False, [0, 1]), (True, [5]),
]


def getitem_bool_scalar():
    suite = Suite("getitem_bool_scalar", "c")
    rng = np.random.default_rng(2101)
    arrays = []
    for shape in SHAPES:
        for dtype in ("int64", "float64", "bool"):
            arrays.append(values(rng, shape, dtype))
    for index in BOOL_INDEXES:
        index = tuple(np.asarray(i) if isinstance(i, list) else i for i in index)
        for k in rng.permutation(len(arrays))[:3]:
            add_getitem(suite, arrays[int(k)], index)
    for shape in SHAPES:
        for _ in range(10):
            x = values(rng, shape, DTYPES[int(rng.integers(0, len(DTYPES)))])
            add_getitem(suite, x, random_bool_index(rng, x))
    return suite


def add_getitem(suite, x, index):
    args = {"x": encode(x), "index": encode_index(index)}
    try:
        result = x[index]
    except Exception as error:  # noqa: BLE001 - the category is the expectation
        suite.add("getitem", args, {"error": category(error)})
        return
    result = np.asarray(result)
    view = None if result.size == 0 else bool(np.shares_memory(result, x))
    suite.add("getitem", args, {"array": encode(result), "view": view})


def add_setitem(suite, x, index, value):
    args = {"x": encode(x), "index": encode_index(index), "value": encode(value)}
    target = x.copy()
    try:
        target[index] = value
    except Exception as error:  # noqa: BLE001
        suite.add("setitem", args, {"error": category(error)})
        return
    suite.add("setitem", args, {"array": encode(target)})


def value_shapes(rng, shape):
    """Shapes a value may have for a selection of `shape`: equal, broadcastable, wider, wrong."""
    shape = tuple(shape)
    candidates = [shape, (), (1,), (1,) + shape, (1, 1) + shape, shape[1:], (2,) + shape, (0,) + shape, (0,), (5,),
                  tuple(1 for _ in shape), (3,) + shape[1:], shape[:-1] + (1,) if shape else (2,)]
    if shape:
        candidates.append(shape[:-1] + (shape[-1] + 1,))
        candidates.append((1,) + shape[:-1] + (1,) + shape[-1:])
        candidates.append((2, 1) + shape)
    if 0 in shape:
        candidates.append((3,) + shape)
        candidates.append(tuple(7 if n == 0 else n for n in shape))
    picked = []
    for k in rng.permutation(len(candidates))[:4]:
        picked.append(candidates[int(k)])
    picked.append(shape)
    return picked


def setitem_bool_scalar():
    suite = Suite("setitem_bool_scalar", "c")
    rng = np.random.default_rng(2102)
    for shape in SHAPES:
        for dtype in ("int64", "float64", "bool"):
            x = values(rng, shape, dtype)
            indexes = [BOOL_INDEXES[int(k)] for k in rng.permutation(len(BOOL_INDEXES))[:3]]
            indexes.append(random_bool_index(rng, x))
            for index in indexes:
                index = tuple(np.asarray(i) if isinstance(i, list) else i for i in index)
                try:
                    selection = x[index].shape
                except Exception:  # noqa: BLE001 - the assignment raises too; one value is enough
                    add_setitem(suite, x, index, values(rng, (1,), dtype))
                    continue
                for vshape in value_shapes(rng, selection)[:3]:
                    add_setitem(suite, x, index, values(rng, vshape, dtype))
    return suite


BROADCAST_INDEXES = [
    (None,), (None, None), (slice(None), None), (Ellipsis, None), (None, Ellipsis, None), (0, None),
    (None, 0), (slice(0, 0),), (slice(None), slice(2, 1)), (slice(None, None, -1), None), ([],),
    (slice(None), []), ([], None), (None, []), ([[0], [1]],), ([0, 1],), (None, [0, 1]), ([0, 1], None),
    (1,), (1, 1), (Ellipsis,), (), (0, 0), ([1], [1]), ([0, 1], [1]), ([[]],), (slice(None), [[0, 1]]),
    ("mask",), ("empty mask",), ("mask", None), (None, "mask"), ("row mask",), ("row mask", None),
]


def setitem_broadcast():
    suite = Suite("setitem_broadcast", "c")
    rng = np.random.default_rng(2103)
    shapes = [(3, 4), (2, 3), (0, 3), (2, 0), (2, 3, 2), (3,), (0,), ()]
    for index in BROADCAST_INDEXES:
        used = 0
        for k in rng.permutation(len(shapes)):
            if used == 3:
                break
            dtype = ["int64", "float64", "bool", "uint16", "float32"][int(rng.integers(0, 5))]
            x = values(rng, shapes[int(k)], dtype)
            items = []
            for item in index:
                if isinstance(item, str) and item == "mask":
                    item = rng.random(x.shape) < 0.5
                elif isinstance(item, str) and item == "empty mask":
                    item = np.zeros(x.shape, dtype=bool)
                elif isinstance(item, str) and item == "row mask":
                    item = rng.random(x.shape[:1]) < 0.6
                elif isinstance(item, list):
                    item = np.asarray(item, dtype=np.int64)
                items.append(item)
            try:
                selection = x[tuple(items)].shape
            except Exception:  # noqa: BLE001 - no selection for this x
                continue
            used += 1
            for vshape in value_shapes(rng, selection)[2:]:
                add_setitem(suite, x, tuple(items), values(rng, vshape, dtype))
    return suite


# ---------------------------------------------------------------------------------------------
# Reductions over empty axes

REDUCE_METHODS = ["sum", "prod", "max", "min", "mean", "var", "std", "argmax", "argmin", "any", "all", "count_nonzero",
                  "nansum", "nanmean", "nanmax", "nanmin", "cumsum", "cumprod"]
# Tessera does not order complex numbers (maximum, minimum, argmax of complex arrays): left out here.
ORDERING = ("max", "min", "argmax", "argmin")
EMPTY_SHAPES = [(0,), (0, 3), (3, 0), (0, 0), (2, 0, 3), (1, 0)]


def reduce_call(method, x, axis, keepdims):
    function = getattr(np, method)
    if method in ("argmax", "argmin"):
        return function(x, axis=axis, keepdims=keepdims)
    if method in ("cumsum", "cumprod"):
        return function(x, axis=axis)
    if method == "count_nonzero":
        return function(x, axis=tuple(axis) if isinstance(axis, list) else axis, keepdims=keepdims)
    return function(x, axis=tuple(axis) if isinstance(axis, list) else axis, keepdims=keepdims)


def reduce_empty():
    suite = Suite("reduce_empty", "c")
    rng = np.random.default_rng(2104)
    for method in REDUCE_METHODS:
        for shape in EMPTY_SHAPES:
            axes = [None] + list(range(len(shape)))
            if method not in ("argmax", "argmin", "cumsum", "cumprod") and len(shape) > 1:
                axes += [list(range(len(shape))), [len(shape) - 1, 0]]
                if len(shape) == 3:
                    axes += [[0, 2], [1, 2]]
            for k in sorted(rng.permutation(len(axes))[:3]):
                axis = axes[int(k)]
                if method in ("cumsum", "cumprod") and axis is None and len(shape) > 1:
                    continue
                dtypes = ["float64", "int64", "bool", "float32", "uint8", "complex128", "int16"]
                dtype = dtypes[int(rng.integers(0, len(dtypes)))]
                if dtype == "complex128" and (method.startswith("nan") or method in ORDERING):
                    dtype = "float64"
                keepdims = bool(rng.random() < 0.3) and method not in ("cumsum", "cumprod")
                x = np.zeros(shape, dtype=dtype)
                args = {"method": method, "x": encode(x), "axis": axis}
                if keepdims:
                    args["keepdims"] = True
                try:
                    result = np.asarray(reduce_call(method, x, axis, keepdims))
                except Exception as error:  # noqa: BLE001
                    suite.add("reduce", args, {"error": category(error)})
                    continue
                suite.add("reduce", args, {"array": encode(result)})
    # Non-empty reductions next to empty ones: only the reduced axes decide.
    for method in ("max", "min", "argmax", "argmin", "nanmax", "nanmin"):
        for shape, axis in [((3, 0), 0), ((0, 3), 1), ((2, 0, 3), 2), ((2, 3), None), ((1,), 0)]:
            x = values(rng, shape, "float64")
            args = {"method": method, "x": encode(x), "axis": axis}
            try:
                result = np.asarray(reduce_call(method, x, axis, False))
            except Exception as error:  # noqa: BLE001
                suite.add("reduce", args, {"error": category(error)})
                continue
            suite.add("reduce", args, {"array": encode(result)})
    return suite


# ---------------------------------------------------------------------------------------------
# Ufuncs on boolean operands

UFUNCS = ['absolute', 'add', 'arccos', 'arccosh', 'arcsin', 'arcsinh', 'arctan', 'arctan2', 'arctanh', 'bitwise_and',
          'bitwise_or', 'bitwise_xor', 'cbrt', 'ceil', 'copysign', 'cos', 'cosh', 'divmod', 'equal', 'exp', 'exp2',
          'expm1', 'floor', 'floor_divide', 'fmax', 'fmin', 'greater', 'greater_equal', 'hypot', 'invert', 'isfinite',
          'isinf', 'isnan', 'left_shift', 'less', 'less_equal', 'log', 'log10', 'log1p', 'log2', 'logical_and',
          'logical_not', 'logical_or', 'logical_xor', 'maximum', 'minimum', 'multiply', 'negative', 'not_equal',
          'positive', 'power', 'reciprocal', 'remainder', 'right_shift', 'rint', 'sign', 'signbit', 'sin', 'sinh',
          'sqrt', 'square', 'subtract', 'tan', 'tanh', 'true_divide', 'trunc']
# Complex partners are left out: Tessera has no complex comparisons or complex power yet.
OTHER_DTYPES = ["int8", "uint8", "int32", "uint64", "float16", "float32", "float64"]


def weak(value):
    kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "float"
    return {"weak": kind, "value": value}


def add_ufunc(suite, name, inputs):
    args = {"name": name, "inputs": [weak(i) if isinstance(i, (bool, int, float)) else encode(i) for i in inputs]}
    try:
        outputs = getattr(np, name)(*inputs)
    except Exception as error:  # noqa: BLE001
        suite.add("ufunc", args, {"error": category(error)})
        return
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    suite.add("ufunc", args, {"outputs": [encode(np.asarray(o)) for o in outputs]})


def ufunc_bool():
    suite = Suite("ufunc_bool", "c")
    rng = np.random.default_rng(2105)
    for name in UFUNCS:
        nin = getattr(np, name).nin
        shapes = [(4,), (2, 3), (), (0,)]
        if nin == 1:
            for shape in shapes[:3]:
                add_ufunc(suite, name, [values(rng, shape, "bool")])
            add_ufunc(suite, name, [np.array([True, False])])
            continue
        add_ufunc(suite, name, [np.array([True, True, False, False]), np.array([True, False, True, False])])
        add_ufunc(suite, name, [values(rng, (2, 3), "bool"), values(rng, (3,), "bool")])
        add_ufunc(suite, name, [values(rng, (), "bool"), values(rng, (0,), "bool")])
        for scalar in (True, False, 1, 2.5):
            if rng.random() < 0.6:
                add_ufunc(suite, name, [values(rng, (3,), "bool"), scalar] if rng.random() < 0.5
                          else [scalar, values(rng, (3,), "bool")])
        for dtype in [OTHER_DTYPES[int(k)] for k in rng.permutation(len(OTHER_DTYPES))[:2]]:
            other = values(rng, (3,), dtype)
            if name in ("left_shift", "right_shift") and dtype.startswith(("int", "uint")):
                other = np.abs(other) % 8
            pair = [values(rng, (3,), "bool"), other]
            add_ufunc(suite, name, pair if rng.random() < 0.5 else pair[::-1])
    return suite


def main():
    for make in (getitem_bool_scalar, setitem_bool_scalar, setitem_broadcast, reduce_empty, ufunc_bool):
        suite = make()
        print("%s: %d cases" % (suite.name, suite.write()))


if __name__ == "__main__":
    main()

"""Writes cases.json, the dot/vdot/inner/outer/tensordot/einsum/trace fixtures that
ProductsFixturesTest replays, with real NumPy. Run from this directory: python3 make_fixtures.py"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from corpus_encoding import encode  # noqa: E402

rng = np.random.default_rng(3)
cases = []


def sample(dtype, shape):
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 120 if dtype in ("int8", "uint8") else 50, shape).astype(dtype)
    values = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        values = values + 1j * rng.standard_normal(shape)
    return values.astype(dtype)


def add(op, operands, result, **fields):
    cases.append({"id": f"{op}-{len(cases):04d}", "op": op, "operands": [encode(x) for x in operands],
                  "expect": encode(result), **fields})


PAIRS = [("float64", "float64"), ("float32", "float32"), ("int32", "int64"), ("int8", "int8"), ("uint8", "int16"),
         ("bool", "bool"), ("complex128", "complex128"), ("complex64", "float32"), ("int32", "float64")]
for left, right in PAIRS:
    for a_shape, b_shape in (((), (3, 2)), ((4,), ()), ((5,), (5,)), ((3, 5), (5,)), ((5,), (5, 2)), ((3, 5), (5, 4)),
                             ((2, 3, 5), (5, 4)), ((2, 3, 5), (4, 5, 2))):
        a, b = sample(left, a_shape), sample(right, b_shape)
        add("dot", [a, b], np.dot(a, b))
    a, b = sample(left, (2, 3, 4)), sample(right, (5, 4))
    add("inner", [a, b], np.inner(a, b))
    add("outer", [a, b], np.outer(a, b))
    c = sample(right, (24,))
    add("vdot", [a, c], np.vdot(a, c))
    a, b = sample(left, (2, 3, 4)), sample(right, (3, 4, 5))
    add("tensordot", [a, b], np.tensordot(a, b, 2), axes=2)
    add("tensordot", [a, b], np.tensordot(a, b, ([1, 2], [0, 1])), axes=[[1, 2], [0, 1]])
    add("tensordot", [a, b[0]], np.tensordot(a, b[0], ([2], [0])), axes=[[2], [0]])
    add("tensordot", [a, b], np.tensordot(a, b, 0), axes=0)
    m = sample(left, (4, 4, 3))
    add("trace", [m], np.trace(m), offset=0, axis1=0, axis2=1)
    add("trace", [m], np.trace(m, 1, 1, 0), offset=1, axis1=1, axis2=0)
    add("trace", [m], np.trace(m, -1, 0, 1), offset=-1, axis1=0, axis2=1)

EINSUM = [("ij,jk->ik", [(3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("ii->", [(4, 4)]),
          ("ij->ji", [(3, 4)]), ("i,i->", [(5,), (5,)]), ("ij->", [(3, 4)]), ("ij,j->i", [(3, 4), (4,)]),
          ("ij,jk", [(3, 4), (4, 5)]), ("ji", [(3, 4)]), ("ii", [(3, 3)]), ("ii->i", [(3, 3)]),
          ("i,j->ij", [(3,), (4,)]), ("ijk,jil->kl", [(3, 2, 4), (2, 3, 5)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
          ("iij->j", [(3, 3, 2)]), ("ij,ij->i", [(3, 4), (3, 4)]), ("i,i", [(4,), (4,)]), ("ab,cd->abcd", [(2, 1), (3, 2)]),
          ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]), ("...ij,...jk", [(2, 1, 3, 4), (3, 4, 2)]), ("...ii->...i", [(2, 3, 3)]),
          ("i...->...", [(3, 2, 4)]), ("ij,ij->ij", [(3, 1), (3, 4)]), ("ij,jk->ik", [(3, 1), (4, 5)]), ("...", [(2, 3)])]
for dtype in ("float64", "float32", "int32", "uint8", "bool", "complex128"):
    for subscripts, shapes in EINSUM:
        operands = [sample(dtype, shape) for shape in shapes]
        add("einsum", operands, np.einsum(subscripts, *operands), subscripts=subscripts)
operands = [sample("int8", (3, 4)), sample("float32", (4,))]
add("einsum", operands, np.einsum("ij,j->i", *operands), subscripts="ij,j->i")

with open("cases.json", "w") as out:
    json.dump({"numpy": np.__version__, "cases": cases}, out)
    out.write("\n")
print(len(cases), "cases")

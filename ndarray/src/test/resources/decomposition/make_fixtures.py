"""Writes cases.json, the decomposition fixtures that DecompositionFixturesTest replays, with real
NumPy. Only answers that do not depend on a sign or basis choice are kept: singular values,
Cholesky factors, solutions, inverses, least squares, norms, and R of a QR with its diagonal made
non-negative. Run from this directory: python3 make_fixtures.py"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from corpus_encoding import encode  # noqa: E402

rng = np.random.default_rng(11)
cases = []


def add(op, operands, result, **fields):
    cases.append({"id": f"{op}-{len(cases):04d}", "op": op, "operands": [encode(x) for x in operands],
                  "expect": encode(result), **fields})


for shape in [(5, 3), (4, 4), (3, 6)]:
    a = rng.standard_normal(shape)
    add("singular-values", [a], np.linalg.svd(a, compute_uv=False))
    r = np.linalg.qr(a, mode="r")
    signs = np.where(np.diag(r) < 0, -1.0, 1.0)
    add("qr-r", [a], signs[:, None] * r)
    for order in [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]:
        add("norm", [a], np.asarray(np.linalg.norm(a, order)), order=str(order))

for n in [1, 3, 6]:
    m = rng.standard_normal((n, n))
    spd = m @ m.T + n * np.eye(n)
    add("cholesky", [spd], np.linalg.cholesky(spd))
    b = rng.standard_normal(n)
    add("solve", [m, b], np.linalg.solve(m, b))
    bs = rng.standard_normal((n, 2))
    add("solve", [m, bs], np.linalg.solve(m, bs))
    add("inv", [m], np.linalg.inv(m))

for shape in [(8, 3), (3, 5)]:
    a = rng.standard_normal(shape)
    b = rng.standard_normal(shape[0])
    x, residuals, rank, s = np.linalg.lstsq(a, b, rcond=None)
    add("lstsq", [a, b], x, residuals=encode(np.asarray(residuals)), rank=int(rank))

vector = rng.standard_normal(7)
vector[2] = 0.0
for order in [None, 0, 1, -1, 2, 3, 0.5, np.inf, -np.inf]:
    add("norm", [vector], np.asarray(np.linalg.norm(vector, order)), order=str(order))

rank_deficient = rng.standard_normal((6, 2)) @ rng.standard_normal((2, 4))
add("singular-values", [rank_deficient], np.linalg.svd(rank_deficient, compute_uv=False))
x, residuals, rank, s = np.linalg.lstsq(rank_deficient, np.arange(6.0), rcond=None)
add("lstsq", [rank_deficient, np.arange(6.0)], x, residuals=encode(np.asarray(residuals)), rank=int(rank))

with open("cases.json", "w") as out:
    json.dump({"numpy": np.__version__, "cases": cases}, out)

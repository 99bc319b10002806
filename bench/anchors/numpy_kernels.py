"""The in-memory kernels N1-N6 of bench/WORKLOADS.md, run by NumPy: the anchor of `./tessera bench N*`.

    python3 bench/anchors/numpy_kernels.py N1 [--json FILE] [--repeat R]

The inputs come from the same formula as Tessera's (a[i] = (i mod 1000) * 0.001 and its reverse;
for N6 the int32 values i mod 1000 and i mod 7), so the spot values agree across the two.
"""
import argparse
import statistics

import numpy as np

from anchor_result import fail, report, timed

ELEMENTS = 10 ** 8
MATRIX_SIDE = 4096


def formula(n):
    return (np.arange(n, dtype=np.int64) % 1000) * 0.001


def reversed_copy(a):
    return np.ascontiguousarray(a[::-1])


def square(a):
    side = int(round(a.size ** 0.5))
    return a.reshape(side, side)


def spot(result):
    return float(result.ravel()[12345]), True


def exact_sum_check(total, a):
    # The formula repeats 0, 0.001, ..., 0.999 every thousand elements; their sum is 499.5.
    exact = a.size // 1000 * 499.5
    return float(total), abs(float(total) - exact) <= 1e-9 * exact


def gemm_check(product, a, b):
    expected = float(a[7] @ b[:, 11])
    return float(product[7, 11]), abs(float(product[7, 11]) - expected) <= 1e-9 * abs(expected)


def kernels():
    """Name to (inputs maker, operation, check of the result): the operation alone is timed."""
    def pair(n):
        a = formula(n)
        return a, reversed_copy(a)

    def square_pair(n):
        a, b = pair(n)
        return square(a), square(b)

    def ints(n):
        i = np.arange(n, dtype=np.int64)
        return (i % 1000).astype(np.int32), (i % 7).astype(np.int32)

    return {
        "N1": (lambda: pair(ELEMENTS), lambda a, b: a + b, lambda r, a, b: spot(r)),
        "N2": (lambda: (formula(ELEMENTS), None), lambda a, b: a.sum(), lambda r, a, b: exact_sum_check(r, a)),
        "N3": (lambda: square_pair(ELEMENTS), lambda a, b: a.T + b, lambda r, a, b: spot(r)),
        "N4": (lambda: (formula(ELEMENTS // 10), None), lambda a, b: np.exp(a), lambda r, a, b: spot(r)),
        "N5": (lambda: square_pair(MATRIX_SIDE * MATRIX_SIDE), lambda a, b: a @ b, gemm_check),
        "N6": (lambda: ints(ELEMENTS), lambda a, b: a + b, lambda r, a, b: spot(r)),
    }


def main():
    parser = argparse.ArgumentParser(description="Runs one of the in-memory kernels N1-N6 with NumPy.")
    parser.add_argument("workload")
    parser.add_argument("--json", dest="json_path")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the median is reported (default 3)")
    args = parser.parse_args()
    table = kernels()
    if args.workload not in table:
        fail(f"unknown kernel {args.workload!r}; expected one of {', '.join(table)}")
    make, operation, check = table[args.workload]
    a, b = make()
    last = {}

    def run():
        last["result"] = operation(a, b)
        return None, True

    seconds, _, _ = timed(run, args.repeat)
    value, passed = check(last["result"], a, b)
    extra = {}
    if args.workload == "N5":
        extra["gflops"] = 2 * MATRIX_SIDE ** 3 / statistics.median(seconds) / 1e9
    return report(args.workload, "numpy", np.__version__, seconds, value, passed, args.json_path, **extra)


if __name__ == "__main__":
    raise SystemExit(main())

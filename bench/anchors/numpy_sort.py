"""The NumPy anchor of S1 (bench/WORKLOADS.md): np.sort of 2^29 uniform [0, 1) float64 (4 GiB) in memory.

    python3 bench/anchors/numpy_sort.py [--length N] [--json FILE] [--repeat R]

Tessera's S1 sorts the same number of values of the same distribution out of core, from a Zarr
store into a Zarr store, in a 1 GiB heap; NumPy holds the input and the sorted copy in memory
(8 GiB), so this is the in-memory speed Tessera's out-of-core sort is compared with. The values are
NumPy's own (default_rng(29).random): a sort's time depends on the distribution, not on the stream.
Only np.sort is timed; the check (non-decreasing, length, sum within 1e-9 of the input's) follows.
"""
import argparse

import numpy as np

from anchor_result import report, timed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=1 << 29)
    parser.add_argument("--json")
    parser.add_argument("--repeat", type=int, default=1)
    arguments = parser.parse_args()

    x = np.random.default_rng(29).random(arguments.length)
    input_sum = float(x.sum())
    holder = {}

    def run():
        holder["sorted"] = np.sort(x)
        return None, True

    seconds, _, _ = timed(run, arguments.repeat)
    y = holder.pop("sorted")
    non_decreasing = bool(np.all(y[1:] >= y[:-1]))
    total = float(y.sum())
    check = {"non_decreasing": non_decreasing, "length": int(y.size), "sum": total, "input_sum": input_sum}
    passed = non_decreasing and y.size == arguments.length and abs(total - input_sum) <= 1e-9 * abs(input_sum)
    params = {"operation": "np.sort(x) (kind quicksort, NumPy's default), in memory", "length": arguments.length,
              "bytes": arguments.length * 8, "dtype": "float64"}
    return report("S1", "numpy", np.__version__, seconds, check, passed, arguments.json, params=params)


if __name__ == "__main__":
    raise SystemExit(main())

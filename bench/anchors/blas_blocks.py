"""What BLAS alone reaches on W2's blocks: the floor under `A.T @ A` in 2000 x 2000 blocks.

    /usr/bin/python3 bench/anchors/blas_blocks.py [--side 2000] [--depths 2000 4000 8000] [--repeat 4]

W2 multiplies, for each row block of A, the blocks on and above the diagonal of A.T @ A: a general
product (gemm) off the diagonal and a symmetric one (syrk, one triangle) on it. This times both on
blocks of that side from as many threads at once as there are cores, each on one BLAS thread, as
Tessera's workers call BLAS (`./tessera bench` runs chunked workloads with OPENBLAS_NUM_THREADS=1),
and counts GFLOP/s on the multiply-adds done (half of them for syrk). Run it with Debian's
python3-numpy, which calls the same OpenBLAS as Tessera. It prints one JSON object.
"""
import argparse
import json
import os
import threading
import time

# Before NumPy loads OpenBLAS: one BLAS thread per calling thread, as Tessera's workers run it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from anchor_result import cores  # noqa: E402


def rate(side, depth, symmetric, threads, repeat):
    """Aggregate GFLOP/s of `threads` threads each running `repeat` products at once; the best of three rounds."""
    operands = [(np.random.default_rng(seed).random((depth, side)), np.random.default_rng(seed + 100).random((depth, side)))
                for seed in range(threads)]

    def work(left, right):
        for _ in range(repeat):
            if symmetric:
                left.T @ left
            else:
                left.T @ right

    best = float("inf")
    for _ in range(3):
        workers = [threading.Thread(target=work, args=pair) for pair in operands]
        start = time.perf_counter()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        best = min(best, time.perf_counter() - start)
    flops = 2.0 * side * side * depth * (0.5 if symmetric else 1.0) * threads * repeat
    return flops / best / 1e9


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--side", type=int, default=2000)
    parser.add_argument("--depths", type=int, nargs="+", default=[2000, 4000, 8000])
    parser.add_argument("--repeat", type=int, default=4)
    args = parser.parse_args()
    threads = cores()
    rates = {}
    for depth in args.depths:
        rates[str(depth)] = {"gemm": round(rate(args.side, depth, False, threads, args.repeat), 1),
                             "syrk": round(rate(args.side, depth, True, threads, args.repeat), 1)}
    # W2: 10 row blocks; one block off the diagonal (gemm) and two on it (syrk) per row block.
    gemm_flops = 10 * 2.0 * args.side ** 3
    syrk_flops = 2 * 10 * args.side ** 3
    first = rates[str(args.depths[0])]
    seconds = gemm_flops / (first["gemm"] * 1e9) + syrk_flops / (first["syrk"] * 1e9)
    print(json.dumps({"anchor": "blas_blocks", "numpy": np.__version__, "threads": threads,
                      "blas_threads": os.environ["OPENBLAS_NUM_THREADS"], "side": args.side,
                      "gflops_by_depth": rates, "w2_blas_seconds": round(seconds, 3),
                      "w2_gflops_counted": round((gemm_flops + syrk_flops) / seconds / 1e9, 1)}))


if __name__ == "__main__":
    main()

"""The anchor of bench/src/main/java/org/tessera/bench/ndarray/FftBenchmarks.java: NumPy's pocketfft on
the same transforms, per-call seconds (best of several repeats of a timed loop), printed as JSON.

    python3 bench/anchors/numpy_fft.py [--repeat R] [--json FILE]

complex128 np.fft.fft of n = 1024, 4096, 65536, 2^20, 4099 (prime), 1000; float64 np.fft.rfft of 2^20;
complex128 2-D: fft2 of 1024x1024, fft along axis 0 and axis 1 of 1024x1024, fft along axis 0 of 64x1024
(FftBenchmarks.TwoD).
Inputs are uniform in [-0.5, 0.5) as the benchmark's. The loop for each size runs for about 0.2 s,
so small transforms are timed over many calls.
"""
import argparse
import json
import time

import numpy as np

COMPLEX_SIZES = [1024, 4096, 65536, 2 ** 20, 4099, 1000]
REAL_SIZES = [2 ** 20]
TWO_D = [
    ("fft2", 1024, 1024, np.fft.fft2),
    ("fft axis=0", 1024, 1024, lambda x: np.fft.fft(x, axis=0)),
    ("fft axis=1", 1024, 1024, lambda x: np.fft.fft(x, axis=1)),
    ("fft axis=0", 64, 1024, lambda x: np.fft.fft(x, axis=0)),
]


def per_call_seconds(function, x, repeat):
    function(x)  # plan caching, first touch
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            function(x)
        if time.perf_counter() - start > 0.2:
            break
        calls *= 2
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls):
            function(x)
        best = min(best, (time.perf_counter() - start) / calls)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--json")
    options = parser.parse_args()
    rng = np.random.default_rng(42)
    results = []
    for n in COMPLEX_SIZES:
        x = (rng.random(n) - 0.5) + 1j * (rng.random(n) - 0.5)
        results.append({"op": "fft", "dtype": "complex128", "n": n, "seconds": per_call_seconds(np.fft.fft, x, options.repeat)})
    for n in REAL_SIZES:
        x = rng.random(n) - 0.5
        results.append({"op": "rfft", "dtype": "float64", "n": n, "seconds": per_call_seconds(np.fft.rfft, x, options.repeat)})
    for op, rows, columns, function in TWO_D:
        x = (rng.random((rows, columns)) - 0.5) + 1j * (rng.random((rows, columns)) - 0.5)
        results.append({"op": op, "dtype": "complex128", "shape": [rows, columns], "seconds": per_call_seconds(function, x, options.repeat)})
    output = {"impl": "numpy", "version": np.__version__, "results": results}
    text = json.dumps(output, indent=1)
    print(text)
    if options.json:
        with open(options.json, "w") as out:
            out.write(text + "\n")


if __name__ == "__main__":
    main()

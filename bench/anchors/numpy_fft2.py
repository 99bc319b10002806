"""The anchor of F1 (bench/WORKLOADS.md): NumPy's np.fft.fft2 of the same 16384 x 16384 complex128
array (4 GiB), in memory, for a side-by-side figure with Tessera's out-of-core transform.

    python3 bench/anchors/numpy_fft2.py [--side N] [--repeat R] [--json FILE]

The array is made in memory (real and imaginary parts uniform in [0, 1), a fixed seed; the values
need not match Tessera's, the checks are identities). Timed: np.fft.fft2 alone, which holds the input,
the result and pocketfft's intermediate (about 12 GiB at the peak for 4 GiB of input). Checked, after:
Parseval's identity (the energy of the result is M N times the input's) within 1e-9 relative, and
row 4321 of the result against the direct transform (the fft of the rows weighted by
exp(-2 pi i r m / M)) within 1e-9 of its largest modulus.
"""
import argparse

import numpy as np

from anchor_result import report, timed

ROW = 4321


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", type=int, default=16384)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--json", dest="json_path")
    args = parser.parse_args()
    side = args.side
    rng = np.random.default_rng(11)
    x = np.empty((side, side), dtype=np.complex128)
    x.real = rng.random((side, side))
    x.imag = rng.random((side, side))
    last = {}

    def run():
        last["result"] = None  # free the previous result before the next transform
        last["result"] = np.fft.fft2(x)
        return None, True

    seconds, _, _ = timed(run, args.repeat)
    spectrum = last["result"]
    energy = float(np.vdot(x, x).real)
    parseval = abs(float(np.vdot(spectrum, spectrum).real) - side * side * energy) / (side * side * energy)
    row = ROW % side
    weights = np.exp(-2j * np.pi * ((row * np.arange(side, dtype=np.int64)) % side) / side)
    direct = np.fft.fft(weights @ x)
    row_error = float(np.max(np.abs(spectrum[row] - direct)) / np.max(np.abs(direct)))
    passed = parseval <= 1e-9 and row_error <= 1e-9
    return report("F1", "numpy", np.__version__, seconds, [parseval, row_error], passed, args.json_path,
                  params={"operation": "np.fft.fft2 in memory", "shape": f"{side}x{side}", "dtype": "complex128",
                          "checked_row": ROW})


if __name__ == "__main__":
    raise SystemExit(main())

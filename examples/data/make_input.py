#!/usr/bin/env python3
"""Writes input.zarr, the example pipeline's input, with zarr-python (2.13, Zarr v2).

A 240 x 360 float64 field in 60 x 90 chunks and zarr-python's default compressor (Blosc lz4, byte
shuffle): a seasonal cycle along the columns plus noise whose spread grows down the rows, from a
fixed-seed generator, rounded to 1/64 so that Blosc shrinks it (the store stays small in Git).

The expected results of the pipeline, computed here by NumPy, are saved as attributes of the array:
the anomalies are x - x.mean(axis=0), and the pipeline checks the sum of their per-row standard
deviations and their sum of squares against these values, so its check is not only Tessera against itself.

Run from examples/: /usr/bin/python3 data/make_input.py  (it replaces data/input.zarr)
"""
import os
import shutil

import numpy as np
import zarr

ROWS, COLS = 240, 360
CHUNKS = (60, 90)

here = os.path.dirname(os.path.abspath(__file__))
path = os.path.join(here, "input.zarr")

rng = np.random.default_rng(20240522)
season = 15.0 + 10.0 * np.sin(2 * np.pi * np.arange(COLS) / COLS)   # one value per column
spread = np.linspace(0.5, 3.0, ROWS)[:, None]                      # noise grows with the row
x = season[None, :] + spread * rng.standard_normal((ROWS, COLS))
x = np.round(x * 64) / 64

anomalies = x - x.mean(axis=0)
row_std = anomalies.std(axis=1)

shutil.rmtree(path, ignore_errors=True)
z = zarr.open_array(path, mode="w", shape=x.shape, chunks=CHUNKS, dtype="f8")   # default compressor
z[:] = x
z.attrs["description"] = "example input of Tessera's examples/ pipeline, written by data/make_input.py"
z.attrs["expected_row_std_sum"] = float(row_std.sum())
z.attrs["expected_anomaly_sum_of_squares"] = float((anomalies ** 2).sum())
print(path, z.shape, z.chunks, z.compressor)
print("sum of row stds", float(row_std.sum()), "sum of squared anomalies", float((anomalies ** 2).sum()))

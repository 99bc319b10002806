"""The chunked workloads W1-W8 and the stored-data workloads R1-R7 of bench/WORKLOADS.md, run by
Dask's threaded scheduler on all cores: the anchor of `./tessera bench W*` and `R*`.

    /usr/bin/python3 bench/anchors/dask_workloads.py W1 [--json FILE] [--repeat R]
    /usr/bin/python3 bench/anchors/dask_workloads.py R1 --store DIR [--json FILE] [--repeat R]
    /usr/bin/python3 bench/anchors/dask_workloads.py make-store DIR
    /usr/bin/python3 bench/anchors/dask_workloads.py H1 --store FILE [--json FILE] [--repeat R]
    /usr/bin/python3 bench/anchors/dask_workloads.py make-h5 FILE

Debian's python3-dask and python3-zarr (apt-get install python3-dask python3-zarr) provide Dask and
zarr-python, python3-h5py the HDF5 workload's h5py; /usr/bin/python3 is the interpreter they are installed for. The random streams differ
from Tessera's, so each check is statistical, with a tolerance any uniform [0, 1) stream meets.
"""
import argparse
import os
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from anchor_result import cores, fail, peak_rss_bytes, report, timed

try:
    import dask
    import dask.array as da
except ImportError:
    fail("Dask is not installed for this interpreter: apt-get install python3-dask python3-zarr, then run /usr/bin/python3")

WORKLOADS = {}
STORED_SIDE, STORED_CHUNK = 16000, 2000
ONE_THIRD = 1 / 3
UNIFORM_STD = 12 ** -0.5


def workload(function):
    """Registers a workload under its function's name in upper case (w1 -> W1)."""
    WORKLOADS[function.__name__.upper()] = function
    return function


def uniform(shape, chunks, seed=0):
    return da.random.RandomState(seed).random_sample(shape, chunks=chunks)


def near(value, expected, tolerance):
    return abs(value - expected) < tolerance


def in_temporary_directory(prefix, body):
    directory = tempfile.mkdtemp(prefix=prefix)
    try:
        return body(directory)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def mean_of_3x3(block):
    """The 3 x 3 mean of a block that carries a one-cell margin on every side (map_overlap's depth 1)."""
    rows, columns = block.shape
    total = np.zeros((rows - 2, columns - 2))
    for di in range(3):
        for dj in range(3):
            total += block[di:rows - 2 + di, dj:columns - 2 + dj]
    result = np.empty_like(block)
    result[1:-1, 1:-1] = total / 9.0
    return result


def column_statistics_check(means, stds):
    value = [float(means.mean()), float(stds.mean())]
    return value, near(value[0], 0.5, 1e-3) and near(value[1], UNIFORM_STD, 1e-3)


@workload
def w1(options):
    x = uniform((20000, 20000), (2000, 2000))
    value = float((x + x.T).mean(axis=0).mean().compute())
    return value, near(value, 1.0, 1e-3)


@workload
def w2(options):
    a = uniform((20000, 4000), (2000, 2000))
    gram = (a.T @ a).compute()
    value = float(np.trace(gram)) / (20000 * 4000)
    return value, near(value, ONE_THIRD, 1e-2)


@workload
def w3(options):
    def body(directory):
        path = os.path.join(directory, "x.zarr")
        uniform((16000, 16000), (2000, 2000)).to_zarr(path)
        y = da.from_zarr(path)
        return column_statistics_check(*da.compute(y.mean(axis=0), y.std(axis=0)))
    return in_temporary_directory("w3-", body)


@workload
def w4(options):
    x = uniform((16000, 16000), (16000, 250))
    value = float(x.rechunk((250, 16000)).sum().compute()) / 16000 ** 2
    return value, near(value, 0.5, 1e-3)


@workload
def w5(options):
    x = da.ones(1_000_000, chunks=10)
    value = float((x + 1).sum().compute())
    return value, value == 2_000_000


@workload
def w6(options):
    x = uniform((10000, 10000), (1000, 1000))
    rows = np.random.default_rng(1).integers(0, 3334, size=2000)
    value = float(x[::3, 100:-100][rows].sum().compute()) / (2000 * 9800)
    return value, near(value, 0.5, 1e-2)


@workload
def w7(options):
    x = uniform((10000, 10000), (1000, 1000))
    value = float(x.cumsum(axis=0)[-1].sum().compute()) / 10000 ** 2
    return value, near(value, 0.5, 1e-3)


@workload
def w8(options):
    x = uniform((10000, 10000), (1000, 1000))
    filtered = x.map_overlap(mean_of_3x3, depth=1, boundary="reflect", dtype=np.float64)
    value = float(filtered.sum().compute()) / 10000 ** 2
    return value, near(value, 0.5, 1e-3)


def make_store(path):
    """The R workloads' input, written by zarr-python: uniform [0, 1) float64, 16000 x 16000 in
    2000 x 2000 chunks, Zarr v2 with zarr-python's default compressor (Blosc lz4, byte shuffle).
    An existing store is kept."""
    if not os.path.exists(os.path.join(path, ".zarray")):
        uniform((STORED_SIDE, STORED_SIDE), (STORED_CHUNK, STORED_CHUNK), seed=7).to_zarr(path)


def make_h5(path):
    """H1's input, written by h5py: the same array as make_store's, dataset "y" in 2000 x 2000 chunks
    with gzip (h5py's default level, 4) and byte shuffle. An existing file is kept; a new one is
    written beside its path and renamed into place, so a half-written file is never taken as whole."""
    if os.path.exists(path):
        return
    import h5py
    source = uniform((STORED_SIDE, STORED_SIDE), (STORED_CHUNK, STORED_CHUNK), seed=7)
    partial = path + ".partial"
    with h5py.File(partial, "w") as file:
        dataset = file.create_dataset("y", shape=source.shape, dtype="f8", chunks=(STORED_CHUNK, STORED_CHUNK),
                                      compression="gzip", shuffle=True)
        for row in range(0, STORED_SIDE, STORED_CHUNK):
            dataset[row:row + STORED_CHUNK] = source[row:row + STORED_CHUNK].compute()
    os.replace(partial, path)


@workload
def h1(options):
    """R1 on an HDF5 file: h5py reads each chunk (h5py holds one lock for all its calls), Dask sums."""
    import h5py
    with h5py.File(options.store, "r") as file:
        value = mean_of_stored(da.from_array(file["y"], chunks=(STORED_CHUNK, STORED_CHUNK)))
    return value, near(value, 0.5, 1e-3)


def stored(options):
    if not options.store:
        fail("the R workloads read a store: give --store DIR (written first when absent)")
    make_store(options.store)
    return da.from_zarr(options.store)


def mean_of_stored(array):
    return float(array.sum().compute()) / STORED_SIDE ** 2


@workload
def r1(options):
    value = mean_of_stored(stored(options))
    return value, near(value, 0.5, 1e-3)


@workload
def r2(options):
    y = stored(options)
    return column_statistics_check(*da.compute(y.mean(axis=0), y.std(axis=0)))


@workload
def r3(options):
    y = stored(options)
    value = float((y + y.T).mean(axis=0).mean().compute())
    return value, near(value, 1.0, 1e-3)


@workload
def r4(options):
    y = stored(options)
    rows = np.random.default_rng(1).integers(0, 5334, size=2000)
    value = float(y[::3, 100:-100][rows].sum().compute()) / (2000 * 15800)
    return value, near(value, 0.5, 1e-2)


@workload
def r5(options):
    y = stored(options)
    value = float(y.cumsum(axis=0)[-1].sum().compute()) / STORED_SIDE ** 2
    return value, near(value, 0.5, 1e-3)


@workload
def r6(options):
    value = mean_of_stored(stored(options).map_overlap(mean_of_3x3, depth=1, boundary="reflect", dtype=np.float64))
    return value, near(value, 0.5, 1e-3)


@workload
def r7(options):
    def body(directory):
        path = os.path.join(directory, "rechunked.zarr")
        stored(options).rechunk((250, STORED_SIDE)).to_zarr(path)
        result = da.from_zarr(path)
        chunked_right = result.chunksize == (250, STORED_SIDE)
        value = mean_of_stored(result)
        return value, chunked_right and near(value, 0.5, 1e-3)
    return in_temporary_directory("r7-", body)


def chunk_files(path):
    """The chunk files of the Zarr v2 array at path (flat or nested keys): every file but the metadata."""
    return [os.path.join(folder, name) for folder, _, names in os.walk(path) for name in names if not name.startswith(".")]


def on_all_cores(task, items):
    """Seconds to run task on every item on a pool of one thread per core, as Dask's threaded scheduler runs tasks."""
    start = time.perf_counter()
    with ThreadPoolExecutor(cores()) as pool:
        for _ in pool.map(task, items):
            pass
    return time.perf_counter() - start


def decode_floor(path):
    """Seconds to read and decode every chunk of the Zarr array at path on all cores with zarr's own
    codec and nothing else: the least any computation that reads the whole array can take here,
    measured by the Python tools (Tessera's JSON has its own, floor_seconds)."""
    import zarr
    array = zarr.open(path, mode="r")

    def decode(file):
        with open(file, "rb") as stored:
            encoded = stored.read()
        out = np.empty(array.chunks, dtype=array.dtype)
        array.compressor.decode(encoded, out)
    return on_all_cores(decode, chunk_files(path))


def encode_floor(shape, count, directory):
    """Seconds to encode count chunks of uniform [0, 1) float64 of the given shape with zarr's default
    compressor and write each to a new file in directory, on all cores, nothing else: the least a
    workload that stores as much takes here. The chunks are made before the clock starts (one per
    core, each encoded in turn), and the files are written just after the workload freed its own,
    so the pages they take are the cheapest the machine has."""
    import zarr
    codec = zarr.storage.default_compressor
    chunks = [np.random.default_rng(seed).random(shape) for seed in range(cores())]

    def encode(number):
        with open(os.path.join(directory, str(number)), "wb") as written:
            written.write(codec.encode(chunks[number % len(chunks)]))
    return on_all_cores(encode, range(count))


# What the writing workloads store: W3 its 16000 x 16000 array in 2000 x 2000 chunks, R7 the same array in 250 x 16000.
STORED_CHUNKS = {"W3": (STORED_CHUNK, STORED_CHUNK), "R7": (250, STORED_SIDE)}


def floors(workload, store):
    """The floors of a workload that reads the store (R*: floor_seconds) or writes one (W3, R7:
    encode_floor_seconds), measured after its timed runs."""
    measured = {}
    if workload.startswith("R"):
        measured["floor_seconds"] = decode_floor(store)
    if workload in STORED_CHUNKS:
        shape = STORED_CHUNKS[workload]
        count = STORED_SIDE ** 2 // (shape[0] * shape[1])
        measured["encode_floor_seconds"] = in_temporary_directory("floor-", lambda directory: encode_floor(shape, count, directory))
    return measured


def main():
    parser = argparse.ArgumentParser(description="Runs one chunked workload with Dask's threaded scheduler.")
    parser.add_argument("workload", help="W1..W8, R1..R7, H1, make-store or make-h5")
    parser.add_argument("directory", nargs="?", help="make-store, make-h5: where to write the store or file")
    parser.add_argument("--json", dest="json_path")
    parser.add_argument("--repeat", type=int, default=1, help="timed runs; the median is reported (default 1)")
    parser.add_argument("--store", help="R workloads: the Zarr v2 store to read; H1: the HDF5 file (written first when absent)")
    options = parser.parse_args()
    if options.workload == "make-store":
        if not options.directory:
            fail("make-store needs the directory to write")
        make_store(options.directory)
        return 0
    if options.workload == "make-h5":
        if not options.directory:
            fail("make-h5 needs the file to write")
        make_h5(options.directory)
        return 0
    if options.workload not in WORKLOADS:
        fail(f"unknown workload {options.workload!r}; expected one of {', '.join(WORKLOADS)} or make-store")
    dask.config.set(scheduler="threads")
    if options.workload.startswith("R"):
        make_store(options.store or fail("the R workloads read a store: give --store DIR"))
    if options.workload == "H1":
        make_h5(options.store or fail("H1 reads an HDF5 file: give --store FILE"))
    seconds, value, passed = timed(lambda: WORKLOADS[options.workload](options), options.repeat)
    peak = peak_rss_bytes()  # before the floors, which hold chunks of their own
    return report(options.workload, "dask", dask.__version__, seconds, value, passed, options.json_path, peak=peak,
                  params={"threads": cores(), "store": options.store}, **floors(options.workload, options.store))


if __name__ == "__main__":
    raise SystemExit(main())

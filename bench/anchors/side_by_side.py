"""Runs workloads of bench/WORKLOADS.md with Tessera and with their anchor, side by side, and
tabulates the two: the way the README's performance tables are measured.

    python3 bench/anchors/side_by_side.py [--rounds N] [--levels native,avx2] [--settle S]
        [--store DIR] [--h5 FILE] [--out DIR] W1 W2 ... R1 ... N1 ...

Each workload runs in a process of its own, one after another, never two at once. On a virtual
machine the host may take back memory the guest freed, and a process then pays for every page it
touches first (measured on the 2-core VMs here: 1.7 GB of new pages took 3.4-6.7 s after half a
minute idle, 0.3 s just after another process freed them). Whoever runs second inherits the pages
the first one freed, so the order of the two sides alternates from round to round, `sync` comes
before every run (no run starts with another's unwritten pages), and `--settle S` waits S seconds
after it, so that each run starts from the same idle memory. The page cache behaves alike: the
first process to read a store after other work pays for its pages again (R1 on the AMD VM: 1.9-2.9
s for whichever side read first, 0.75-1.1 s for the other), so before each R or H1 run
the store or file is read through once, and both sides read it from a warm page cache, as
WORKLOADS.md has it.

Results carry floors measured after their timed runs: Tessera's R and H1 its reading and decoding
of every chunk, the anchor's R the same with zarr's codec, the anchor's W3 and R7 encoding and
writing as many bytes as they store; a second table lists them round by round.

Tessera runs through `./tessera bench` with the launcher's one JVM configuration; a level "avx2"
adds `-XX:UseAVX=2` to TESSERA_JVM_OPTS, which holds HotSpot to AVX2 on an AVX-512 CPU (on a CPU
without AVX-512 it is the machine's own level, so measure only "native" there). The anchor is
Dask's threaded scheduler (dask_workloads.py, run by --dask-python, Debian's python3 with Dask) for
W, R and H1, and NumPy (numpy_kernels.py, run by --numpy-python) for N.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def tessera_command(workload, options, json_path):
    command = [os.path.join(ROOT, "tessera"), "bench", workload, "--json", json_path]
    if workload.startswith("R") and options.store:
        command += ["--store", options.store]
    if workload == "H1":
        command += ["--store", options.h5]
    return command


def anchor_command(workload, options, json_path):
    if workload.startswith("N"):
        return [options.numpy_python, os.path.join(HERE, "numpy_kernels.py"), workload, "--json", json_path]
    command = [options.dask_python, os.path.join(HERE, "dask_workloads.py"), workload, "--json", json_path]
    if workload.startswith("R"):
        command += ["--store", options.store]
    if workload == "H1":
        command += ["--store", options.h5]
    return command


def read_through(path):
    """Reads every file at path (a file or a directory tree) and drops the bytes: its pages are then fresh in the page cache."""
    files = [path] if os.path.isfile(path) else [os.path.join(folder, name) for folder, _, names in os.walk(path) for name in names]
    for name in files:
        with open(name, "rb") as stored:
            while stored.read(1 << 20):
                pass


def run_one(command, json_path, environment, settle, inputs):
    """One run in a process of its own; its JSON result, or a record of why there is none."""
    if os.path.exists(json_path):
        os.remove(json_path)
    subprocess.run(["sync"], check=False)
    if settle > 0:
        time.sleep(settle)
    if inputs:
        read_through(inputs)
    finished = subprocess.run(command, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        with open(json_path) as result:
            return json.load(result)
    except (OSError, ValueError):
        return {"error": f"exit {finished.returncode}: {finished.stderr.strip()[-400:]}"}


def seconds_of(result):
    return result.get("seconds") if "error" not in result else None


def megabytes(result):
    return round(result.get("peak_rss_bytes", 0) / 1e6)


def describe(results, workload):
    """First / second / ... seconds of each round, and the range of peak memory."""
    times = " / ".join(f"{r['seconds']:.3f}" if seconds_of(r) is not None else "failed" for r in results)
    sizes = [megabytes(r) for r in results if seconds_of(r) is not None]
    memory = "" if not sizes else (f", {min(sizes)} MB" if min(sizes) == max(sizes) else f", {min(sizes)}-{max(sizes)} MB")
    extra = ""
    if workload == "N5":
        extra = " (" + " / ".join(f"{r['gflops']:.1f}" for r in results if "gflops" in r) + " GFLOP/s)"
    return f"{times} s{memory}{extra}"


FLOORS = (("tessera", "floor_seconds", "Tessera: read and decode"), ("tessera", "floor_slab_seconds", "Tessera: in slabs"),
          ("anchor", "floor_seconds", "Python tools: read and decode"), ("anchor", "encode_floor_seconds", "Python tools: encode and write"))


def floor_table(results, workloads, levels):
    """The floors the runs measured after their timed part (bench/WORKLOADS.md), round by round: what
    no implementation of a workload that reads (R) or writes (W3, R7) the whole store goes below here."""
    rows = []
    for workload in workloads:
        cells = []
        for side, field, _ in FLOORS:
            runs = results[(workload, side, levels[0] if side == "tessera" else None)]
            values = [r[field] for r in runs if field in r]
            cells.append(" / ".join(f"{value:.3f}" for value in values) + " s" if values else "-")
        if any(cell != "-" for cell in cells):
            rows.append(f"| {workload} | " + " | ".join(cells) + " |")
    if rows:
        print()
        print("| workload | " + " | ".join(title for _, _, title in FLOORS) + " |")
        print("|" + "---|" * (len(FLOORS) + 1))
        print("\n".join(rows))


def median_seconds(results):
    values = [seconds_of(r) for r in results if seconds_of(r) is not None]
    return statistics.median(values) if values else None


def main():
    parser = argparse.ArgumentParser(description="Runs workloads with Tessera and with their anchor, side by side.")
    parser.add_argument("workloads", nargs="+", help="W1..W8, R1..R7, H1, N1..N6")
    parser.add_argument("--rounds", type=int, default=2, help="rounds; the order of the two sides alternates (default 2)")
    parser.add_argument("--levels", default="native", help="Tessera's SIMD levels, comma-separated: native, avx2 (default native)")
    parser.add_argument("--settle", type=float, default=0, help="seconds to wait before each run, after sync (default 0)")
    parser.add_argument("--no-read-inputs", dest="read_inputs", action="store_false",
                        help="do not read the store (R) or file (H1) through before each run")
    parser.add_argument("--store", help="the Zarr v2 store the R workloads read (dask_workloads.py make-store DIR)")
    parser.add_argument("--h5", help="the HDF5 file H1 reads (dask_workloads.py make-h5 FILE)")
    parser.add_argument("--out", default=os.path.join(ROOT, "target", "side-by-side"),
                        help="where each run's JSON goes (default target/side-by-side/)")
    parser.add_argument("--dask-python", default="/usr/bin/python3", help="the Python that has Dask (default /usr/bin/python3)")
    parser.add_argument("--numpy-python", default="python3", help="the Python whose NumPy anchors N (default python3)")
    options = parser.parse_args()
    levels = options.levels.split(",")
    for level in levels:
        if level not in ("native", "avx2"):
            parser.error(f"unknown level {level!r}; expected native or avx2")
    if any(w.startswith("R") for w in options.workloads) and not options.store:
        parser.error("the R workloads read a store: give --store DIR")
    if "H1" in options.workloads and not options.h5:
        parser.error("H1 reads an HDF5 file: give --h5 FILE")
    os.makedirs(options.out, exist_ok=True)

    results = {}
    for round_number in range(options.rounds):
        for workload in options.workloads:
            sides = [("tessera", level) for level in levels] + [("anchor", None)]
            if round_number % 2 == 1:
                sides.reverse()
            for side, level in sides:
                name = f"{workload}-{side}{'-' + level if level else ''}-{round_number + 1}"
                json_path = os.path.abspath(os.path.join(options.out, name + ".json"))
                environment = dict(os.environ)
                if side == "tessera":
                    command = tessera_command(workload, options, json_path)
                    if level == "avx2":
                        environment["TESSERA_JVM_OPTS"] = (environment.get("TESSERA_JVM_OPTS", "") + " -XX:UseAVX=2").strip()
                else:
                    command = anchor_command(workload, options, json_path)
                inputs = None
                if options.read_inputs and workload.startswith("R"):
                    inputs = options.store
                elif options.read_inputs and workload == "H1":
                    inputs = options.h5
                result = run_one(command, json_path, environment, options.settle, inputs)
                results.setdefault((workload, side, level), []).append(result)
                shown = f"{result['seconds']:.3f} s, {megabytes(result)} MB" if seconds_of(result) is not None else result["error"]
                print(f"round {round_number + 1} {workload} {side}{' ' + level if level else ''}: {shown}", flush=True)

    print()
    header = "| workload | " + " | ".join(f"Tessera, {level}" for level in levels) + " | anchor | speed-up " + " / ".join(levels) + " |"
    print(header)
    print("|" + "---|" * (len(levels) + 3))
    for workload in options.workloads:
        anchor = results[(workload, "anchor", None)]
        cells = [describe(results[(workload, "tessera", level)], workload) for level in levels]
        ratios = []
        for level in levels:
            ours, theirs = median_seconds(results[(workload, "tessera", level)]), median_seconds(anchor)
            ratios.append(f"{theirs / ours:.2f}" if ours and theirs else "-")
        print(f"| {workload} | " + " | ".join(cells) + f" | {describe(anchor, workload)} | " + " / ".join(ratios) + " |")
    floor_table(results, options.workloads, levels)
    return 0


if __name__ == "__main__":
    sys.exit(main())

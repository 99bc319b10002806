"""What the two anchor scripts share: timing a workload, measuring the process, writing its JSON.

The JSON object has the fields of bench/WORKLOADS.md ("Output"), so a Tessera result and an anchor
result of the same workload can be compared field by field.
"""
import json
import os
import resource
import statistics
import sys
import time


def cores():
    """The cores this process may run on: its CPU affinity (under taskset or a container's cpuset, fewer
    than the machine has), as Dask's threaded scheduler counts them where psutil is installed."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


def peak_rss_bytes():
    # ru_maxrss is in KiB on Linux: the peak resident set of this process since it started.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def timed(run, repeats):
    """Runs `run` `repeats` times; returns (seconds of each run, the last check value, every check ok)."""
    seconds, value, passed = [], None, True
    for _ in range(repeats):
        start = time.perf_counter()
        value, ok = run()
        seconds.append(time.perf_counter() - start)
        passed = passed and bool(ok)
    return seconds, value, passed


def report(workload, impl, version, seconds, value, passed, json_path, peak=None, **extra):
    """Prints the result as one line of JSON and, given a path, writes it there too; peak, where
    given, is the peak resident set taken before work that the workload's own peak should not count."""
    result = {
        "workload": workload,
        "impl": impl,
        "version": version,
        "seconds": statistics.median(seconds),
        "runs": seconds,
        "peak_rss_bytes": peak if peak is not None else peak_rss_bytes(),
        "check": value,
        "check_ok": passed,
    }
    result.update(extra)
    line = json.dumps(result)
    print(line)
    if json_path:
        with open(json_path, "w") as out:
            out.write(line + "\n")
    return 0 if passed else 1


def fail(message):
    print(f"{sys.argv[0]}: {message}", file=sys.stderr)
    sys.exit(2)

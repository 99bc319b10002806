"""Computations whose memory blows up in Dask (issue: memory you can see before anything runs), run
by Dask's threaded scheduler on all cores, each in a fresh process so that its peak resident memory
(ru_maxrss) is its own. The figures are the anchor of Tessera's BlowUpsWithinBudgetTest, which runs
the same computations within a quarter of Dask's peak.

    /usr/bin/python3 bench/anchors/dask_memory.py [M1 M2 M3]

M1  a rechunk that crosses every chunk: 8000 x 8000 float64 from (8000, 100) to (100, 8000), summed
M2  A.T @ A with 100 row blocks: A 50,000 x 1,000 float64 in (500, 500)
M3  x - x.mean(0) over a tall array, summed along rows: x 200,000 x 500 float64 in (5000, 500)
"""
import json
import resource
import subprocess
import sys

CASES = {
    "M1": "da.random.random((8000, 8000), chunks=(8000, 100)).rechunk((100, 8000)).sum()",
    "M2": "(lambda a: a.T @ a)(da.random.random((50000, 1000), chunks=(500, 500)))",
    "M3": "(lambda x: (x - x.mean(0)).sum(1))(da.random.random((200000, 500), chunks=(5000, 500)))",
}


def run(name):
    import dask
    import dask.array as da
    import numpy as np  # noqa: F401  (imported before the baseline, as the computation needs it)
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    value = eval(CASES[name], {"da": da})
    result = value.compute(scheduler="threads")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"case": name, "expression": CASES[name], "dask": dask.__version__, "peak_rss_bytes": peak,
                      "baseline_rss_bytes": baseline, "peak_above_baseline_bytes": peak - baseline,
                      "result_bytes": int(getattr(result, "nbytes", 8))}))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        run(sys.argv[2])
    else:
        for case in sys.argv[1:] or list(CASES):
            subprocess.run([sys.executable, __file__, "--one", case], check=True)

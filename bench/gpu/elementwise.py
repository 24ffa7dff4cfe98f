#!/usr/bin/env python3
"""elementwise.py - the @vectorize row of the GPU benchmarks (elementwise.sh).

  elementwise.py numba [-n N] [-w W]
      float32 a + b on 2^26 elements with Numba's
      @vectorize(['float32(float32, float32)'], target='cuda')
      (bench/gpu/kernels/vectorize_add.py) on device arrays, out= given:
      events around each call, queued behind a gate kernel (median of N),
      and N calls back to back over wall time (median of 5 batches).
  elementwise.py report LOG
      the markdown table from the EW lines of the programs: GB/s (bytes
      read + written over the time) and % of the device-to-device copy of
      the same bytes, for each implementation and method.

Lines: EW impl=NAME method=event|wall ms=M bytes=B n=N checksum=C
"""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROWS = [  # impl, label
    ("copy", "cudaMemcpy device to device, 384 MB (the reference)"),
    ("nvcc_full", "CUDA C, one float4 per thread, full grid (kjit's scheme)"),
    ("nvcc_stride2", "CUDA C, grid-stride loop, 2 waves of blocks (kjit before)"),
    ("kjit", "kjit `@vectorize`, `kjit_ufunc_call` on device arrays"),
    ("numba", "Numba `@vectorize(..., target='cuda')` on device arrays"),
]
TARGET = 0.95       # of the copy's bandwidth


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def numba_main(n_timed, n_warm):
    import importlib.util
    import numpy
    numpy.row_stack = numpy.vstack  # required by the Numba build on the GPU machine
    import numpy as np
    from numba import cuda
    sys.path.insert(0, HERE)
    import numba_bench as nb        # inputs, checksum and gate of the other rows

    spec = importlib.util.spec_from_file_location(
        "vectorize_add", os.path.join(HERE, "kernels", "vectorize_add.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    n = 1 << 26
    a = cuda.to_device(nb.fill_f32(n, 1, 0.0, 1.0))
    b = cuda.to_device(nb.fill_f32(n, 2, 0.0, 1.0))
    out = cuda.device_array(n, np.float32)
    mod.add(a, b, out=out)
    cuda.synchronize()
    cs = nb.checksum(out.copy_to_host())[0]
    for _ in range(n_warm):
        mod.add(a, b, out=out)
    cuda.synchronize()
    gate = nb.Gate()
    starts = [cuda.event(timing=True) for _ in range(n_timed)]
    stops = [cuda.event(timing=True) for _ in range(n_timed)]
    gate()
    for i in range(n_timed):
        starts[i].record()
        mod.add(a, b, out=out)
        stops[i].record()
    cuda.synchronize()
    ms = median([cuda.event_elapsed_time(s, e) for s, e in zip(starts, stops)])
    line = "EW impl=numba method=%s ms=%.6f bytes=%d n=%d checksum=%.17g"
    print(line % ("event", ms, 12 * n, n_timed, cs), flush=True)
    batches = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n_timed):
            mod.add(a, b, out=out)
        cuda.synchronize()
        batches.append((time.perf_counter() - t0) * 1e3 / n_timed)
    print(line % ("wall", median(batches), 12 * n, n_timed, cs), flush=True)


def parse(path):
    rows = {}
    with open(path, errors="replace") as f:
        for line in f:
            parts = line.split()
            if not parts or parts[0] != "EW":
                continue
            d = dict(p.split("=", 1) for p in parts[1:] if "=" in p)
            rows[(d.get("impl"), d.get("method"))] = d
    return rows


def report(path):
    rows = parse(path)

    def gbs(impl, method):
        d = rows.get((impl, method))
        try:
            return float(d["bytes"]) / float(d["ms"]) / 1e6, float(d["ms"])
        except (TypeError, KeyError, ValueError, ZeroDivisionError):
            return None, None

    out = ["### Elementwise `@vectorize`: float32 a + b, 2^26 elements (768 MB moved)", "",
           "| implementation | events: ms | GB/s | % of copy | back to back: ms | GB/s | % of copy | checksum |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    copy = {m: gbs("copy", m)[0] for m in ("event", "wall")}
    sums = set()
    for impl, label in ROWS:
        cells = [label]
        for m in ("event", "wall"):
            g, ms = gbs(impl, m)
            pct = None if g is None or not copy[m] else 100.0 * g / copy[m]
            cells += ["—" if ms is None else "%.4f" % ms, "—" if g is None else "%.0f" % g,
                      "—" if pct is None else "%.1f%%" % pct]
        d = rows.get((impl, "event")) or rows.get((impl, "wall")) or {}
        cs = d.get("checksum")
        if impl != "copy" and cs:
            sums.add("%.9g" % float(cs))
        cells.append("—" if impl == "copy" or not cs else "%.9g" % float(cs))
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    g, _ = gbs("kjit", "wall")
    if g is not None and copy["wall"]:
        pct = g / copy["wall"]
        out.append("kjit: %.1f%% of the copy, back to back (target %d%%): %s. Checksums %s." % (
            100 * pct, 100 * TARGET, "met" if pct >= TARGET else "MISSED",
            "agree" if len(sums) == 1 else "DIFFER: " + ", ".join(sorted(sums))))
    else:
        out.append("kjit: no measurement (see the log).")
    print("\n".join(out))


def main(argv):
    if len(argv) >= 2 and argv[1] == "report" and len(argv) == 3:
        return report(argv[2])
    if len(argv) >= 2 and argv[1] == "numba":
        n, w = 50, 5
        rest = argv[2:]
        for i in range(0, len(rest) - 1, 2):
            if rest[i] == "-n":
                n = int(rest[i + 1])
            elif rest[i] == "-w":
                w = int(rest[i + 1])
        return numba_main(max(n, 1), max(w, 0))
    sys.stderr.write("usage: elementwise.py numba [-n N] [-w W] | report LOG\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv) or 0)

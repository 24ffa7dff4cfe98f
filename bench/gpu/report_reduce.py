#!/usr/bin/env python3
"""report_reduce.py LOG - the markdown section of bench/gpu/run_reduce.sh.

LOG holds REDUCE / ERROR lines of cuda_reduce (nvcc and kjit-ptx),
kjit_bench_reduce and numba_bench_reduce.py.  Read bandwidth = bytes read
(2^26 float32) / time.  Standard library only.
"""
import sys

T_NVCC = 1.03    # kjit <= 1.03 x nvcc
REL_TOL = 1e-4   # the sums agree (each adds in its own order)


def parse(path):
    rows, errors = {}, []
    with open(path, errors="replace") as f:
        for line in f:
            parts = line.split()
            if parts and parts[0] == "ERROR":
                errors.append(line.strip())
            if not parts or parts[0] != "REDUCE":
                continue
            d = dict(p.split("=", 1) for p in parts[1:] if "=" in p)
            rows[d.get("impl")] = d
    return rows, errors


def num(d, k):
    try:
        return float(d[k])
    except (KeyError, TypeError, ValueError):
        return None


def gbs(d, k):
    t, b = num(d, k), num(d, "bytes")
    return None if t is None or b is None or t <= 0 else b / (t * 1e-3) / 1e9


def fmt(v, nd=3):
    return "—" if v is None else "%.*f" % (nd, v)


def main():
    rows, errors = parse(sys.argv[1])
    out = ["## @cuda.reduce: float32 sum of 2^26 elements (256 MiB read)", "",
           "call: one whole reduction as a user calls it (launches + the value copied to the host), "
           "median wall time; GPU: the two kernels alone, median of CUDA-event times.", "",
           "| implementation | call ms | call GB/s | GPU ms | GPU GB/s | value |",
           "| --- | ---: | ---: | ---: | ---: | ---: |"]
    names = [("nvcc", "CUDA C (nvcc -O3), same algorithm"), ("kjit", "kjit_reduce (C API)"),
             ("kjit-ptx", "kjit's generated kernels, timed alone"), ("numba", "Numba @cuda.reduce"),
             ("nvcc-vec4", "CUDA C with 16-byte loads (reference)")]
    for key, label in names:
        d = rows.get(key, {})
        out.append("| %s | %s | %s | %s | %s | %s |" % (
            label, fmt(num(d, "call_ms")), fmt(gbs(d, "call_ms"), 0), fmt(num(d, "gpu_ms")),
            fmt(gbs(d, "gpu_ms"), 0), d.get("value", "—")))
    out.append("")
    nv, kp, kc, nb = (rows.get(k, {}) for k in ("nvcc", "kjit-ptx", "kjit", "numba"))
    r_gpu = (num(kp, "gpu_ms") or 0) / num(nv, "gpu_ms") if num(nv, "gpu_ms") else None
    r_call = (num(kc, "call_ms") or 0) / num(nb, "call_ms") if num(nb, "call_ms") else None
    out.append("- kjit kernels / nvcc kernels: %s (target ≤ %.2f)%s" % (
        fmt(r_gpu), T_NVCC, "" if r_gpu is None or r_gpu <= T_NVCC else " **MISS**"))
    out.append("- kjit_reduce call / Numba call: %s (target ≤ 1.00)%s" % (
        fmt(r_call), "" if r_call is None or r_call <= 1.0 else " **MISS**"))
    vals = [num(rows.get(k, {}), "value") for k in ("nvcc", "kjit", "kjit-ptx", "numba")]
    vals = [v for v in vals if v is not None]
    agree = all(abs(v - vals[0]) <= REL_TOL * abs(vals[0]) for v in vals) if vals else True
    out.append("- values agree within %.0e: %s" % (REL_TOL, "yes" if agree else "**NO**"))
    for e in errors:
        out.append("- error: `%s`" % e)
    print("\n".join(out))


if __name__ == "__main__":
    main()

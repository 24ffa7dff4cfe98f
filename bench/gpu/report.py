#!/usr/bin/env python3
"""report.py LOG [HEADER] [--table-only] - the markdown tables of bench/gpu/run.sh
(--table-only: the header and the kernel-time table alone, for docs/benchmarks-gpu.md).

LOG holds the lines printed by the CUDA C programs, numba_bench.py,
kjit_bench and raw_launch (RESULT / OVERHEAD / COMPILE / INFO / ERROR lines;
anything else is ignored).  HEADER is a file whose text goes first.
Standard library only.
"""
import sys

KERNELS = ["vector_add", "saxpy", "matmul", "reduce", "stencil", "histogram",
           "mandelbrot", "black_scholes", "transpose", "nbody", "conv2d", "softmax",
           "scan", "monte_carlo"]
IMPLS = ["nvcc", "numba", "kjit"]
REL_TOL = 1e-3      # checksum agreement (float atomics reorder the reduce)
# ... or a difference within two float32 ulps of the checksum's mass (the same
# weighted sum over |out|): the bound when every element differs by at most two
# ulps of rounding (FMA contraction or not), which a relative test cannot see on
# a checksum that cancels (cplx_mul_add_c64: -22.3 out of a mass of 1.7e7)
MASS_TOL = 2 * 2.0 ** -23
T_NVCC = 1.03       # kjit <= 1.03 x nvcc
T_NUMBA = 1.0       # kjit <= 1.0 x Numba
T_OVERHEAD_US = 0.3 # kjit launch <= raw cuLaunchKernel + 0.3 us
T_COLD_MS = 15.0
T_WARM_MS = 1.0


def parse(path):
    rows = []
    with open(path, errors="replace") as f:
        for line in f:
            parts = line.split()
            if not parts or parts[0] not in ("RESULT", "OVERHEAD", "COMPILE", "INFO", "ERROR"):
                continue
            d = {"_kind": parts[0], "_line": line.rstrip("\n")}
            for p in parts[1:]:
                if "=" in p:
                    k, v = p.split("=", 1)
                    d.setdefault(k, v)
            rows.append(d)
    return rows


def fnum(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def fmt(v, nd=3):
    return "—" if v is None else ("%.*f" % (nd, v))


def ratio(a, b):
    return None if a is None or b is None or b <= 0 else a / b


def close(a, b, mass=None):
    if a is None or b is None:
        return True
    if mass is not None and abs(a - b) <= MASS_TOL * mass:
        return True
    return abs(a - b) <= REL_TOL * max(abs(a), abs(b), 1e-30)


def main():
    table_only = "--table-only" in sys.argv
    if table_only:
        sys.argv.remove("--table-only")
    rows = parse(sys.argv[1])
    out = []
    if len(sys.argv) > 2:
        with open(sys.argv[2]) as f:
            out.append(f.read().rstrip("\n"))
        out.append("")

    res = {}
    for r in rows:
        if r["_kind"] == "RESULT":
            res[(r.get("impl"), r.get("kernel"))] = r
    out.append("## Kernel time (median of the timed launches, ms; lower is better)")
    out.append("")
    out.append("| kernel | nvcc ms | Numba ms | kjit ms | kjit/nvcc | kjit/Numba | targets (≤ %.2f× nvcc, ≤ %.2f× Numba) | checksums |"
               % (T_NVCC, T_NUMBA))
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    notes = []
    # the built-in kernels first, then the "# BENCH" rows in the order they ran;
    # a built-in kernel that did not run is left out when rows were selected
    extra = []
    for r in rows:
        if r["_kind"] == "RESULT" and r.get("kernel") not in KERNELS + extra:
            extra.append(r.get("kernel"))
    ran = set(k for (_i, k) in res)
    order = [k for k in KERNELS if k in ran or not extra] + extra
    for k in order:
        t = {i: fnum(res.get((i, k), {}).get("median_ms")) for i in IMPLS}
        c = {i: fnum(res.get((i, k), {}).get("checksum")) for i in IMPLS}
        rn, rb = ratio(t["kjit"], t["nvcc"]), ratio(t["kjit"], t["numba"])
        verdict = []
        if rn is not None:
            verdict.append("nvcc ok" if rn <= T_NVCC else "nvcc MISS: +%.1f%% (target +%.0f%%)" % ((rn - 1) * 100, (T_NVCC - 1) * 100))
        if rb is not None:
            verdict.append("Numba ok" if rb <= T_NUMBA else "Numba MISS: +%.1f%%" % ((rb - 1) * 100))
        m = [fnum(res.get((i, k), {}).get("mass")) for i in IMPLS]
        mass = max([v for v in m if v is not None], default=None)
        present = [i for i in IMPLS if c[i] is not None]
        bad = [(a, b) for ai, a in enumerate(present) for b in present[ai + 1:]
               if not close(c[a], c[b], mass)]
        if len(present) < 2:
            cs = "—"
        elif bad:
            cs = "**MISMATCH** " + ", ".join("%s≠%s" % p for p in bad)
            notes.append("%s checksums: %s" % (k, ", ".join("%s=%.10g" % (i, c[i]) for i in present)))
        else:
            cs = "agree"
        mode = res.get(("kjit", k), {}).get("mode")
        if mode and mode != "repeat":
            notes.append("%s: kjit timed in mode=%s (see kjit_bench.c)" % (k, mode))
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            k, fmt(t["nvcc"]), fmt(t["numba"]), fmt(t["kjit"]), fmt(rn, 2), fmt(rb, 2),
            "; ".join(verdict) or "—", cs))
    out.append("")
    if table_only:
        print("\n".join(out))
        return

    ov = {}
    for r in rows:
        if r["_kind"] == "OVERHEAD":
            ov[(r.get("impl"), r.get("args"))] = r
    out.append("## Launch overhead (1 block of 32 threads, back-to-back launches, µs per launch)")
    out.append("")
    out.append("| array args | raw cuLaunchKernel | kjit C API | kjit − raw | target (≤ raw + %.1f µs) | Numba |" % T_OVERHEAD_US)
    out.append("| ---: | ---: | ---: | ---: | --- | ---: |")
    for a in ("1", "4"):
        raw = fnum(ov.get(("raw", a), {}).get("us_per_launch"))
        kj = fnum(ov.get(("kjit", a), {}).get("us_per_launch"))
        nb = fnum(ov.get(("numba", a), {}).get("us_per_launch"))
        diff = None if raw is None or kj is None else kj - raw
        verdict = "—" if diff is None else ("ok" if diff <= T_OVERHEAD_US else
                                             "MISS by %.2f µs" % (diff - T_OVERHEAD_US))
        mode = ov.get(("kjit", a), {}).get("mode")
        if mode and mode != "device-arrays":
            verdict += " (kjit mode=%s)" % mode
        out.append("| %s | %s | %s | %s | %s | %s |" % (a, fmt(raw, 2), fmt(kj, 2), fmt(diff, 2),
                                                       verdict, fmt(nb, 2)))
    out.append("")

    comp = {}
    for r in rows:
        if r["_kind"] == "COMPILE":
            comp[(r.get("impl"), r.get("what"))] = fnum(r.get("ms"))
    out.append("## Compile latency (vector add, ms)")
    out.append("")
    out.append("| measurement | ms | target |")
    out.append("| --- | ---: | --- |")

    def crow(label, key, target=None):
        v = comp.get(key)
        if v is None and target is None:
            return
        tv = "—"
        if target is not None and v is not None:
            tv = ("≤ %g: ok" % target) if v <= target else ("≤ %g: MISS by %.1f ms" % (target, v - target))
        elif target is not None:
            tv = "≤ %g" % target
        out.append("| %s | %s | %s |" % (label, fmt(v, 2), tv))
    crow("kjit cold: program load + source → cubin → loaded (fresh cache dir, driver started)",
         ("kjit", "cold_vector_add"), T_COLD_MS)
    crow("kjit cold: compile part of the first launch only", ("kjit", "cold_vector_add_launch_compile_only"))
    crow("kjit warm: program load + disk-cache hit → kernel ready", ("kjit", "warm_vector_add"), T_WARM_MS)
    crow("kjit warm: compile part of the first launch only", ("kjit", "warm_vector_add_launch_compile_only"))
    crow("Numba cuda.compile_ptx (median of 6 after the first)", ("numba", "compile_ptx_vector_add"))
    crow("Numba cuda.compile_ptx, first call", ("numba", "compile_ptx_vector_add_first"))
    crow("Numba first kernel of the process (import with eager signature)", ("numba", "first_kernel_import"))
    crow("driver PTX JIT of the tiny kernels (cuModuleLoadData, first in process)",
         ("raw", "driver_ptx_jit_tiny"))
    out.append("")

    errors = [r["_line"] for r in rows if r["_kind"] == "ERROR"]
    info = []
    for r in rows:
        if r["_kind"] == "INFO" and r["_line"] not in info:
            info.append(r["_line"])
    if notes or errors:
        out.append("## Notes and errors")
        out.append("")
        for n in notes:
            out.append("- " + n)
        for e in errors:
            out.append("- `" + e.replace("`", "'") + "`")
        out.append("")
    if info:
        out.append("Versions: " + "; ".join("`%s`" % i.replace("INFO ", "") for i in info))
        out.append("")
    print("\n".join(out))


if __name__ == "__main__":
    main()

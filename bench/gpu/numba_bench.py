#!/usr/bin/env python3
"""numba_bench.py - the GPU benchmark kernels (bench/gpu/kernels/*.py) under Numba.

For each kernel file: import it (its @cuda.jit kernels have eager signatures,
so importing compiles them), build the same deterministic inputs as the CUDA C
programs (bench/gpu/cuda/bench_common.h) and kjit_bench.c, launch once on
zeroed outputs and checksum the result, warm up, then time N launches one by
one with CUDA events while a "gate" kernel holds the stream (so host-side
launch cost never shows in the kernel times; same method as the .cu
programs), median.  Also: launch overhead (1 and 4 array arguments, tiny grid,
back-to-back launches, microseconds per launch), the time of the first import
(Numba start-up + eager compile + load of vector_add) and cuda.compile_ptx of
the vector add.

Output: one line per measurement, parsed by run.sh:
  RESULT impl=numba kernel=NAME median_ms=M min_ms=m n=N checksum=C mass=S
  OVERHEAD impl=numba args=K us_per_launch=U launches=L
  COMPILE impl=numba what=WHAT ms=T
  INFO key=value ...

Usage: numba_bench.py [-n N] [-w W] [--launches L] [--only NAME[,NAME...]]
(NAME: a built-in benchmark or a kernel file with "# BENCH" rows, all of
which run.)
"""
import argparse
import importlib.util
import os
import sys
import time

import numpy
numpy.row_stack = numpy.vstack  # required by the Numba build on the GPU machine
import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "kernels")


# ----------------------------------------------------------------- inputs --
# Exactly the formulas of bench_common.h: the 32-bit hash
# i * 2654435761 + seed * 97531 (mod 2^32), over 2^32 in float64.

def u01(n, seed):
    i = np.arange(n, dtype=np.uint32)
    h = i * np.uint32(2654435761) + np.uint32(seed * 97531)
    return h.astype(np.float64) / 4294967296.0


def fill_f32(n, seed, lo, hi):
    return (lo + (hi - lo) * u01(n, seed)).astype(np.float32)


def hash_byte(n, seed):
    i = np.arange(n, dtype=np.uint32)
    h = i * np.uint32(2654435761) + np.uint32(seed * 97531)
    return (h >> np.uint32(24)).astype(np.uint8)


def checksum(a):
    """(sum(out[k] * (1 + k % 7)), the same sum over |out[k]|) in float64
    over the C-order elements; the second is the scale report.py judges a
    difference of rounding against."""
    flat = np.ascontiguousarray(a).ravel().astype(np.float64)
    w = 1.0 + (np.arange(flat.size) % 7).astype(np.float64)
    return float(np.dot(flat, w)), float(np.dot(np.abs(flat), w))


def load(name):
    path = os.path.join(KERNELS, name + ".py")
    spec = importlib.util.spec_from_file_location("kjit_bench_" + name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def blocks(n, tpb):
    return (n + tpb - 1) // tpb


# ------------------------------------------------------------- benchmarks --
# Each returns (kernel, grid, block, args, outputs): outputs are the device
# arrays whose checksums are added.  Sizes, seeds and geometry are those of
# bench/gpu/cuda/*.cu and kjit_bench.c.

def b_vector_add(m):
    n = 1 << 26
    x = cuda.to_device(fill_f32(n, 1, 0.0, 1.0))
    y = cuda.to_device(fill_f32(n, 2, 0.0, 1.0))
    out = cuda.to_device(np.zeros(n, np.float32))
    return m.vector_add, blocks(n, 256), 256, (x, y, out), (out,)


def b_saxpy(m):
    n = 1 << 26
    x = cuda.to_device(fill_f32(n, 1, 0.0, 1.0))
    y = cuda.to_device(fill_f32(n, 2, 0.0, 1.0))
    out = cuda.to_device(np.zeros(n, np.float32))
    return m.saxpy, blocks(n, 256), 256, (np.float32(2.5), x, y, out), (out,)


def b_matmul(m):
    n = 2048
    A = cuda.to_device(fill_f32(n * n, 3, 0.0, 1.0).reshape(n, n))
    B = cuda.to_device(fill_f32(n * n, 4, 0.0, 1.0).reshape(n, n))
    C = cuda.to_device(np.zeros((n, n), np.float32))
    return m.matmul, (n // 16, n // 16), (16, 16), (A, B, C), (C,)


def b_reduce(m):
    n = 1 << 26
    x = cuda.to_device(fill_f32(n, 5, 0.0, 1.0))
    out = cuda.to_device(np.zeros(1, np.float32))
    return m.reduce_sum, blocks(n, 256), 256, (x, out), (out,)


def b_stencil(m):
    n = 4096
    a = cuda.to_device(fill_f32(n * n, 6, 0.0, 1.0).reshape(n, n))
    out = cuda.to_device(np.zeros((n, n), np.float32))
    return m.stencil5, (n // 32, n // 8), (32, 8), (a, out), (out,)


def b_histogram(m):
    n = 1 << 26
    data = cuda.to_device(hash_byte(n, 7))
    bins = cuda.to_device(np.zeros(256, np.uint32))
    return m.histogram, 1024, 256, (data, bins), (bins,)


def b_mandelbrot(m):
    n = 2048
    img = cuda.to_device(np.zeros((n, n), np.int32))
    dx = np.float32(3.0 / n)
    args = (np.float32(-2.0), np.float32(-1.5), dx, dx, img, np.int32(256))
    return m.mandelbrot, (n // 32, n // 8), (32, 8), args, (img,)


def b_black_scholes(m):
    n = 1 << 24
    S = cuda.to_device(fill_f32(n, 8, 5.0, 30.0))
    X = cuda.to_device(fill_f32(n, 9, 1.0, 100.0))
    T = cuda.to_device(fill_f32(n, 10, 0.25, 10.0))
    call = cuda.to_device(np.zeros(n, np.float32))
    put = cuda.to_device(np.zeros(n, np.float32))
    args = (call, put, S, X, T, np.float32(0.02), np.float32(0.30))
    return m.black_scholes, blocks(n, 256), 256, args, (call, put)


def b_transpose(m):
    n = 8192
    a = cuda.to_device(fill_f32(n * n, 11, 0.0, 1.0).reshape(n, n))
    b = cuda.to_device(np.zeros((n, n), np.float32))
    return m.transpose, (n // 32, n // 32), (32, 8), (a, b), (b,)


def b_nbody(m):
    n = 32768
    pos = cuda.to_device(fill_f32(n * 4, 12, 0.0, 1.0).reshape(n, 4))
    vel = cuda.to_device(fill_f32(n * 4, 13, -0.5, 0.5).reshape(n, 4))
    pos_out = cuda.to_device(np.zeros((n, 4), np.float32))
    vel_out = cuda.to_device(np.zeros((n, 4), np.float32))
    args = (pos, vel, pos_out, vel_out, np.float32(0.01), np.float32(0.01))
    return m.nbody, blocks(n, 128), 128, args, (pos_out, vel_out)


def b_conv2d(m):
    n = 4096
    img = cuda.to_device(fill_f32(n * n, 14, 0.0, 1.0).reshape(n, n))
    w = cuda.to_device(fill_f32(25, 15, -1.0, 1.0).reshape(5, 5))
    out = cuda.to_device(np.zeros((n, n), np.float32))
    return m.conv2d, (n // 32, n // 8), (32, 8), (img, w, out), (out,)


def b_softmax(m):
    rows, cols = 32768, 2048
    x = cuda.to_device(fill_f32(rows * cols, 16, -5.0, 5.0).reshape(rows, cols))
    out = cuda.to_device(np.zeros((rows, cols), np.float32))
    return m.softmax, blocks(rows * 32, 256), 256, (x, out), (out,)   # one warp per row


def b_scan(m):
    n = 1 << 26
    x = cuda.to_device(fill_f32(n, 17, 0.0, 1.0))
    out = cuda.to_device(np.zeros(n, np.float32))
    sums = cuda.to_device(np.zeros(n // 1024, np.float32))
    return m.scan, n // 1024, 1024, (x, out, sums), (out, sums)


def b_monte_carlo(m):
    from numba.cuda.random import create_xoroshiro128p_states
    n = 1 << 20
    states = create_xoroshiro128p_states(n, seed=1234)
    out = cuda.to_device(np.zeros(n, np.float32))
    args = (states, out, np.float32(100.0), np.float32(100.0), np.float32(0.05),
            np.float32(0.2), np.float32(1.0))
    return m.monte_carlo, blocks(n, 256), 256, args, (out,)


BENCHES = [
    ("vector_add", b_vector_add), ("saxpy", b_saxpy), ("matmul", b_matmul),
    ("reduce", b_reduce), ("stencil", b_stencil), ("histogram", b_histogram),
    ("mandelbrot", b_mandelbrot), ("black_scholes", b_black_scholes),
    ("transpose", b_transpose), ("nbody", b_nbody), ("conv2d", b_conv2d),
    ("softmax", b_softmax), ("scan", b_scan), ("monte_carlo", b_monte_carlo),
]


# -------------------------------------------------------- "# BENCH" rows --
# The pattern and guard kernel files declare their own rows, one comment
# line each (kjit_bench.c's setup_spec reads the same lines and says what
# they mean): row=, kernel=, grid=, block= and one a= per parameter.

def spec_files():
    """Names of the kernel files with "# BENCH" rows, sorted."""
    out = []
    for f in sorted(os.listdir(KERNELS)):
        if f.endswith(".py"):
            with open(os.path.join(KERNELS, f)) as fh:
                if any(line.startswith("# BENCH ") for line in fh):
                    out.append(f[:-3])
    return out


def spec_rows(name):
    """[(row, fields)] of kernels/NAME.py; fields maps key -> value, with
    "a" the list of argument specs in order."""
    rows = []
    with open(os.path.join(KERNELS, name + ".py")) as fh:
        for line in fh:
            if not line.startswith("# BENCH "):
                continue
            d = {"a": []}
            for tok in line[len("# BENCH "):].split():
                k, v = tok.split("=", 1)
                if k == "a":
                    d["a"].append(v)
                else:
                    d[k] = v
            rows.append((d["row"], d))
    return rows


def dims(s, sep):
    return tuple(int(x) for x in s.split(sep))


def fill_spec(dtype, shape, seed, lo, hi):
    """Component k (two per complex element) = lo + (hi - lo) * u01(k, seed),
    floored for integer dtypes."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.kind == "c":
        comp = np.dtype("float32" if dt.itemsize == 8 else "float64")
        v = (lo + (hi - lo) * u01(2 * n, seed)).astype(comp)
        return v.view(dt).reshape(shape)
    v = lo + (hi - lo) * u01(n, seed)
    if dt.kind in "iu":
        v = np.floor(v)
    elif dt.kind == "b":
        v = v >= 0.5
    return v.astype(dt).reshape(shape)


def checksum_any(a):
    """checksum() over the scalar components (two per complex element)."""
    a = np.ascontiguousarray(a)
    if a.dtype.kind == "c":
        a = a.view(np.float32 if a.dtype.itemsize == 8 else np.float64)
    return checksum(a)


def spec_args(fields):
    """(args, outputs) of one row: device arrays and NumPy scalars."""
    args, outs = [], []
    for a in fields["a"]:
        f = a.split(":")
        kind, dt = f[0], np.dtype(f[1])
        if kind == "s":
            args.append(dt.type(float(f[2]) if dt.kind in "fc" else int(float(f[2]))))
            continue
        shape = dims(f[2], "x")
        if kind in ("in", "io"):
            host = fill_spec(dt, shape, int(f[3]), float(f[4]), float(f[5]))
        else:
            host = np.zeros(shape, dt)
        d = cuda.to_device(host)
        args.append(d)
        if kind != "in":
            outs.append(d)
    return args, outs


def spec_setup(fields):
    def setup(m):
        args, outs = spec_args(fields)
        grid, block = dims(fields["grid"], ","), dims(fields["block"], ",")
        return getattr(m, fields["kernel"]), grid, block, tuple(args), tuple(outs)
    return setup


# ------------------------------------------------------------------ gate --

def make_gate_kernel():
    # Compiled on first use, so that the first kernel of the process is the
    # one compile_times() measures.
    @cuda.jit("void(float32[::1], int64)")
    def gate_kernel(a, n):
        x = a[0]
        for _ in range(n):
            x = x * np.float32(0.9999999) + np.float32(1e-7)
        a[0] = x
    return gate_kernel


class Gate:
    """Holds the default stream busy for about `ms` milliseconds."""

    def __init__(self, ms=30.0):
        self.kernel = make_gate_kernel()
        self.buf = cuda.to_device(np.zeros(1, np.float32))
        n0 = 1 << 20
        self.kernel[1, 1](self.buf, n0)
        cuda.synchronize()
        e0, e1 = cuda.event(timing=True), cuda.event(timing=True)
        e0.record()
        self.kernel[1, 1](self.buf, n0)
        e1.record()
        e1.synchronize()
        t = max(cuda.event_elapsed_time(e0, e1), 1e-3)
        self.iters = max(n0, int(n0 * ms / t))

    def __call__(self):
        self.kernel[1, 1](self.buf, self.iters)


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def run_bench(name, setup, gate, n_timed, n_warm, file=None):
    mod = load(file or name)
    kernel, grid, block, args, outputs = setup(mod)
    launch = kernel[grid, block]
    launch(*args)                       # the checked launch, on zeroed outputs
    cuda.synchronize()
    sums = [checksum_any(o.copy_to_host()) for o in outputs]
    cs, mass = sum(c for c, _ in sums), sum(m for _, m in sums)
    for _ in range(n_warm):
        launch(*args)
    cuda.synchronize()
    starts = [cuda.event(timing=True) for _ in range(n_timed)]
    stops = [cuda.event(timing=True) for _ in range(n_timed)]
    gate()
    for i in range(n_timed):
        starts[i].record()
        launch(*args)
        stops[i].record()
    cuda.synchronize()
    ms = [cuda.event_elapsed_time(a, b) for a, b in zip(starts, stops)]
    print("RESULT impl=numba kernel=%s median_ms=%.6f min_ms=%.6f n=%d checksum=%.17g mass=%.17g"
          % (name, median(ms), min(ms), n_timed, cs, mass), flush=True)


def launch_overhead(launches):
    mod = load("launch_overhead")
    bufs = [cuda.to_device(np.zeros(32, np.float32)) for _ in range(4)]
    for nargs, k, args in ((1, mod.tiny1, bufs[:1]), (4, mod.tiny4, bufs)):
        launch = k[1, 32]
        for _ in range(100):
            launch(*args)
        cuda.synchronize()
        per = []
        for _rep in range(3):           # best of 3 batches
            t0 = time.perf_counter()
            for _ in range(launches):
                launch(*args)
            cuda.synchronize()
            per.append((time.perf_counter() - t0) / launches * 1e6)
        print("OVERHEAD impl=numba args=%d us_per_launch=%.3f launches=%d"
              % (nargs, min(per), launches), flush=True)


def compile_times():
    # First kernel ready: import of vector_add.py with its eager signature
    # (type inference, LLVM, PTX, driver JIT, module load) in this process.
    t0 = time.perf_counter()
    mod = load("vector_add")
    t1 = time.perf_counter()
    print("COMPILE impl=numba what=first_kernel_import ms=%.3f" % ((t1 - t0) * 1e3), flush=True)
    sig = "void(float32[::1], float32[::1], float32[::1])"
    pyfunc = mod.vector_add.py_func
    times = []
    for _ in range(7):
        t0 = time.perf_counter()
        cuda.compile_ptx(pyfunc, sig, cc=(9, 0))
        times.append((time.perf_counter() - t0) * 1e3)
    print("COMPILE impl=numba what=compile_ptx_vector_add_first ms=%.3f" % times[0], flush=True)
    print("COMPILE impl=numba what=compile_ptx_vector_add ms=%.3f" % median(times[1:]), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=50, help="timed launches per kernel")
    ap.add_argument("-w", type=int, default=5, help="warm-up launches per kernel")
    ap.add_argument("--launches", type=int, default=10000,
                    help="back-to-back launches for the launch overhead")
    ap.add_argument("--only", default="", help="comma-separated kernel names")
    a = ap.parse_args()
    only = set(filter(None, a.only.split(",")))

    import numba
    dev = cuda.get_current_device()
    print("INFO impl=numba numba=%s numpy=%s device=%s cc=%d.%d"
          % (numba.__version__, np.__version__, dev.name.decode() if isinstance(dev.name, bytes)
             else dev.name, *dev.compute_capability), flush=True)
    compile_times()  # first: the vector_add import measures a fresh process
    gate = Gate()
    failed = 0
    jobs = [(name, setup, None) for name, setup in BENCHES if not only or name in only]
    for f in spec_files():
        if not only or f in only:
            try:
                jobs += [(row, spec_setup(d), f) for row, d in spec_rows(f)]
            except (KeyError, ValueError) as e:
                failed += 1
                print("ERROR impl=numba kernel=%s bad # BENCH line: %s" % (f, e), flush=True)
    for name, setup, f in jobs:
        try:
            run_bench(name, setup, gate, max(a.n, 1), max(a.w, 0), f)
        except Exception as e:  # report and go on with the next kernel
            failed += 1
            print("ERROR impl=numba kernel=%s %s: %s" % (name, type(e).__name__,
                                                         str(e).replace("\n", " ")[:300]),
                  flush=True)
    if not only:
        launch_overhead(a.launches)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

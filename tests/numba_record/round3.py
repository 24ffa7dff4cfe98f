"""round3.py - Numba's own values for the cases of real-code round 3, to confirm
the expectations recorded in tests/exec/*.py on a GPU machine with Numba:

    python3 tests/numba_record/round3.py

Each line prints a case and Numba's result, and the value kjit's tests
expect; "MISMATCH" marks a difference.  Cases: ~ on uint8/int8 arrays,
ballot_sync / match_any_sync >> 16, atomic nanmax/nanmin with NaN,
float32 ** int (square-and-multiply), kernels made by a factory, module
constants computed by host code, annotations Numba ignores, and recursion
through device functions with explicit signatures (printed, not compared:
what Numba 0.68 does there decides what kjit should do).
"""
import math
import struct
import sys

import numpy

numpy.row_stack = numpy.vstack  # numba-cuda still names it
from numba import cuda, types  # noqa: E402

failures = 0


def report(name, got, want):
    global failures
    same = len(got) == len(want) and all(
        (isinstance(w, float) and math.isnan(w) and math.isnan(g)) or g == w for g, w in zip(got, want))
    failures += not same
    print(f"{'ok      ' if same else 'MISMATCH'} {name}: numba {list(got)}  kjit expects {list(want)}")


def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]


def powi_f32(x, n):
    r, a, e = 1.0, f32(x), abs(n)
    while e:
        if e & 1:
            r = f32(r * a)
        e >>= 1
        a = f32(a * a)
    return f32(1.0 / r) if n < 0 else r


# ---- tests/exec/numba_results_r3.py ----
@cuda.jit
def invert(a, o):
    i = cuda.grid(1)
    if i < a.size:
        o[i] = ~a[i]


@cuda.jit
def votes(o):
    i = cuda.threadIdx.x
    b = cuda.ballot_sync(0xffffffff, True)
    m = cuda.match_any_sync(0xffffffff, 7)
    if i == 0:
        o[0] = b >> 16
        o[1] = m >> 16
        o[2] = b


@cuda.jit
def nan_atomics(a):
    i = cuda.threadIdx.x
    cuda.atomic.nanmax(a, 0, math.nan if i % 2 == 0 else float(i))
    cuda.atomic.nanmin(a, 1, math.nan if i % 2 == 1 else float(i) + 1.0)
    cuda.atomic.nanmax(a, 2, math.nan)
    cuda.atomic.nanmin(a, 3, float(i) - 2.0)


@cuda.jit
def powers(x, o):
    i = cuda.grid(1)
    if i < x.size:
        o[i] = x[i] ** (3 * i - 8)


def run_results():
    o = numpy.zeros(4, numpy.int64)
    invert[1, 4](numpy.arange(4, dtype=numpy.uint8), o)
    report("~uint8", o.tolist(), [255 - i for i in range(4)])
    invert[1, 4](numpy.arange(4, dtype=numpy.int8), o)
    report("~int8", o.tolist(), [-1 - i for i in range(4)])
    o = numpy.zeros(3, numpy.int64)
    votes[1, 32](o)
    report("ballot/match_any >> 16", o.tolist(), [-1, -1, -1])
    a = numpy.full(4, numpy.nan)
    nan_atomics[1, 8](a)
    report("atomic nanmax/nanmin", a.tolist(), [7.0, 1.0, float('nan'), -2.0])
    for x in (1.013, 1.5):
        out = numpy.zeros(8, numpy.float32)
        powers[1, 8](numpy.full(8, x, numpy.float32), out)
        report(f"float32({x}) ** n", out.tolist(), [powi_f32(x, 3 * i - 8) for i in range(8)])


# ---- tests/exec/factories.py ----
@cuda.jit(device=True)
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


def make_blur(radius, edge=None):
    width = 2 * radius + 1

    @cuda.jit
    def blur(src, dst):
        i = cuda.grid(1)
        n = src.size
        if i < n:
            s = 0.0
            for k in range(-radius, radius + 1):
                j = i + k
                if edge is not None:
                    j = edge(j, 0, n - 1)
                elif j < 0 or j >= n:
                    continue
                s += src[j]
            dst[i] = s / width
    return blur


def run_factories():
    src = numpy.arange(8, dtype=numpy.float32)
    for name, k, want in (
            ("make_blur(1)", make_blur(1), [sum(j for j in range(i - 1, i + 2) if 0 <= j < 8) / 3 for i in range(8)]),
            ("make_blur(2, clamp)", make_blur(2, clamp), [sum(sorted((0, j, 7))[1] for j in range(i - 2, i + 3)) / 5 for i in range(8)])):
        dst = numpy.zeros(8, numpy.float32)
        k[1, 8](src, dst)
        report(name, dst.tolist(), [f32(w) for w in want])


# ---- tests/exec/host_constants.py (the uint64 literals) ----
S = 9223372036854775813
W = 0xcbf29ce484222325


@cuda.jit
def big_literals(u):
    u[0] = W
    u[1] = S
    u[2] = 18446744073709551615 - u[0]


def run_constants():
    u = numpy.zeros(3, numpy.uint64)
    big_literals[1, 1](u)
    report("uint64 literals", [int(v) for v in u], [W, S, 18446744073709551615 - W])


# ---- tests/exec/annotations.py ----
@cuda.jit
def annotated(a: numpy.ndarray, n: int, s: float) -> None:
    i = cuda.grid(1)
    if i < n:
        a[i] = i * s


def run_annotations():
    a = numpy.zeros(4, numpy.float32)
    annotated[1, 4](a, 3, numpy.float32(2.5))
    report("annotations ignored", a.tolist(), [0.0, 2.5, 5.0, 0.0])


# ---- tests/exec/array_search.py (np.min & co. in a kernel: does Numba accept them?) ----
def probe_array_search():
    try:
        @cuda.jit
        def search_nan(a, o):
            a[2] = math.nan
            a[4] = -1.0
            o[0] = numpy.min(a)
            o[1] = numpy.argmin(a)
            o[2] = numpy.argmax(a)
            o[3] = numpy.nanmin(a)
            o[4] = numpy.nanmax(a)
            o[5] = numpy.max(a[3:])

        o = numpy.zeros(6)
        search_nan[1, 1](numpy.arange(6, dtype=numpy.float64), o)
        report("np.min/argmin/nanmin with NaN", o.tolist(), [float('nan'), 2.0, 2.0, -1.0, 5.0, 5.0])
    except Exception as e:
        print(f"info     np.min & co. in a kernel: {type(e).__name__}: {str(e).splitlines()[0]}")


# ---- recursion through device functions with explicit signatures ----
def probe_recursion():
    try:
        @cuda.jit("int64(int64)", device=True)
        def fact(n):
            return 1 if n <= 1 else n * fact(n - 1)

        @cuda.jit
        def use(o):
            o[0] = fact(10)

        o = numpy.zeros(1, numpy.int64)
        use[1, 1](o)
        print(f"info     recursion with a signature: compiles, fact(10) = {o[0]}")
    except Exception as e:  # what Numba says decides kjit's rule
        print(f"info     recursion with a signature: {type(e).__name__}: {str(e).splitlines()[0]}")


if __name__ == "__main__":
    run_results()
    run_factories()
    run_constants()
    run_annotations()
    probe_array_search()
    probe_recursion()
    print(f"{failures} mismatches")
    sys.exit(1 if failures else 0)

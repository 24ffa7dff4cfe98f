"""round4.py - Numba's own values for the language cases of real-code round 4,
to confirm the expectations recorded in tests/exec/*.py on a GPU machine with
Numba:

    python3 tests/numba_record/round4.py

Each line prints a case and Numba's result, and the value kjit's tests
expect; "MISMATCH" marks a difference; "info" lines print what Numba does
where kjit's rule follows it (a refusal, a message).  Cases: recursion through
device functions with signatures, assignment to array slices, raise in
kernels, print of tuples and of many values, module constants that are
empty or complex arrays.
"""
import math
import sys

import numpy

numpy.row_stack = numpy.vstack  # numba-cuda still names it
from numba import cuda  # noqa: E402

failures = 0


def report(name, got, want):
    global failures
    same = len(got) == len(want) and all(
        (isinstance(w, float) and math.isnan(w) and math.isnan(g)) or g == w for g, w in zip(got, want))
    failures += not same
    print(f"{'ok      ' if same else 'MISMATCH'} {name}: numba {list(got)}  kjit expects {list(want)}")


def info(name, fn):
    try:
        print(f"info     {name}: {fn()}")
    except Exception as e:
        print(f"info     {name}: {type(e).__name__}: {str(e).splitlines()[0]}")


# ---- tests/exec/recursion.py ----
@cuda.jit('int64(int64)', device=True)
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


@cuda.jit('int64(int64)', device=True)
def is_even(n):
    if n == 0:
        return 1
    return is_odd(n - 1)


@cuda.jit('int64(int64)', device=True)
def is_odd(n):
    if n == 0:
        return 0
    return is_even(n - 1)


@cuda.jit('float64(float64, int64)', device=True)
def power(x, n):
    if n == 0:
        return 1.0
    h = power(x, n // 2)
    return h * h * (x if n % 2 else 1.0)


@cuda.jit('int64(int64)', device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@cuda.jit
def facts(o):
    i = cuda.grid(1)
    if i < o.size:
        o[i] = fact(i)


@cuda.jit
def mixed(o):
    i = cuda.grid(1)
    if i < o.size:
        o[i] = 1000 * is_even(i) + power(2.0, i) + fib(i)


def fib_py(n):
    return n if n < 2 else fib_py(n - 1) + fib_py(n - 2)


def run_recursion():
    o = numpy.zeros(16, numpy.int64)
    facts[1, 16](o)
    report("fact(i)", o.tolist(), [math.factorial(i) for i in range(16)])
    o = numpy.zeros(20, numpy.float64)
    mixed[2, 10](o)
    report("is_even/power/fib", o.tolist(), [1000 * (i % 2 == 0) + 2.0 ** i + fib_py(i) for i in range(20)])


RUNS = [run_recursion]

if __name__ == "__main__":
    for run in RUNS:
        run()
    print(f"{failures} mismatches")
    sys.exit(1 if failures else 0)

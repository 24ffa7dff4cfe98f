"""`nonlocal` in a function defined inside a kernel: numba-cuda inlines
the closure, so its assignments are the enclosing function's.  Covered: the
branch-pruning case of numba-cuda's own tests (prune), a nonlocal counter
and value updated by every call of a closure that also returns a value,
called in a while loop (counter), two nonlocals assigned together with a
bare return on one path (fib), and a nonlocal assigned on two paths of the
closure (reassigned: Python's values; numba-cuda 0.30 keeps only the first
assignment of such a variable when it inlines the closure (Numba issue
10379), and newer Numba refuses it, docs/language.md)."""
from numba import cuda


@cuda.jit
def prune(res):
    x = 1000

    def closure():
        nonlocal x
        x = 0

    closure()

    if x == 0:
        res[0] = 1.0
    else:
        res[0] = 2.0


@cuda.jit
def counter(out, n):
    i = cuda.grid(1)
    if i >= out.size:
        return
    count = 0
    last = -1.0

    def add(v):
        nonlocal count, last
        count = count + 1
        last = v * 0.5
        if v % 3 == 0:
            return v * 2
        return v

    s = 0
    k = 0
    while k < n:
        s += add(k + i) + count
        k += 1
    out[i] = s * 1000 + count * 10 + last


@cuda.jit
def fib(out):
    a = 1
    b = 2

    def step(k):
        nonlocal a, b
        if k == 3:
            return
        a, b = b, a + b

    for k in range(6):
        step(k)
    out[0] = a
    out[1] = b


@cuda.jit
def reassigned(out):
    i = cuda.grid(1)
    if i >= out.size:
        return
    total = 0

    def acc(v):
        nonlocal total
        if v % 2 == 0:
            total += v
        else:
            total -= 1

    for v in range(i + 5):
        acc(v)
    out[i] = total


# RUN: prune --grid 1 --block 1 res=zeros:f64:1
# EXPECT: res: float64[1] [1] sum=1 crc=c7f813e9
#   (computed in Python from: [1.0])
# RUN: counter --grid 1 --block 4 out=zeros:f64:4 n=5
# EXPECT: out: float64[4] [28052, 33052.5, 44053, 49053.5] sum=154211 crc=a7a17dba
#   (computed in Python from: [28052.0, 33052.5, 44053.0, 49053.5])
# RUN: fib --grid 1 --block 1 out=zeros:i64:2
# EXPECT: out: int64[2] [13, 21] sum=34 crc=d1aa3643
#   (computed in Python from: [13, 21])
# RUN: reassigned --grid 1 --block 4 out=zeros:i64:4
# EXPECT: out: int64[4] [4, 3, 9, 8] sum=24 crc=3e00f3c4
#   (computed in Python from: [4, 3, 9, 8])

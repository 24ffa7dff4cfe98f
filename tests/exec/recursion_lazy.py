"""Recursion without signatures, as Numba infers it (numba-cuda's
test_recursion, fib3): a lazy device function's call of itself with the
same argument types takes the type of its return paths that do not
recurse; half's recursive path returns float64, so its return is float64.
Recorded on the GPU (H200, Numba 0.68, numba-cuda 0.30.4, 2026-11-28):
fibs and mixed give these values.  `nested` goes beyond Numba: fact(int32)
calls fact(n - 1), an int64, so kjit types fact(int64) inside it, where
Numba's lowering fails ("'JITCUDACodegen' object has no attribute
'insert_unresolved_ref'", its test_type_change is skipped for it)."""
from numba import cuda


@cuda.jit(device=True)
def fib3(n):
    if n < 2:
        return n
    return fib3(n - 1) + fib3(n - 2)


@cuda.jit(device=True)
def fact(n):
    if n <= 1:
        return 1
    return n * fact(n - 1)


@cuda.jit(device=True)
def half(n):
    if n < 1:
        return 1
    return half(n - 1) * 0.5


@cuda.jit
def fibs(a, o):
    i = cuda.grid(1)
    if i < o.size:
        o[i] = fib3(a[i])


@cuda.jit
def mixed(a, o):
    i = cuda.grid(1)
    if i < o.size:
        o[i] = fact(a[i]) + half(a[i])


@cuda.jit
def nested(a, o):
    i = cuda.grid(1)
    if i < o.size:
        o[i] = fact(a[i])


# RUN: fibs --grid 1 --block 16 a=arange:i64:16 o=zeros:i64:16
# EXPECT: o: int64[16] [0, 1, 1, ..., 610] sum=1596 crc=4a0b802a
#   (computed in Python from: [(lambda f: f(f, i))(lambda f, n: n if n < 2 else f(f, n - 1) + f(f, n - 2)) for i in range(16)])
# RUN: mixed --grid 1 --block 8 a=arange:i64:8 o=zeros:f64:8
# EXPECT: o: float64[8] [2, 1.5, 2.25, ..., 5040.01] sum=5915.992188 crc=371c9a20
#   (computed in Python from: [__import__('math').factorial(i) + 0.5 ** i for i in range(8)])
# RUN: nested --grid 1 --block 8 a=arange:i32:8 o=zeros:i64:8
# EXPECT: o: int64[8] [1, 1, 2, ..., 5040] sum=5914 crc=fef43cd8
#   (computed in Python from: [__import__('math').factorial(i) for i in range(8)])

"""Recursion through device functions with explicit signatures, as Numba
compiles it: self recursion (fact, a conditional expression; power, a call
whose result is used twice) each declared with its signature (mutual
recursion: recursion_mutual.py).  Numba 0.68 gives
fact(10) = 3628800 on the GPU."""
from numba import cuda


@cuda.jit('int64(int64)', device=True)
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


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
        o[i] = power(2.0, i) + fib(i)


# RUN: facts --grid 1 --block 16 o=zeros:i64:16
# EXPECT: o: int64[16] [1, 1, 2, ..., 1307674368000] sum=1.401602636e+12 crc=72c9fe63
#   (computed in Python from: [__import__('math').factorial(i) for i in range(16)])
# RUN: facts --grid 1 --block 11 o=zeros:i64:11
# EXPECT: 3628800
# RUN: mixed --grid 2 --block 10 o=zeros:f64:20
# EXPECT: o: float64[20] [1, 3, 5, ..., 528469] sum=1059520 crc=efa00bf7
#   (computed in Python from: [2.0 ** i + (lambda f: f(f, i))(lambda f, n: n if n < 2 else f(f, n - 1) + f(f, n - 2)) for i in range(20)])

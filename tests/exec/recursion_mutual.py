"""Mutual recursion through device functions with explicit signatures:
is_even / is_odd, each declared with its signature, the callee defined
after its caller.  Numba 0.68 (numba-cuda 0.30.4, H200, 2026-11-28) fails
to load this file: compiling is_even eagerly reaches is_odd before it
exists, and its lowering stops with "'JITCUDACodegen' object has no
attribute 'insert_unresolved_ref'".  kjit compiles the cycle (listed as
known: the whole file)."""
from numba import cuda


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


@cuda.jit
def parity(o):
    i = cuda.grid(1)
    if i < o.size:
        o[i] = 10 * is_even(i) + is_odd(i)


# RUN: parity --grid 1 --block 8 o=zeros:i64:8
# EXPECT: o: int64[8] [10, 1, 10, ..., 1] sum=44 crc=8fb8992e
#   (computed in Python from: [10 * (i % 2 == 0) + (i % 2) for i in range(8)])

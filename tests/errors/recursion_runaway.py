# ARGS: check %s
from numba import cuda


# Every path calls itself, so no return gives the type: Numba 0.68 says
# "cannot type infer runaway recursion" (numba-cuda's test_recursion).
@cuda.jit(device=True)
def fact(n):
    return n * fact(n - 1)


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = fact(5)

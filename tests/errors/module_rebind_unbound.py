"""`add = add` before anything binds add is Python's NameError: the name
stays unresolved rather than taking the def that follows"""
from numba import cuda

# ARGS: ptx %s:k --sig "void(int64[::1])"

add = add


@cuda.jit(device=True)
def add(a, b):
    return a + b


@cuda.jit
def k(ary):
    ary[0] = add(ary[0], 1)

# ARGS: ptx %s:nope errors/cli_no_such_file.py errors/bad_arch.py:k --arch sm_80
# Each input is compiled on its own and reports its own errors.
from numba import cuda


@cuda.jit("void(int32[:])")
def k(a):
    a[0] = 1

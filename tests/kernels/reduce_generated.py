"""The kernels kjit generates for @cuda.reduce functions, for several
dtypes and layouts (strided input: pass 1 and pass 2 specializations;
8/16-bit integers shuffled as 32-bit values)."""
# ARGS: ptx %s:sum_reduce --sig "float32[:]"
# ARGS: ptx %s:sum_reduce --sig "float64[::1]"
# ARGS: ptx %s:sum_reduce --sig "int8[:]"
# ARGS: ptx %s:max_reduce --sig "int64[::1]"
# ARGS: ptx %s:max_reduce --sig "uint16[:]"
# ARGS: ptx %s:max_reduce --sig "void(uint32[:])"
from numba import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b


@cuda.reduce
def max_reduce(a, b):
    return max(a, b)

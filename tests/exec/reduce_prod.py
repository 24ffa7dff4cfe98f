"""@cuda.reduce products of integers: init=1 for the plain product, the
default init 0 (as in Numba) making it 0, and a two-pass size."""
from numba import cuda

# RUN: prod_reduce x=full:int64:40:2 init=1
# EXPECT: result: int64 1099511627776
#   (2**40)
# RUN: prod_reduce x=full:int64:40:2
# EXPECT: result: int64 0
#   (2**40 * init 0)
# RUN: prod_reduce x=full:int64:20000:1 init=3
# EXPECT: result: int64 3
#   (1**20000 * 3)
# RUN: prod_reduce x=full:float64:10:3 init=1
# EXPECT: result: float64 59049
#   (3**10)
# RUN: prod_reduce x=full:int32:31:-2 init=1
# EXPECT: result: int32 -2147483648
#   ((-2)**31)


@cuda.reduce
def prod_reduce(a, b):
    return a * b

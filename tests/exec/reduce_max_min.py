"""@cuda.reduce max and min, written with the builtin and with a
conditional expression.  As in Numba, init (default 0) always takes part:
the max of negative numbers with the default init is 0."""
from numba import cuda

# RUN: max_reduce x=arange:int32:100003
# EXPECT: result: int32 100002
#   (max(range(100003)))
# RUN: max_reduce x=full:int32:5000:-7
# EXPECT: result: int32 0
#   (max(-7, init 0))
# RUN: max_reduce x=full:int32:5000:-7 init=-100
# EXPECT: result: int32 -7
#   (max(-7, -100))
# RUN: max_reduce x=arange:float64:33 init=-1
# EXPECT: result: float64 32
#   (max(range(33)))
# RUN: min_reduce x=full:float64:20000:-2.5
# EXPECT: result: float64 -2.5
#   (min(-2.5, init 0))
# RUN: min_reduce x=arange:int64:70000 init=100
# EXPECT: result: int64 0
#   (min(range(70000)))
# RUN: min_reduce x=arange:float32:0 init=-4
# EXPECT: result: float32 -4
#   (empty: init)
# RUN: bigger x=arange:uint16:40000 init=7
# EXPECT: result: uint16 39999
#   (max(range(40000)), through a device function)


@cuda.reduce
def max_reduce(a, b):
    return max(a, b)


@cuda.reduce
def min_reduce(a, b):
    return a if a < b else b


@cuda.jit(device=True)
def larger(a, b):
    return b if b > a else a


@cuda.reduce
def bigger(a, b):
    return larger(a, b)

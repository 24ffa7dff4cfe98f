"""@cuda.reduce sums: float32/float64 data that are small integers or halves
(exact in any order of addition), int32 with and without init, an init of
another type (converted to the dtype, as Numba's arr.dtype.type(init)),
empty and one-element arrays, sizes that take one pass and sizes that take
two (over 8192 elements on the GPU, 16384 on the CPU).  Integer results
wrap in the array's dtype, as Numba's partials are stored in it."""
from numba import cuda

# RUN: sum_reduce x=arange:float32:1000
# EXPECT: result: float32 499500
#   (sum(range(1000)))
# RUN: sum_reduce x=full:float32:100003:2
# EXPECT: result: float32 200006
#   (2 * 100003)
# RUN: sum_reduce x=full:float32:16385:0.5
# EXPECT: result: float32 8192.5
#   (0.5 * 16385)
# RUN: sum_reduce x=arange:float64:1000001
# EXPECT: result: float64 500000500000
#   (sum(range(1000001)))
# RUN: sum_reduce x=arange:int32:8193 init=5
# EXPECT: result: int32 33558533
#   (sum(range(8193)) + 5)
# RUN: sum_reduce x=arange:int32:10 init=2.7
# EXPECT: result: int32 47
#   (45 + int(2.7))
# RUN: sum_reduce x=arange:int32:0
# EXPECT: result: int32 0
#   (empty: init, default 0)
# RUN: sum_reduce x=arange:float64:0 init=2.5
# EXPECT: result: float64 2.5
#   (empty: init)
# RUN: sum_reduce x=arange:float32:1 init=3
# EXPECT: result: float32 3
#   (0 + 3)
# RUN: sum_reduce x=full:int16:1000:100
# EXPECT: result: int16 -31072
#   ((100000 + 2**15) % 2**16 - 2**15)
# RUN: sum_reduce x=arange:uint8:256
# EXPECT: result: uint8 128
#   (sum(range(256)) % 256)


@cuda.reduce
def sum_reduce(a, b):
    return a + b


if __name__ == "__main__":
    import numpy as np
    print(sum_reduce(np.arange(1000, dtype=np.float32)))

"""A reduction with @cuda.reduce: the sum of an array, on the GPU.

    python3 examples/sum_reduce.py              # with Numba, on a GPU
    kjit run examples/sum_reduce.py:sum_reduce x=arange:float64:1000000

kjit picks the launch (as Numba does for sum_reduce(x)) and prints
"result: float64 499999500000"; init=V starts the sum at V.
"""
from numba import cuda
import numpy as np


@cuda.reduce
def sum_reduce(a, b):
    return a + b


if __name__ == "__main__":
    x = np.arange(1_000_000, dtype=np.float64)
    got = sum_reduce(x)
    assert got == x.sum() == 499999500000
    print(got)

# The compiles that ptxas assembles for sm_80 and sm_90 (tests/ptxas.sh):
# ARGS: ptx %s:sum_reduce --sig "float64[:]"
# ARGS: ptx %s:sum_reduce --sig "int32[::1]"

# The tests' runs (tests/exec.sh, on the CPU target and on the GPU):
# RUN: sum_reduce x=arange:float64:1000000
# EXPECT: result: float64 499999500000
#   (sum(range(1000000)), exact in float64 in any order)
# RUN: sum_reduce x=arange:int32:10000 init=5
# EXPECT: result: int32 49995005
#   (sum(range(10000)) + 5)

"""@cuda.reduce benchmark: the sum of 2^26 float32 (bench/gpu/run_reduce.sh).
Numba runs sum_reduce(d_x); kjit runs kjit_reduce on the same device array;
bench/gpu/cuda/cuda_reduce.cu is the same two-pass algorithm in CUDA C."""
# ARGS: ptx %s:sum_reduce --sig "float32[::1]"
from numba import cuda


@cuda.reduce
def sum_reduce(a, b):
    return a + b

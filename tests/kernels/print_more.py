# print of Dim3 values, 32 items and more than 32 (raw format) through ptxas;
# tests/exec/print_more.py runs them.
# ARGS: ptx %s:dims --sig "void(int32[:])"
# ARGS: ptx %s:thirty_two --sig "void(int64[:])"
"""print as numba-cuda's printimpl has it: cuda.threadIdx, cuda.blockIdx,
cuda.blockDim and cuda.gridDim print as their Dim3, "(x, y, z)"; bools as
True/False; up to 32 items per call; more than 32 and Numba warns when
compiling ("CUDA print() cannot print more than 32 items...") and the kernel
prints the raw format string, every value's format in place of the value."""
from numba import cuda


@cuda.jit
def dims(a):
    print("tid", cuda.threadIdx, "bid", cuda.blockIdx, cuda.blockDim, cuda.gridDim, a[0] > 0)


@cuda.jit
def thirty_two(a):
    print(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
          a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25],
          a[26], a[27], a[28], a[29], a[30], a[31])

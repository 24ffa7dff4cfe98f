"""print as numba-cuda's printimpl has it: cuda.threadIdx, cuda.blockIdx,
cuda.blockDim and cuda.gridDim print as their Dim3, "(x, y, z)"; bools as
True/False; up to 32 items per call (more are refused: errors/print_33.py).
Numba's own output is C printf from the device, which check_exec.py cannot
capture, so these runs are listed in tests/numba/known_differences.txt."""
from numba import cuda


@cuda.jit
def dims(a):
    print("tid", cuda.threadIdx, "bid", cuda.blockIdx, cuda.blockDim, cuda.gridDim, a[0] > 0)


@cuda.jit
def thirty_two(a):
    print(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
          a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25],
          a[26], a[27], a[28], a[29], a[30], a[31])


# RUN: dims --grid 2 --block 3 a=arange:i32:4
# EXPECT: tid (2, 0, 0) bid (1, 0, 0) (3, 1, 1) (2, 1, 1) False
# EXPECT: tid (0, 0, 0) bid (0, 0, 0) (3, 1, 1) (2, 1, 1) False
# RUN: thirty_two --grid 1 --block 1 a=arange:i64:32
# EXPECT: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31

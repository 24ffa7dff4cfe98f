"""Doubling a 2-D array with a grid of 2-D blocks (cuda.grid(2)).

    python3 examples/double_matrix.py           # with Numba, on a GPU
    kjit run examples/double_matrix.py:double_matrix --grid 2,2 --block 16,16 a=arange:float32:20x30

The 20x30 array takes 2x2 blocks of 16x16 threads; the threads past its
edges do nothing.
"""
from numba import cuda
import numpy as np


@cuda.jit
def double_matrix(a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] *= 2


if __name__ == "__main__":
    a = np.arange(20 * 30, dtype=np.float32).reshape(20, 30)
    expected = 2 * a
    double_matrix[(2, 2), (16, 16)](a)
    assert np.array_equal(a, expected)
    print(a[:2, :5])

# The compiles that ptxas assembles for sm_80 and sm_90 (tests/ptxas.sh):
# ARGS: ptx %s:double_matrix --sig "void(float32[:, :])"

# The tests' runs (tests/exec.sh, on the CPU target and on the GPU):
# RUN: double_matrix --grid 2,2 --block 16,16 a=arange:float32:20x30
# EXPECT: a: float32[20x30] [0, 2, 4, ..., 1198] sum=359400 crc=47614506
#   (computed in Python from: [2.0 * k for k in range(600)])
# RUN: double_matrix --grid 1,3 --block 8,4 a=arange:int32:5x9
# EXPECT: a: int32[5x9] [0, 2, 4, ..., 88] sum=1980 crc=681bb13f
#   (computed in Python from: [2 * k for k in range(45)])

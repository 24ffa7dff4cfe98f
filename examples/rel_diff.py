"""A NumPy universal function compiled for the GPU with @vectorize.

    python3 examples/rel_diff.py                # with Numba, on a GPU
    kjit run examples/rel_diff.py:rel_diff x=arange:float32:1000 y=full:float32:1000:1

rel_diff(x, y) is applied element by element; kjit picks the launch and
prints the result array `out`.  As Numba types it, 2 * (x - y) multiplies by
an int64, so it is computed in float64 and rounded to the float32 of the
signature on return.
"""
from numba import vectorize
import numpy as np


@vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")
def rel_diff(x, y):
    return 2 * (x - y) / (x + y)


if __name__ == "__main__":
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    out = rel_diff(x, y)
    expected = (2 * (x - y).astype(np.float64) / (x + y)).astype(np.float32)
    assert np.array_equal(out, expected)
    print(out[:4], out[-1])

# The compiles that ptxas assembles for sm_80 and sm_90 (tests/ptxas.sh):
# ARGS: ptx %s:rel_diff

# The tests' runs (tests/exec.sh, on the CPU target and on the GPU):
# RUN: rel_diff x=arange:float32:1000 y=full:float32:1000:1
# EXPECT: out: float32[1000] [-2, 0, 0.666667, ..., 1.996] sum=1970.058118 crc=b6a784cd
#   (computed in Python from: [float(__import__('numpy').float32(2.0 * (k - 1) / (k + 1))) for k in range(1000)])
# RUN: rel_diff x=arange:float64:1000 y=full:float64:1000:3
# EXPECT: out: float64[1000] [-2, -1, -0.4, ..., 1.98802] sum=1928.150386 crc=e18e5d8c
#   (computed in Python from: [2.0 * (k - 3) / (k + 3) for k in range(1000)])

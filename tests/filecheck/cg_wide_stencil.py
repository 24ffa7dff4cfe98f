# ARGS: ptx %s:stencil5 --sig "void(float32[:, ::1], float32[:, ::1])" --arch sm_90
# Without the launch fact (an array of 2^31 or more bytes, or kjit ptx
# without --fits32) offsets stay 64-bit, as Numba computes them.
# CHECK: .entry
# CHECK: mul.lo.s64
# CHECK-NOT: mad.lo.s32
# CHECK: ret;
from numba import cuda
import numpy as np

QUARTER = np.float32(0.25)


@cuda.jit
def stencil5(a, out):
    j, i = cuda.grid(2)
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:
        out[i, j] = QUARTER * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])

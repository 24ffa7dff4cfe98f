# ARGS: ptx %s:stencil5 --sig "void(float32[:, ::1], float32[:, ::1])" --arch sm_90 --fits32
# The variant a launch picks when every array's extents and byte span are
# below 2^31 (--fits32): 2-D offsets i * shape[1] + j in 32 bits (mad.lo.s32)
# and one mul.wide.s32 into the address, as CUDA C's int indices give; no
# 64-bit multiply is left.  cg_wide_stencil.py: the 64-bit variant.
# CHECK: .entry
# CHECK-NOT: mul.lo.s64
# CHECK: mad.lo.s32
# CHECK: mul.wide.s32
# CHECK-NOT: mul.lo.s64
# CHECK: ret;
from numba import cuda
import numpy as np

QUARTER = np.float32(0.25)


@cuda.jit
def stencil5(a, out):
    j, i = cuda.grid(2)
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:
        out[i, j] = QUARTER * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])

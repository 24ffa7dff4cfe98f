# ARGS: ptx %s:stencil5 --sig "void(float32[:, ::1], float32[:, ::1])" --arch sm_90 --fits32
# Without --grid32: the variant a launch takes when gridDim.x * blockDim.x
# reaches 2^31 (the x index may then reach 2^41): the x index stays 64-bit
# (mul.wide.u32) and so do its bounds tests.  cg_grid32_stencil.py: the
# 32-bit variant.
# CHECK: .entry
# CHECK: mul.wide.u32
# CHECK: setp.{{[a-z]+}}.s64
# CHECK: ret;
from numba import cuda
import numpy as np

QUARTER = np.float32(0.25)


@cuda.jit
def stencil5(a, out):
    j, i = cuda.grid(2)
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:
        out[i, j] = QUARTER * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])

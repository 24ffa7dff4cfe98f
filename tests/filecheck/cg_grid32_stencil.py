# ARGS: ptx %s:stencil5 --sig "void(float32[:, ::1], float32[:, ::1])" --arch sm_90 --fits32 --grid32
# The variant a launch picks when gridDim * blockDim < 2^31 in every
# dimension (--grid32) and every array fits 32-bit offsets (--fits32): the x
# index in 32 bits (mad.lo.s32, as nvcc's int arithmetic) and the bounds
# tests against a.shape in 32 bits; no 64-bit comparison is left.
# cg_grid64_stencil.py: the variant of a larger grid.
# CHECK: .entry
# CHECK-NOT: setp.{{[a-z]+}}.{{[su]}}64
# CHECK: mov.u32 {{.*}}%ctaid.x
# CHECK-NOT: setp.{{[a-z]+}}.{{[su]}}64
# CHECK: mad.lo.s32
# CHECK-NOT: setp.{{[a-z]+}}.{{[su]}}64
# CHECK: ret;
from numba import cuda
import numpy as np

QUARTER = np.float32(0.25)


@cuda.jit
def stencil5(a, out):
    j, i = cuda.grid(2)
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:
        out[i, j] = QUARTER * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])

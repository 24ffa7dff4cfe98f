# ARGS: ptx %s:stencil5 --sig "void(float32[:, ::1], float32[:, ::1])" --arch sm_90 --fits32
# Under 32-bit offsets (--fits32), the constant of a last index, a[i, j - 1]
# and a[i, j + 1], stays out of the 32-bit sum: both share one
# i * shape[1] + j (one mad.lo.s32, one mul.wide.s32) and load at -4 and +4
# bytes from it, as nvcc's int indices do.
# CHECK: .entry
# CHECK: ld.global.f32 %f{{[0-9]+}}, [%rd[[P:[0-9]+]]+-4];
# CHECK-NEXT: add.rn.f32
# CHECK-NEXT: ld.global.f32 %f{{[0-9]+}}, [%rd[[P]]+4];
# CHECK: ret;
from numba import cuda
import numpy as np

QUARTER = np.float32(0.25)


@cuda.jit
def stencil5(a, out):
    j, i = cuda.grid(2)
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:
        out[i, j] = QUARTER * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])

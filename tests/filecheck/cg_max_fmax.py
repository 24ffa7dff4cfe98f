# ARGS: ptx %s:rowmax --sig "void(float32[::1], float32[::1])" --arch sm_90
# max() of two float32 values is fmaxf, as Numba lowers it (__nv_fmaxf):
# one max.f32 per element, no compare and select.
# CHECK: .entry
# CHECK-NOT: selp.f32
# CHECK: max.f32
# CHECK-NOT: selp.f32
# CHECK: ret;
from numba import cuda, float32
import math


@cuda.jit
def rowmax(x, out):
    m = float32(-math.inf)
    for j in range(x.size):
        m = max(m, x[j])
    out[0] = m

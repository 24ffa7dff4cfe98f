# ARGS: ptx %s:expsum --sig "void(float32[::1], float32[::1])" --arch sm_90
# `s += math.exp(x)`: __nv_expf ends in a multiply (2^frac * 2^int), which
# contracts with the sum into one fma, as Numba's NVVM and nvcc do; no
# separate mul.rn/add.rn pair is left after the ex2.
# CHECK: .entry
# CHECK: ex2.approx
# CHECK-NOT: mul.rn.f32
# CHECK-NOT: add.rn.f32
# CHECK: fma.rn.f32 %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}};
# CHECK: ret;
import math
from numba import cuda, float32


@cuda.jit
def expsum(x, out):
    s = float32(0.0)
    for j in range(x.size):
        s += math.exp(x[j])
    out[0] = s

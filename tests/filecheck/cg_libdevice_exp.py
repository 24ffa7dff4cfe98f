# ARGS: ptx %s:expk --sig "void(float32[::1], float64[::1])" --arch sm_80 --emit ptx
# math.exp goes through libdevice (__nv_expf / __nv_exp), linked, inlined and
# internalized: no call and no __nvvm_reflect remain; sqrt is sqrt.rn.
# CHECK: .entry
# CHECK-NOT: __nv_
# CHECK-NOT: __nvvm_reflect
# CHECK-NOT: call
# CHECK: ex2.approx
# CHECK: sqrt.rn.f32
# CHECK: ret;
import math
from numba import cuda


@cuda.jit
def expk(x, y):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = math.sqrt(math.exp(x[i]))
        y[i] = math.exp(y[i])

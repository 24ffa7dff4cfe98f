# ARGS: ptx %s:add --sig "void(float32[::1], float32[::1], float32[::1])" --arch sm_80 --emit ptx
# Kernel ABI and address spaces: one by-value struct per array parameter,
# loads and stores of parameter arrays are .global, PTX ISA 7.0 for sm_80.
# CHECK: .version 7.0
# CHECK: .target sm_80
# CHECK: .visible .entry
# CHECK-SAME: add
# CHECK: .param .align 8 .b8 {{.*}}_param_0[24]
# CHECK: ld.global.f32
# CHECK: ld.global.f32
# CHECK: st.global.f32
# CHECK-NOT: __nvvm_reflect
from numba import cuda


@cuda.jit
def add(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]

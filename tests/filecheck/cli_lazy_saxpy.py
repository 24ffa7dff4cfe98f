# ARGS: ptx %s:saxpy --sig "void(float32, float32[::1], float32[::1])"
# A lazy kernel (plain @cuda.jit) compiled for the --sig types: one entry,
# mangled <name>__<argcodes>, each array a by-value {data, shape, strides}.
from numba import cuda


@cuda.jit
def saxpy(a, x, y):
    i = cuda.grid(1)
    if i < y.size:
        y[i] = a * x[i] + y[i]

# CHECK: .target sm_80
# CHECK: .visible .entry saxpy__f32_a1Cf32_a1Cf32(
# CHECK-NEXT: .param .f32 saxpy__f32_a1Cf32_a1Cf32_param_0,
# CHECK-NEXT: .param .align 8 .b8 saxpy__f32_a1Cf32_a1Cf32_param_1[24],
# CHECK-NEXT: .param .align 8 .b8 saxpy__f32_a1Cf32_a1Cf32_param_2[24]

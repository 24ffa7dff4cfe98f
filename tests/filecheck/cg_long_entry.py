# ARGS: ptx %s:gather_seventeen --sig "void(int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1], int32[::1])" --arch sm_80
# The .entry carries the whole mangled name (136 characters: longer than
# the 128-byte buffer the launcher once copied it into before looking it up
# with cuModuleGetFunction), and each parameter is named after it.
# CHECK: .entry gather_seventeen__a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32(
# CHECK: gather_seventeen__a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_a1Ci32_param_16[24]
from numba import cuda


@cuda.jit
def gather_seventeen(b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15,
                     dst):
    i = cuda.grid(1)
    if i < dst.size:
        dst[i] = b0[i] + b15[i]

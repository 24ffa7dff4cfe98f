# ARGS: ptx %s:k --sig "void(float32[::1], int64)" --arch sm_80
# A constant array is a .const global holding its packed elements, and
# loads from it are ld.const (the data pointer keeps its address space).
# CHECK: .const .align 16 .b8 __kjit_const_W_{{[0-9a-f]+}}[12] = {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64};
# CHECK: .entry k__a1Cf32_i64
# CHECK: ld.const.f32
import numpy as np
from numba import cuda

W = np.array([1.0, 2.0, 3.0], dtype=np.float32)


@cuda.jit
def k(a, j):
    i = cuda.grid(1)
    w = cuda.const.array_like(W)
    if i < a.size:
        a[i] = w[j % 3] * a[i]

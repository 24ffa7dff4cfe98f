# A variable re-bound to another type, typed per assignment (Numba's SSA).
from numba import cuda
import numpy as np


@cuda.jit("void(float32[::1], uint32[::1], float64[::1], int64)")
def rebind(a, hu, r, seed):
    i = cuda.grid(1)
    if i < a.size:
        x = np.uint32(seed + i)
        h = x ^ (x >> 16)
        h = (h * 0x45D9F3B) & 0xFFFFFFFF
        hu[i] = h
        b = a[i] > 4
        r[i] = ~b
        b = a[i] * 3
        acc = 0
        for k in range(3):
            acc = acc + b
        r[i] += acc

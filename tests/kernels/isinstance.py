"""isinstance() folded at compile time: bfloat16, scalar classes, a
tuple of classes, a branch pruned on a parameter's type."""
import numpy as np
from numba import cuda, float32
from numba.cuda._internal.cuda_bf16 import nv_bfloat16


@cuda.jit("void(float32[::1])")
def bf16(arr):
    x = nv_bfloat16(3.14)
    if isinstance(x, nv_bfloat16):
        arr[0] = float32(x)
    else:
        arr[0] = float32(0.0)


@cuda.jit("void(int32[:], float64, int64)")
def classes(out, f, n):
    out[0] = isinstance(n, int)
    out[1] = isinstance(np.float32(f), (int, float32))
    out[2] = isinstance(cuda.grid(2), tuple)


@cuda.jit("void(float64[:], float64)")
def pruned(out, x):
    if isinstance(x, float):
        out[0] = x * 2
    else:
        out[1] = x[0]

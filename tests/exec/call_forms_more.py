"""More of Numba's call forms of the decorator: `cuda.jit(f, device=True,
inline=True)` (the function first, options as keywords), `cuda.jit(device=True)(f)`,
options held in module variables (`device=DEV`, `fastmath=FM`), and signatures
given as `types.void(...)` or `numba.core.typing.signature(ret, *args)` calls."""
from numba import cuda, types
from numba.core.typing import signature

DEV = True
INL = True
FM = False


def f_add(x, y):
    return x + y


def f_kern(a, b):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = dev(a[i], b[i]) + dev2(1.0, 2.0) * dev3(i, 1)


dev = cuda.jit(f_add, device=True, inline=True)
dev2 = cuda.jit(device=True)(f_add)
dev3 = cuda.jit(device=DEV, inline=INL, fastmath=FM)(f_add)
k1 = cuda.jit(f_kern)
k2 = cuda.jit(types.void(types.float32[:], types.float32[:]))(f_kern)
SIG = signature(types.void, types.float32[:], types.float32[:])
k3 = cuda.jit(SIG, fastmath=FM)(f_kern)
k4 = cuda.jit(f_kern, fastmath=FM, debug=False)

# RUN: k1 --grid 1 --block 4 a=full:f32:4:1 b=full:f32:4:2
# EXPECT: a: float32[4] [6, 9, 12, 15] sum=42 crc=39942724
#   (computed in Python from: [1 + 2 + 3 * (i + 1) for i in range(4)])
# RUN: k2 --grid 1 --block 4 a=full:f32:4:1 b=full:f32:4:2
# EXPECT: a: float32[4] [6, 9, 12, 15] sum=42 crc=39942724
#   (computed in Python from: [1 + 2 + 3 * (i + 1) for i in range(4)])
# RUN: k3 --grid 1 --block 4 a=full:f32:4:1 b=full:f32:4:2
# EXPECT: a: float32[4] [6, 9, 12, 15] sum=42 crc=39942724
#   (computed in Python from: [1 + 2 + 3 * (i + 1) for i in range(4)])
# RUN: k4 --grid 1 --block 4 a=full:f32:4:1 b=full:f32:4:2
# EXPECT: a: float32[4] [6, 9, 12, 15] sum=42 crc=39942724
#   (computed in Python from: [1 + 2 + 3 * (i + 1) for i in range(4)])

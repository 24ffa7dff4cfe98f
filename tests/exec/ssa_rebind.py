"""A variable re-bound to a value of another type: each assignment is typed
on its own, as Numba's SSA does, and types unify only where control flow
joins (after an if, around a loop).  The uint32 hash mix keeps h an integer
(uint64, then int64: unifying the two would give float64 and reject `&`);
`~b` of a bool b is logical not (NumPy), though b is later re-bound."""
from numba import cuda
import numpy as np

# RUN: rebind --grid 1 --block 16 a=arange:float32:16 hu=zeros:uint32:16 r0=zeros:float64:16 r1=zeros:float64:16 r2=zeros:float64:16 r3=zeros:float64:16 seed=12345
# EXPECT: hu: uint32[16] [2259878544, 2333190223, 2406370807, ..., 3358527671] sum=4.494791851e+10 crc=78fcf5dc
#   (computed in Python from: [(lambda x: (lambda h: (h ^ (h >> 16)))(((x ^ (x >> 16)) * 0x45D9F3B) & 0xFFFFFFFF))(12345 + i) for i in range(16)])
# EXPECT: r0: float64[16] [1, 1, 1, ..., 0] sum=5 crc=24544fc3
#   (computed in Python from: [1.0 if i <= 4 else 0.0 for i in range(16)])
# EXPECT: r1: float64[16] [0, 3, 6, ..., 45] sum=360 crc=1242f4fb
#   (computed in Python from: [3.0 * i for i in range(16)])
# EXPECT: r2: float64[16] [1.5, 1.5, 1.5, ..., 1.5] sum=24 crc=c65886fa
#   (computed in Python from: [1.5] * 16)
# EXPECT: r3: float64[16] [1.5, 2, 1.5, ..., 2] sum=28 crc=4fa13f2d
#   (computed in Python from: [1.5 if i % 2 == 0 else 2.0 for i in range(16)])


@cuda.jit
def rebind(a, hu, r0, r1, r2, r3, seed):
    i = cuda.grid(1)
    if i < a.size:
        x = np.uint32(seed + i)
        h = x ^ (x >> 16)
        h = (h * 0x45D9F3B) & 0xFFFFFFFF
        h = h ^ (h >> 16)
        hu[i] = h
        b = a[i] > 4
        r0[i] = ~b
        b = a[i] * 3
        r1[i] = b
        acc = 0
        for k in range(3):
            acc = acc + 0.5
        r2[i] = acc
        if i % 2 == 0:
            w = 1.5
        else:
            w = 2
        r3[i] = w

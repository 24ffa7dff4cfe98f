"""Globals the host computes, bound with kjit run --global (docs/language.md
"Globals the host binds").  As Numba reads them when the kernel compiles: a
NumPy array (W, G) is frozen as a read-only constant, a device array (ACC)
is captured by reference, so the kernel writes it and reads its writes."""
import numpy as np
from numba import cuda

W = np.random.rand(8)
G = np.random.rand(2, 3).astype(np.float32)
ACC = cuda.device_array(8, np.float64)
D = cuda.to_device(np.arange(8.0))  # frozen unless bound; bound: by reference


@cuda.jit
def frozen(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = W[i] * 2 + G[i % 2, i % 3] + W.size


@cuda.jit
def by_reference(out):
    i = cuda.grid(1)
    if i < ACC.size:
        ACC[i] = i * 1.5
    cuda.syncthreads()
    if i < out.size:
        out[i] = ACC[(i + 1) % 8] + ACC.shape[0]



@cuda.jit
def bump(out):
    i = cuda.grid(1)
    if i < D.size:
        D[i] += 0.5 * i
        out[i] = D[i]

# RUN: frozen --grid 1 --block 8 --global W=arange:f64:8 --global G=arange:f32:2x3 out=zeros:f64:8
# EXPECT: out: float64[8] [8, 14, 14, ..., 26] sum=139 crc=64891780
#   (computed in Python from: [2 * i + 3 * (i % 2) + (i % 3) + 8 for i in range(8)])
# RUN: by_reference --grid 1 --block 8 --global ACC=zeros:f64:8 out=zeros:f64:8
# EXPECT: out: float64[8] [9.5, 11, 12.5, ..., 8] sum=106 crc=b2645e42
#   (computed in Python from: [((i + 1) % 8) * 1.5 + 8 for i in range(8)])
# RUN: bump --grid 1 --block 8 --global D=full:f64:8:1 out=zeros:f64:8
# EXPECT: out: float64[8] [1, 1.5, 2, ..., 4.5] sum=22 crc=62f361eb
#   (computed in Python from: [1 + 0.5 * i for i in range(8)])

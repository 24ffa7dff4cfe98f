"""Globals the host binds (kjit ptx --global): a frozen NumPy array in
constant memory, and a device array global captured by reference (its
address embedded, written through a generic pointer)."""
# ARGS: ptx %s:scale --sig "void(float32[::1])" --global W=arange:f32:16
# ARGS: ptx %s:accumulate --sig "void(float32[::1])" --global ACC=zeros:f32:2x8
import numpy as np
from numba import cuda

W = np.random.rand(16).astype(np.float32)
ACC = cuda.device_array((2, 8), np.float32)


@cuda.jit
def scale(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * W[i % 16]


@cuda.jit
def accumulate(a):
    i = cuda.grid(1)
    if i < a.size:
        cuda.atomic.add(ACC, (i % 2, i % 8), a[i])

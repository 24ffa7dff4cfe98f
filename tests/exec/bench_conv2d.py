"""bench/gpu/kernels/conv2d.py (the 5x5 convolution of the GPU benchmarks; the
code below the docstring is the same, tests/bench_sync.py checks it) on a
16 x 24 image: integer-valued float32 inputs, so every sum is exact and the
order of the additions (or an fma) cannot change a bit."""
# RUN: conv2d --grid 1,2 --block 32,8 img=arange:float32:16x24 w=arange:float32:5x5 out=zeros:float32:16x24
# EXPECT: out: float32[16x24] [0, 0, 0, ..., 0] sum=15240000 crc=0571d58d
#   (computed in Python from: [sum((5 * di + dj) * (24 * (k // 24 + di - 2) + k % 24 + dj - 2) for di in range(5) for dj in range(5)) if 2 <= k // 24 < 14 and 2 <= k % 24 < 22 else 0 for k in range(384)])
from numba import cuda, float32

K = 5
R = K // 2


@cuda.jit("void(float32[:, ::1], float32[:, ::1], float32[:, ::1])")
def conv2d(img, w, out):
    j, i = cuda.grid(2)
    if R <= i < img.shape[0] - R and R <= j < img.shape[1] - R:
        acc = float32(0.0)
        for di in range(K):
            for dj in range(K):
                acc += w[di, dj] * img[i + di - R, j + dj - R]
        out[i, j] = acc

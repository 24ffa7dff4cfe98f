"""2-D convolution (cross-correlation, as deep-learning layers compute it) of
a 4096 x 4096 float32 image with a 5 x 5 float32 filter held in global
memory: out[i, j] = sum over di, dj of w[di, dj] * img[i + di - 2, j + dj - 2]
for the interior points (the 2-pixel border stays 0).  One output per
thread, blocks of 32 x 8; x is the column j, y the row i."""
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

"""Row softmax of a 32768 x 2048 float32 matrix, one warp per row (8 rows
per block of 256 threads): each lane strides over the row for the maximum,
a shfl_xor_sync butterfly gives every lane the row's maximum; the same for
the sum of math.exp(x - max) (float32, libdevice expf); then every element
is written as exp(x - max) * (1 / sum)."""
import math

from numba import cuda, float32

WARP = 32
FULL = 0xffffffff
ONE = float32(1.0)


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def softmax(x, out):
    row = cuda.grid(1) // WARP
    lane = cuda.threadIdx.x % WARP
    nrows, ncols = x.shape
    if row >= nrows:
        return
    m = float32(-math.inf)
    for j in range(lane, ncols, WARP):
        m = max(m, x[row, j])
    off = WARP // 2
    while off > 0:
        m = max(m, cuda.shfl_xor_sync(FULL, m, off))
        off //= 2
    s = float32(0.0)
    for j in range(lane, ncols, WARP):
        s += math.exp(x[row, j] - m)
    off = WARP // 2
    while off > 0:
        s += cuda.shfl_xor_sync(FULL, s, off)
        off //= 2
    inv = ONE / s
    for j in range(lane, ncols, WARP):
        out[row, j] = math.exp(x[row, j] - m) * inv

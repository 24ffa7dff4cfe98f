# ARGS: ptx %s --arch sm_90 --fits32
# The row softmax of bench/gpu: three strided loops (runtime trip counts,
# unrolled 2x with a remainder), each ending in one conditional branch back
# to its top as nvcc's loops do.  Their exit blocks are placed after them
# before instruction selection; before, block placement left latches of the
# form `@%p bra EXIT; bra.uni LOOP` (two branches per iteration, and a latch
# ptxas does not unroll), six of them in this kernel.
# CHECK-LABEL: .entry softmax
# CHECK-NOT: bra.uni
# CHECK: ret;
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

# ARGS: ptx %s --arch sm_90 --fits32
# A strided loop whose trip count is known only at run time, one load and
# an expf per iteration (bench/gpu softmax's sum), is unrolled 4 times after
# a remainder loop, as nvcc unrolls it (LLVM's own NVPTX threshold stopped
# at 2): five expf, one in the remainder and four in the loop (were three).
# A grid-stride loop with more than two loads per step keeps LLVM's choice
# (here: not unrolled, three loads): its loads are in flight together.
# CHECK-LABEL: .entry row_sum
# CHECK-COUNT-5: ex2.approx.ftz.f32
# CHECK-NOT: ex2.approx
# CHECK: ret;
# CHECK-LABEL: .entry grid_sum
# CHECK-COUNT-3: ld.global.f32
# CHECK-NOT: ld.global.f32
# CHECK: ret;
import math

from numba import cuda, float32

WARP = 32


@cuda.jit("void(float32[:, ::1], float32[::1], float32)")
def row_sum(x, out, m):
    row = cuda.grid(1) // WARP
    lane = cuda.threadIdx.x % WARP
    if row >= x.shape[0]:
        return
    s = float32(0.0)
    for j in range(lane, x.shape[1], WARP):
        s += math.exp(x[row, j] - m)
    out[row] = s


@cuda.jit("void(float32[::1], float32[::1])")
def grid_sum(x, out):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    s = float32(0.0)
    for k in range(i, x.size // 3, step):
        s += x[3 * k] * x[3 * k + 1] + math.exp(x[3 * k + 2])
    out[i] = s

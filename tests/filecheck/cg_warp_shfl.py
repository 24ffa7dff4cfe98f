# ARGS: ptx %s:wsum --sig "void(float32[::1], float64[::1])" --arch sm_80 --emit ptx
# A warp-shuffle reduction: 32-bit shuffles are shfl.sync.down.b32 with
# clamp 31; float64 goes as two of them; shfl_up clamps at 0; votes.
# CHECK: .entry
# CHECK: shfl.sync.down.b32 {{.*}}, 16, 31, -1;
# CHECK: shfl.sync.up.b32 {{.*}}, 1, 0, -1;
# CHECK: shfl.sync.down.b32
# CHECK: shfl.sync.down.b32
# CHECK: vote.sync.ballot.b32
# CHECK: ret;
from numba import cuda


@cuda.jit
def wsum(x, y):
    i = cuda.grid(1)
    x[i] += cuda.shfl_down_sync(0xffffffff, x[i], 16)
    x[i] += cuda.shfl_up_sync(0xffffffff, x[i], 1)
    y[i] += cuda.shfl_down_sync(0xffffffff, y[i], 8)
    if cuda.ballot_sync(0xffffffff, x[i] > 0) == 0:
        y[i] = 0.0

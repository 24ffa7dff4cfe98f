"""Guard corpus: warp intrinsics (shuffles of every kind, votes, ballot,
activemask, match) and shared-memory block patterns."""
# BENCH row=warp_shfl_down_sum kernel=warp_shfl_down_sum grid=131072 block=256 a=in:float32:33554432:111:0:1 a=out:float32:1048576
# BENCH row=warp_shfl_up_scan kernel=warp_shfl_up_scan grid=131072 block=256 a=in:int32:33554432:112:0:100 a=out:int32:33554432
# BENCH row=warp_shfl_idx_xor kernel=warp_shfl_idx_xor grid=131072 block=256 a=in:float64:33554432:113:-1:1 a=out:float64:33554432
# BENCH row=warp_votes kernel=warp_votes grid=131072 block=256 a=in:float32:33554432:114:0:1 a=out:int32:1048576
# BENCH row=warp_match_all kernel=warp_match_all grid=131072 block=256 a=in:int32:33554432:115:0:4 a=out:int32:33554432
# BENCH row=shared_block_sum_f64 kernel=shared_block_sum_f64 grid=131072 block=256 a=in:float64:33554432:116:0:1 a=out:float64:131072
# BENCH row=shared_transpose kernel=shared_transpose grid=256,256 block=32,8 a=in:float32:8192x8192:117:0:1 a=out:float32:8192x8192
# BENCH row=shared_halo_1d kernel=shared_halo_1d grid=131072 block=256 a=in:float32:33554432:118:0:1 a=out:float32:33554432
from numba import cuda, float32, float64

FULL = 0xffffffff


@cuda.jit("void(float32[::1], float32[::1])")
def warp_shfl_down_sum(x, out):
    i = cuda.grid(1)
    v = x[i] if i < x.size else float32(0.0)
    off = 16
    while off > 0:
        v += cuda.shfl_down_sync(FULL, v, off)
        off //= 2
    if cuda.laneid == 0:
        out[i // 32] = v


@cuda.jit("void(int32[::1], int32[::1])")
def warp_shfl_up_scan(x, out):
    i = cuda.grid(1)
    v = x[i]
    lane = cuda.laneid
    d = 1
    while d < 32:
        t = cuda.shfl_up_sync(FULL, v, d)
        if lane >= d:
            v += t
        d *= 2
    out[i] = v


@cuda.jit("void(float64[::1], float64[::1])")
def warp_shfl_idx_xor(x, out):
    i = cuda.grid(1)
    v = x[i]
    first = cuda.shfl_sync(FULL, v, 0)
    mirror = cuda.shfl_xor_sync(FULL, v, 31)
    out[i] = v * first - mirror


@cuda.jit("void(float32[::1], int32[::1])")
def warp_votes(x, out):
    i = cuda.grid(1)
    big = x[i] > float32(0.5)
    b = cuda.ballot_sync(FULL, big)
    a = cuda.all_sync(FULL, x[i] > float32(0.01))
    n = cuda.any_sync(cuda.activemask(), x[i] > float32(0.99))
    if cuda.laneid == 0:
        out[i // 32] = cuda.popc(b) * 4 + a * 2 + n


@cuda.jit("void(int32[::1], int32[::1])")
def warp_match_all(x, out):
    i = cuda.grid(1)
    m = cuda.match_any_sync(FULL, x[i])
    m2, pred = cuda.match_all_sync(FULL, x[i] // 8)
    out[i] = cuda.popc(m) + (100 if pred else 0) + cuda.clz(m2)


@cuda.jit("void(float64[::1], float64[::1])")
def shared_block_sum_f64(x, out):
    s = cuda.shared.array(256, float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = x[i] if i < x.size else 0.0
    cuda.syncthreads()
    step = 128
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        out[cuda.blockIdx.x] = s[0]


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def shared_transpose(a, b):
    tile = cuda.shared.array((32, 33), float32)
    bx = cuda.blockIdx.x * 32
    by = cuda.blockIdx.y * 32
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    for k in range(0, 32, 8):
        tile[ty + k, tx] = a[by + ty + k, bx + tx]
    cuda.syncthreads()
    for k in range(0, 32, 8):
        b[bx + ty + k, by + tx] = tile[tx, ty + k]


@cuda.jit("void(float32[::1], float32[::1])")
def shared_halo_1d(x, out):
    s = cuda.shared.array(258, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    n = x.size
    s[t + 1] = x[i]
    if t == 0:
        s[0] = x[i - 1] if i > 0 else float32(0.0)
    if t == 255:
        s[257] = x[i + 1] if i + 1 < n else float32(0.0)
    cuda.syncthreads()
    out[i] = float32(0.25) * s[t] + float32(0.5) * s[t + 1] + float32(0.25) * s[t + 2]

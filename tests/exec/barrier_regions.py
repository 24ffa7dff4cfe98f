"""Barriers in the places a split at syncthreads must handle (the CPU
target runs such kernels as loops over the block's threads between
barriers): in a uniform while loop, in nested loops, several in a row,
inside a device function, with values (float, bool, int, a local array)
live across them, threads that return before a barrier, a 3-d block, and
syncthreads_count/and/or (their results combine every thread's predicate)."""
from numba import cuda, float32, float64, int32, int64

# RUN: tree_sum --grid 2 --block 64 x=arange:int32:128 out=zeros:int32:2
# EXPECT: out: int32[2] [2016, 6112] sum=8128 crc=ec43304b
#   (computed in Python from: [sum(range(64)), sum(range(64, 128))])

# RUN: carried --grid 1 --block 32 out=zeros:float64:32
# EXPECT: out: float64[32] [14, 35, 28, ..., 109] sum=4848 crc=63c67e53
#   (computed in Python from: [sum(float((t + 1) % 32 + r) * (2.0 if t % 2 else 1.0) for r in range(4)) + 3 * t + 4 for t in range(32)])

# RUN: three_d --grid 1 --block 4,2,2 out=zeros:int32:16
# EXPECT: out: int32[16] [315, 304, 293, ..., 150] sum=3720 crc=e5096d43
#   (computed in Python from: [11 * (15 - k) + 150 for k in range(16)])

# RUN: early_exit --grid 2 --block 32 x=arange:float32:64 out=zeros:float32:64 n=40
# EXPECT: out: float32[64] [1, 2, 3, ..., 0] sum=746 crc=b135b2c7
#   (computed in Python from: [(-1.0 if i % 32 == 31 or i + 1 >= 40 else float(i + 1)) if i < 40 else 0.0 for i in range(64)])

# RUN: via_device --grid 1 --block 32 out=zeros:int32:32
# EXPECT: out: int32[32] [331, 332, 333, ..., 362] sum=11088 crc=1c69b4bd
#   (computed in Python from: [331 + t for t in range(32)])

# RUN: nested --grid 1 --block 16 out=zeros:int64:16
# EXPECT: out: int64[16] [31563, 41193, 50823, ..., 21933] sum=1208928 crc=2a79a83f
#   (computed in Python from: [sum(10 ** b * sum((t + b) % 16 * b + a for a in range(3)) for b in range(4)) for t in range(16)])

# RUN: votes --grid 1 --block 64 x=arange:int32:64 out=zeros:int64:64
# EXPECT: out: int64[64] [12913, 12913, 12913, ..., 12913] sum=826432 crc=605b4fff
#   (computed in Python from: [sum(100 * sum(v > r * 20 for v in range(64)) + 10 * all(v >= r for v in range(64)) + any(v > 60 + r for v in range(64)) for r in range(3))] * 64)

# RUN: counted --grid 1 --block 64 x=arange:float32:64 out=zeros:float32:64
# EXPECT: out: float32[64] [3339, 3286, 3233, ..., 0] sum=106848 crc=46abb879
#   (computed in Python from: [float((63 - t) * 53) for t in range(64)])


@cuda.jit
def tree_sum(x, out):
    sh = cuda.shared.array(64, int32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    sh[t] = x[i]
    cuda.syncthreads()
    s = cuda.blockDim.x // 2
    while s > 0:
        if t < s:
            sh[t] += sh[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        out[cuda.blockIdx.x] = sh[0]


@cuda.jit
def carried(out):
    sh = cuda.shared.array(32, float64)
    t = cuda.threadIdx.x
    acc = 0.0
    odd = t % 2 == 1
    k = t * 3
    for r in range(4):
        sh[t] = t + r
        cuda.syncthreads()
        acc += sh[(t + 1) % 32] * (2.0 if odd else 1.0)
        cuda.syncthreads()
        k += 1
    out[t] = acc + k


@cuda.jit
def three_d(out):
    sh = cuda.shared.array((2, 2, 4), int32)
    x = cuda.threadIdx.x
    y = cuda.threadIdx.y
    z = cuda.threadIdx.z
    lin = x + 4 * (y + 2 * z)
    sh[z, y, x] = lin
    cuda.syncthreads()
    a = sh[1 - z, 1 - y, 3 - x]
    cuda.syncthreads()
    sh[z, y, x] = a * 10
    cuda.syncthreads()
    out[lin] = sh[z, y, x] + sh[0, 0, 0] + a


@cuda.jit
def early_exit(x, out, n):
    sh = cuda.shared.array(32, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    if i >= n:
        return
    sh[t] = x[i]
    cuda.syncthreads()
    j = t + 1
    if i + 1 < n and j < 32:
        out[i] = sh[j]
    else:
        out[i] = -1.0


@cuda.jit(device=True)
def stage(sh, t, v):
    sh[t] = v
    cuda.syncthreads()
    return sh[31 - t]


@cuda.jit
def via_device(out):
    sh = cuda.shared.array(32, int32)
    t = cuda.threadIdx.x
    a = stage(sh, t, t + 100)
    cuda.syncthreads()
    b = stage(sh, t, a * 2)
    out[t] = a + b


@cuda.jit
def nested(out):
    sh = cuda.shared.array(16, int64)
    loc = cuda.local.array(4, int64)
    t = cuda.threadIdx.x
    for a in range(4):
        loc[a] = 0
    for a in range(3):
        for b in range(4):
            sh[t] = t * b + a
            cuda.syncthreads()
            loc[b] += sh[(t + b) % 16]
            cuda.syncthreads()
    out[t] = loc[0] + 10 * loc[1] + 100 * loc[2] + 1000 * loc[3]


@cuda.jit
def votes(x, out):
    i = cuda.grid(1)
    total = 0
    for r in range(3):
        c = cuda.syncthreads_count(int32(x[i] > r * 20))
        a = cuda.syncthreads_and(int32(x[i] >= r))
        o = cuda.syncthreads_or(int32(x[i] > 60 + r))
        total += c * 100 + a * 10 + o
    out[i] = total


@cuda.jit
def counted(x, out):
    sh = cuda.shared.array(64, float32)
    t = cuda.threadIdx.x
    sh[t] = x[t]
    n = cuda.syncthreads_count(int32(x[t] > 10))
    v = sh[63 - t]
    cuda.syncthreads()
    out[t] = v * n

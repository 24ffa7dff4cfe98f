"""kjit run --grid cover:NAME: as many blocks of --block as cover the array's
shape in each dimension, (n + tpb - 1) // tpb, as a Numba user computes
them.  Each kernel writes gridDim so the arithmetic is seen, and a cover of
every element (each thread inside the shape writes 1) shows nothing is left
out.  Expected values from Python's integer arithmetic."""
from numba import cuda


@cuda.jit
def dims1(a, g):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = 1
    if i == 0:
        g[0] = cuda.gridDim.x
        g[1] = cuda.gridDim.y
        g[2] = cuda.gridDim.z


@cuda.jit
def dims2(a, g):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = 1
    if i == 0 and j == 0:
        g[0] = cuda.gridDim.x
        g[1] = cuda.gridDim.y
        g[2] = cuda.gridDim.z


@cuda.jit
def dims3(a, g):
    i, j, k = cuda.grid(3)
    if i < a.shape[0] and j < a.shape[1] and k < a.shape[2]:
        a[i, j, k] = 1
    if i == 0 and j == 0 and k == 0:
        g[0] = cuda.gridDim.x
        g[1] = cuda.gridDim.y
        g[2] = cuda.gridDim.z

# RUN: dims1 --grid cover:a --block 256 a=zeros:int32:1000 g=zeros:int64:3
# EXPECT: a: int32[1000] [1, 1, 1, ..., 1] sum=1000 crc=78a2f94f
#   (computed in Python from: [1] * 1000)
# EXPECT: g: int64[3] [4, 1, 1] sum=6 crc=a805c570
#   (computed in Python from: [(1000 + 255) // 256, 1, 1])
# RUN: dims1 --grid cover:a --block 100 a=zeros:int32:1000 g=zeros:int64:3
# EXPECT: g: int64[3] [10, 1, 1] sum=12 crc=ca35ab9e
#   (computed in Python from: [10, 1, 1])
# RUN: dims2 --grid cover:a --block 16,8 a=zeros:int32:33x17 g=zeros:int64:3
# EXPECT: a: int32[33x17] [1, 1, 1, ..., 1] sum=561 crc=0923f7d0
#   (computed in Python from: [1] * (33 * 17))
# EXPECT: g: int64[3] [3, 3, 1] sum=7 crc=1ebdd764
#   (computed in Python from: [(33 + 15) // 16, (17 + 7) // 8, 1])
# RUN: dims3 --grid cover:a --block 4,4,2 a=zeros:int32:9x5x3 g=zeros:int64:3
# EXPECT: a: int32[9x5x3] [1, 1, 1, ..., 1] sum=135 crc=612b6807
#   (computed in Python from: [1] * (9 * 5 * 3))
# EXPECT: g: int64[3] [3, 2, 2] sum=7 crc=3e5a4116
#   (computed in Python from: [(9 + 3) // 4, (5 + 3) // 4, (3 + 1) // 2])
# RUN: dims1 --grid cover:g --block 256 a=zeros:int32:1000 g=zeros:int64:3
# EXPECT: g: int64[3] [1, 1, 1] sum=3 crc=40263e08
#   (computed in Python from: [1, 1, 1])
# RUN: dims1 --grid cover:nope --block 256 a=zeros:int32:10 g=zeros:int64:3
# EXPECT-EXIT: 2
# RUN: dims1 --grid cover:a --block 256 a=zeros:int32:0 g=zeros:int64:3
# EXPECT-EXIT: 2
# --block auto: the block with the best occupancy (for sm_80 without a GPU),
# and enough of them to cover the array whatever size that is.
# RUN: dims1 --block auto --grid cover:a a=zeros:int32:5000 g=zeros:int64:3
# EXPECT: a: int32[5000] [1, 1, 1, ..., 1] sum=5000 crc=53f15e8e
#   (computed in Python from: [1] * 5000)
# --profile: the array arguments' bytes (1000 int32 + 3 int64 = 4024) over
# the kernel time; occupancy only on the cuda target.
# RUN: dims1 --block 128 --grid cover:a --profile a=zeros:int32:1000 g=zeros:int64:3
# EXPECT: profile: kernel
# EXPECT: arrays 4024 B

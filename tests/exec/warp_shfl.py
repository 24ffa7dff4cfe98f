"""shfl_xor_sync butterfly (every lane ends with the warp's sum), and
shfl_sync / shfl_up_sync / shfl_down_sync of int64 values (two 32-bit
shuffles): a broadcast from lane 5, a shift up by one (lane 0 keeps its
own value), a shift down by 3 (lanes 29..31 keep theirs)."""
from numba import cuda, int64

# RUN: butterfly --grid 1 --block 64 bf=zeros:int64:64 idx=zeros:int64:64 up=zeros:int64:64 down=zeros:int64:64
# EXPECT: bf: int64[64] [496, 496, 496, ..., 1520] sum=64512 crc=3eba3bf0
#   (computed in Python from: [sum(range(32 * (i // 32), 32 * (i // 32) + 32)) for i in range(64)])
# EXPECT: idx: int64[64] [42949672967, 42949672967, 42949672967, ..., 317827579911] sum=1.154487209e+13 crc=9a02040d
#   (computed in Python from: [(32 * (i // 32) + 5) * (1 << 33) + 7 for i in range(64)])
# EXPECT: up: int64[64] [7, 7, 8589934599, ..., 532575944711] sum=1.678473219e+13 crc=083baa1a
#   (computed in Python from: [(i - (i % 32 > 0)) * (1 << 33) + 7 for i in range(64)])
# EXPECT: down: int64[64] [25769803783, 34359738375, 42949672967, ..., 541165879303] sum=1.881195676e+13 crc=48be256a
#   (computed in Python from: [(i + 3 * (i % 32 < 29)) * (1 << 33) + 7 for i in range(64)])


@cuda.jit
def butterfly(bf, idx, up, down):
    i = cuda.grid(1)
    v = int64(i)
    m = 16
    while m > 0:
        v += cuda.shfl_xor_sync(0xffffffff, v, m)
        m //= 2
    bf[i] = v
    big = int64(i) * (1 << 33) + 7
    idx[i] = cuda.shfl_sync(0xffffffff, big, 5)
    up[i] = cuda.shfl_up_sync(0xffffffff, big, 1)
    down[i] = cuda.shfl_down_sync(0xffffffff, big, 3)

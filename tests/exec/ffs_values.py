"""cuda.ffs: 1 + the index of the lowest set bit, 0 for 0, on int32, uint32
and int64 values (negative ones, the sign bit alone, powers of two)."""
from numba import cuda, int32, int64, uint32

# RUN: ffs_all --grid 1 --block 8 out=zeros:int64:24
# EXPECT: out: int64[24] [0, 1, 3, ..., 63] sum=369 crc=365f632f
#   (computed in Python from: [next((b + 1 for b in range(64) if (v >> b) & 1), 0) for v in [(0, 1, 12, 0x80000000, 0xfffffff0, 6 << 20, 0x7fffffff, 0x40000000)[i] & ((1 << (32 if k < 2 else 64)) - 1) if k < 2 else ((0, 1, 12, -(1 << 63), -16, 6 << 40, 0x7fffffff, 1 << 62)[i] & ((1 << 64) - 1)) for k in range(3) for i in range(8)]])


@cuda.jit
def ffs_all(out):
    i = cuda.threadIdx.x
    v32 = (0, 1, 12, -0x80000000, -16, 6 << 20, 0x7fffffff, 0x40000000)
    v64 = (0, 1, 12, -(1 << 63), -16, 6 << 40, 0x7fffffff, 1 << 62)
    a = int32(0)
    b = int64(0)
    for k in range(8):
        if k == i:
            a = int32(v32[k])
            b = int64(v64[k])
    out[i] = cuda.ffs(a)
    out[8 + i] = cuda.ffs(uint32(a))
    out[16 + i] = cuda.ffs(b)

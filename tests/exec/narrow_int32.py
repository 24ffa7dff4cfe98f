"""32-bit arithmetic only where it is provably the same (docs/internals.md,
"32-bit arithmetic where provably the same"): range() counters next to
2**31 and -2**31 (products that overflow 32 bits), extents of 2**31 - 1 and
2**31 + 1 (a zero-size array costs nothing) on both sides of the launch
fact, and 2-D and strided (negative-step) views indexed with 32-bit
offsets."""
from numba import cuda

# RUN: near_limit --grid 1 --block 1 2147483640 2147483647 out=zeros:int64:16
# EXPECT: out: int64[16] [6442450920, 6442450923, 6442450926, ..., 0] sum=6.227702567e+10 crc=b1787703
#   (computed in Python from: [3*i for i in range(2147483640, 2147483647)] + [2*j for j in range(2147483647, 2147483640, -2)] + [11] + [0]*4)

# RUN: near_limit --grid 1 --block 1 2147483645 2147483649 out=zeros:int64:16
# EXPECT: out: int64[16] [6442450935, 6442450938, 6442450941, ..., 0] sum=3.435973836e+10 crc=89656e91
#   (computed in Python from: [3*i for i in range(2147483645, 2147483649)] + [2*j for j in range(2147483649, 2147483645, -2)] + [6] + [0]*9)

# RUN: near_limit --grid 1 --block 1 -2147483648 -2147483643 out=zeros:int64:16
# EXPECT: out: int64[16] [-6442450944, -6442450941, -6442450938, ..., 0] sum=-4.509715655e+10 crc=884aad98
#   (computed in Python from: [3*i for i in range(-2147483648, -2147483643)] + [2*j for j in range(-2147483643, -2147483648, -2)] + [8] + [0]*7)

# RUN: int32_bounds --grid 1 --block 1 int32:2147483640 int32:2147483647 out=zeros:int64:16
# EXPECT: out: int64[16] [2147483640, 2147483642, 2147483644, ..., 11] sum=2.362232009e+10 crc=38d5e4a5
#   (computed in Python from: list(range(2147483640, 2147483647, 2)) + list(range(2147483647, 2147483640, -1)) + [0]*4 + [11])

# RUN: int32_bounds --grid 1 --block 1 int32:-2147483648 int32:-2147483644 out=zeros:int64:16
# EXPECT: out: int64[16] [-2147483648, -2147483646, -2147483644, ..., 6] sum=-1.288490187e+10 crc=819dc40b
#   (computed in Python from: list(range(-2147483648, -2147483644, 2)) + list(range(-2147483644, -2147483648, -1)) + [0]*9 + [6])

# RUN: last_rows --grid 1 --block 1 a=zeros:float32:2147483649x0 out=zeros:int64:4
# EXPECT: out: int64[4] [2147483647, 2147483648, 0, 0] sum=4294967295 crc=202e1ff2
#   (computed in Python from: [2147483647, 2147483648, 0, 0])

# RUN: last_rows --grid 1 --block 1 a=zeros:float32:2147483647x0 out=zeros:int64:4
# EXPECT: out: int64[4] [2147483645, 2147483646, 0, 0] sum=4294967291 crc=c5f0421f
#   (computed in Python from: [2147483645, 2147483646, 0, 0])

# RUN: views2d --grid 1 --block 8,8 a=arange:int64:6x8 out=zeros:int64:6x4
# EXPECT: out: int64[6x4] [82, 87, 92, ..., 57] sum=1668 crc=6a49aff7
#   (computed in Python from: [2 * (8 * (5 - i) + 1 + 2 * j) + 8 * i + j for i in range(6) for j in range(4)])


@cuda.jit
def near_limit(m, n, out):
    k = 0
    for i in range(m, n):
        out[k] = i * 3
        k += 1
    for j in range(n, m, -2):
        out[k] = j + j
        k += 1
    out[k] = k


@cuda.jit
def int32_bounds(m, n, out):
    # int32 bounds: the first counter's last step passes 2**31 - 1 (kept
    # 64-bit), the second's lowest value is the stop -2**31 (narrowed)
    k = 0
    for i in range(m, n, 2):
        out[k] = i
        k += 1
    for j in range(n, m, -1):
        if k < 12:
            out[k] = j
        k += 1
    out[15] = k


@cuda.jit
def last_rows(a, out):
    k = 0
    for i in range(a.shape[0] - 2, a.shape[0]):
        out[k] = i
        k += 1


@cuda.jit
def views2d(a, out):
    i, j = cuda.grid(2)
    v = a[::-1, 1::2]
    if i < v.shape[0] and j < v.shape[1]:
        out[i, j] = v[i, j] * 2 + a[i, j]

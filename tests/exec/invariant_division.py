"""Integer division and remainder by a divisor that does not change in
the loop: a 2-D array walked by a grid-stride loop over the flat index
(`k // cols`, `k % cols`), signed keys of both signs and past 2^32 taken
modulo and floor-divided by a scalar (1, 7, 0, past 2^32), and uint64
values around 2^32 divided by a uint64 scalar, and the remainder of a loop
counter itself (the numerator a phi of the loop's only block).  On the GPU these loops
divide through a reciprocal computed once before the loop, with the
original division for operands past 32 bits (codegen/cg_invdiv.c); the
results are Python's on every path."""
from numba import cuda, uint64

# RUN: walk2d --grid 3 --block 32 out=zeros:int64:37x29
# EXPECT: out: int64[37x29] [0, 1, 2, ..., 36028] sum=19329022 crc=c9fb8378
#   (computed in Python from: [r * 1000 + c for r in range(37) for c in range(29)])
# RUN: keymod --grid 1 --block 64 out=zeros:int64:200x2 nb=7
# EXPECT: out: int64[200x2] [-705467366, 2, -687830682, ..., 5] sum=2.098765418e+11 crc=9bdbb2a9
#   (computed in Python from: [v for j in range(200) for v in (((j - 40) * 123456789) // 7, ((j - 40) * 123456789) % 7)])
# RUN: keymod --grid 1 --block 64 out=zeros:int64:200x2 nb=1
# EXPECT: out: int64[200x2] [-4938271560, 0, -4814814771, ..., 0] sum=1.469135789e+12 crc=08894b07
#   (computed in Python from: [v for j in range(200) for v in ((j - 40) * 123456789, 0)])
# RUN: keymod --grid 1 --block 64 out=zeros:int64:200x2 nb=-3
# EXPECT: out: int64[200x2] [1646090520, 0, 1604938257, ..., 0] sum=-4.897119297e+11 crc=50cc09eb
#   (computed in Python from: [v for j in range(200) for v in (((j - 40) * 123456789) // -3, ((j - 40) * 123456789) % -3)])
# RUN: keymod --grid 1 --block 64 out=zeros:int64:200x2 nb=5000000000
# EXPECT: out: int64[200x2] [-1, 61728440, -1, ..., 4629629451] sum=4.941357893e+11 crc=0d5f689e
#   (computed in Python from: [v for j in range(200) for v in (((j - 40) * 123456789) // 5000000000, ((j - 40) * 123456789) % 5000000000)])
# RUN: keymod --grid 1 --block 64 out=zeros:int64:200x2 nb=0
# EXPECT: out: int64[200x2] [0, 0, 0, ..., 0] sum=0 crc=cb7b98a6
#   (computed in Python from: [0 for j in range(200) for v in (0, 1)])
# RUN: udiv --grid 1 --block 32 out=zeros:uint64:96x2 m=uint64:4294967295
# EXPECT: out: uint64[96x2] [0, 4294967248, 0, ..., 48] sum=2.01863463e+11 crc=3526fc1f
#   (computed in Python from: [v for j in range(96) for v in ((4294967248 + j) // 4294967295, (4294967248 + j) % 4294967295)])
# RUN: udiv --grid 1 --block 32 out=zeros:uint64:96x2 m=uint64:3
# EXPECT: out: uint64[96x2] [1431655749, 1, 1431655749, ..., 0] sum=1.374389535e+11 crc=2dd7cb1d
#   (computed in Python from: [v for j in range(96) for v in ((4294967248 + j) // 3, (4294967248 + j) % 3)])
# RUN: counter --grid 1 --block 32 out=zeros:int64:100 d=7
# EXPECT: out: int64[100] [0, 1, 2, ..., 1] sum=295 crc=f1dee1ed
#   (computed in Python from: [k % 7 for k in range(100)])
# RUN: counter --grid 1 --block 32 out=zeros:int64:100 d=-5
# EXPECT: out: int64[100] [0, -4, -3, ..., -1] sum=-200 crc=df1fccb9
#   (computed in Python from: [k % -5 for k in range(100)])


@cuda.jit
def walk2d(out):
    rows, cols = out.shape
    for k in range(cuda.grid(1), rows * cols, cuda.gridsize(1)):
        r = k // cols
        c = k % cols
        out[r, c] = r * 1000 + c


@cuda.jit
def keymod(out, nb):
    for j in range(cuda.threadIdx.x, out.shape[0], cuda.blockDim.x):
        key = (j - 40) * 123456789
        out[j, 0] = key // nb
        out[j, 1] = key % nb


@cuda.jit
def udiv(out, m):
    for j in range(cuda.threadIdx.x, out.shape[0], cuda.blockDim.x):
        v = uint64(4294967248) + uint64(j)
        out[j, 0] = v // m
        out[j, 1] = v % m


@cuda.jit
def counter(out, d):
    if cuda.grid(1) == 0:
        k = 0
        while k < out.size:
            out[k] = k % d
            k += 1

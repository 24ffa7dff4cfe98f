"""Small cuda.local.array's indexed with values known only at run time: a
per-thread histogram (int32, 8 bins), a float64 ring of 4 read back at
shifting indexes, int8 counters of 5 with a negative index (Python's
wraparound), and a float32 array of 6 filled in a loop then read at a
data-dependent index.  On the GPU these are kept in registers (one scalar
per element, select chains: codegen/cg_localsel.c); the results are the
same as through memory."""
from numba import cuda, float32, float64, int8, int32

# RUN: hist8 --grid 2 --block 32 a=arange:int32:1024 out=zeros:int32:512
# EXPECT: out: int32[512] [3, 1, 2, ..., 2] sum=1024 crc=2b02b6c1
#   (computed in Python from: [sum(1 for k in range(16) if ((i * 16 + k) * 7 + (i * 16 + k) // 3) % 8 == b) for i in range(64) for b in range(8)])
# RUN: ring4 --grid 1 --block 16 out=zeros:float64:16
# EXPECT: out: float64[16] [7.5, 11.5, 17.5, ..., 83.5] sum=720 crc=5c41c136
#   (computed in Python from: [sum((i + ((i + 3 * s) % 4)) * 0.5 for s in range(10)) for i in range(16)])
# RUN: count5 --grid 1 --block 8 out=zeros:int64:40
# EXPECT: out: int64[40] [0, 12, 0, ..., 2] sum=96 crc=db34f92f
#   (computed in Python from: [sum(1 for s in range(12) if ((i * s + 2) % 5 - 1) % 5 == b) for i in range(8) for b in range(5)])
# RUN: pick6 --grid 1 --block 12 out=zeros:float32:12
# EXPECT: out: float32[12] [0.25, 4.75, 7.75, ..., 33.25] sum=213 crc=71bba6b9
#   (computed in Python from: [(i * 6 + (i * 5) % 6) * 0.25 + (i * 6 + (i + 1) % 6) * 0.25 for i in range(12)])


@cuda.jit
def hist8(a, out):
    i = cuda.grid(1)
    if i * 16 < a.size:
        bins = cuda.local.array(8, int32)
        for b in range(8):
            bins[b] = 0
        for k in range(16):
            v = a[i * 16 + k]
            bins[(v * 7 + v // 3) % 8] += 1
        for b in range(8):
            out[i * 8 + b] = bins[b]


@cuda.jit
def ring4(out):
    i = cuda.threadIdx.x
    r = cuda.local.array(4, float64)
    for k in range(4):
        r[k] = (i + k) * 0.5
    acc = 0.0
    for s in range(10):
        acc += r[(i + 3 * s) % 4]
    out[i] = acc


@cuda.jit
def count5(out):
    i = cuda.threadIdx.x
    c = cuda.local.array(5, int8)
    for b in range(5):
        c[b] = 0
    for s in range(12):
        c[(i * s + 2) % 5 - 1] += int8(1)
    for b in range(5):
        out[i * 5 + b] = c[b]


@cuda.jit
def pick6(out):
    i = cuda.threadIdx.x
    v = cuda.local.array(6, float32)
    for k in range(6):
        v[k] = float32(i * 6 + k) * float32(0.25)
    out[i] = v[(i * 5) % 6] + v[(i + 1) % 6]

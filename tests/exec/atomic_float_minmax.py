"""cuda.atomic.max/min on float arrays, as Numba's: the element is read and a
compare-and-swap is tried only while the value would change it (many threads
on few elements: float32 and float64 bins), a NaN element stays NaN, a NaN
value leaves the element as it is, and the result is the old value."""
import math

from numba import cuda, float32

# RUN: bins_f32 --grid 2 --block 128 hi=full:float32:4:-1000 lo=full:float32:4:1000
# EXPECT: hi: float32[4] [49.5, 48.5, 49.5, 49.5] sum=197 crc=27f90589
#   (computed in Python from: [max(((i * 37) % 101) - 50.5 for i in range(256) if i % 4 == k) for k in range(4)])
# EXPECT: lo: float32[4] [-50.5, -50.5, -50.5, -49.5] sum=-201 crc=f37802c1
#   (computed in Python from: [min(((i * 37) % 101) - 50.5 for i in range(256) if i % 4 == k) for k in range(4)])
# RUN: bins_f64 --grid 2 --block 128 hi=full:float64:3:-1000 lo=full:float64:3:1000
# EXPECT: hi: float64[3] [12, 11.75, 12] sum=35.75 crc=9be378e3
#   (computed in Python from: [max(((i * 53) % 97) * 0.25 - 12.0 for i in range(256) if i % 3 == k) for k in range(3)])
# EXPECT: lo: float64[3] [-12, -12, -12] sum=-36 crc=2c685e76
#   (computed in Python from: [min(((i * 53) % 97) * 0.25 - 12.0 for i in range(256) if i % 3 == k) for k in range(3)])
# RUN: nan_rules --grid 1 --block 8 a=zeros:float64:4 b=zeros:float64:3 old=zeros:float64:3
# EXPECT: a: float64[4] [nan, 7, nan, 1] sum=nan crc=afb3eda7
#   (computed in Python from: [float('nan'), 7, float('nan'), 1])
# EXPECT: b: float64[3] [5, 2, 3] sum=10 crc=bb1bec55
#   (computed in Python from: [5, 2, 3])
# EXPECT: old: float64[3] [2, 2, 3] sum=7 crc=9e10674b
#   (computed in Python from: [2, 2, 3])


@cuda.jit
def bins_f32(hi, lo):
    i = cuda.grid(1)
    v = float32((i * 37) % 101) - float32(50.5)
    k = i % hi.size
    cuda.atomic.max(hi, k, v)
    cuda.atomic.min(lo, k, v)


@cuda.jit
def bins_f64(hi, lo):
    i = cuda.grid(1)
    v = ((i * 53) % 97) * 0.25 - 12.0
    k = i % hi.size
    cuda.atomic.max(hi, k, v)
    cuda.atomic.min(lo, k, v)


@cuda.jit
def nan_rules(a, b, old):
    i = cuda.threadIdx.x
    if i == 0:
        a[0] = math.nan
        a[2] = math.nan
        a[3] = 100.0
        b[0] = 2.0
        b[1] = 2.0
        b[2] = 3.0
    cuda.syncthreads()
    cuda.atomic.max(a, 0, float(i))  # a NaN element stays NaN
    cuda.atomic.max(a, 1, math.nan if i % 2 == 0 else float(i))  # NaN values ignored
    cuda.atomic.min(a, 2, float(i) - 3.0)
    cuda.atomic.min(a, 3, math.nan if i % 2 == 1 else float(i) + 1.0)
    if i == 0:
        old[0] = cuda.atomic.max(b, 0, 5.0)  # swapped: the old value
        old[1] = cuda.atomic.max(b, 1, 1.0)  # no change: the element
        old[2] = cuda.atomic.min(b, 2, math.nan)  # NaN value: the element

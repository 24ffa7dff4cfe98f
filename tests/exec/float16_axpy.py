"""float16 kernels: a half-precision axpy with cuda.fp16.hfma (one rounding),
and the fp16 intrinsics next to the float16 operators.  Expected values are
the exact results rounded once to float16 (half() in exec_expect.py)."""
from numba import cuda
from numba.cuda.types import float16

# RUN: haxpy --grid 2 --block 32 r=zeros:f2:50 x=arange:f2:50 y=full:f2:50:0.3 a=f2:1.7
# EXPECT: r: float16[50] [0.300049, 2, 3.70117, ..., 83.625] sum=2097.841064 crc=683ace76
#   (computed in Python from: [half(half(1.7) * k + half(0.3)) for k in range(50)])
# RUN: hops --grid 1 --block 16 out=zeros:f2:16x12 flags=zeros:int32:16
# EXPECT: out: float16[16x12] [-1.2002, -4.60156, -4.92969, ..., 1.5] sum=-92.88655853 crc=3673f07f
#   (computed in Python from: [v for k in range(16) for a in [half(k * 0.37 - 2.9)] for b in [half(1.7 - 0.23 * k)] for v in (half(a + b), half(a - b), half(a * b), half(a / b), half(a + b), half(a / b), -a, abs(b), max(a, b), min(a, b), half(half(a * b) + a), float(half(k) * half(0.1)))])
# EXPECT: flags: int32[16] [114, 114, 114, ..., 14] sum=1024 crc=ef58f919
#   (computed in Python from: [(a == b) + 2 * (a != b) + 4 * (a > b) + 8 * (a >= b) + 16 * (a < b) + 32 * (a <= b) + 64 * (a < b) + 128 * (2 * a == b + b) for k in range(16) for a in [half(k * 0.37 - 2.9)] for b in [half(1.7 - 0.23 * k)]])


@cuda.jit
def haxpy(r, x, y, a):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = cuda.fp16.hfma(a, x[i], y[i])


@cuda.jit
def hops(out, flags):
    k = cuda.threadIdx.x
    a = float16(k * 0.37 - 2.9)
    b = float16(1.7 - 0.23 * k)
    out[k, 0] = cuda.fp16.hadd(a, b)
    out[k, 1] = cuda.fp16.hsub(a, b)
    out[k, 2] = cuda.fp16.hmul(a, b)
    out[k, 3] = cuda.fp16.hdiv(a, b)
    out[k, 4] = a + b
    out[k, 5] = a / b
    out[k, 6] = cuda.fp16.hneg(a)
    out[k, 7] = cuda.fp16.habs(b)
    out[k, 8] = cuda.fp16.hmax(a, b)
    out[k, 9] = cuda.fp16.hmin(a, b)
    out[k, 10] = cuda.fp16.hadd(cuda.fp16.hmul(a, b), a)
    out[k, 11] = float16(k) * float16(0.1)
    flags[k] = (cuda.fp16.heq(a, b) + 2 * cuda.fp16.hne(a, b) + 4 * cuda.fp16.hgt(a, b)
                + 8 * cuda.fp16.hge(a, b) + 16 * cuda.fp16.hlt(a, b) + 32 * cuda.fp16.hle(a, b)
                + 64 * (a < b) + 128 * (a + a == b + b))

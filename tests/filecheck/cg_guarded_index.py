# ARGS: ptx %s --arch sm_90 --fits32
# Hillis-Steele steps unrolled at compile time (as exec/guarded_index.py).
# Under the guard `t >= off` each copy's index
# t - off is provably non-negative, so its wraparound (a shift and a mask
# before the shared load, bench/gpu scan) is gone and the load takes a
# constant offset from s[t] as in CUDA C; without the guard the wraparound
# stays, as Python's negative indices need.
# CHECK-LABEL: .entry guarded
# CHECK-NOT: shr.u64
# CHECK-NOT: and.b64
# CHECK: ld.shared.f32 {{.*}}+-4]
# CHECK-NOT: shr.u64
# CHECK-NOT: and.b64
# CHECK: ld.shared.f32 {{.*}}+-8]
# CHECK-NOT: shr.u64
# CHECK-NOT: and.b64
# CHECK: ld.shared.f32 {{.*}}+-16]
# CHECK-NOT: shr.u64
# CHECK-NOT: and.b64
# CHECK: ret;
# CHECK-LABEL: .entry wraps
# CHECK: shr.u64
# CHECK: and.b64
# CHECK: ld.shared.f32 {{.*}}+-4]
# CHECK: ret;
from numba import cuda, float32

TPB = 8
ZERO = float32(0.0)

# RUN: guarded --grid 1 --block 8 x=arange:float32:8 out=zeros:float32:8
# EXPECT: out: float32[8] [0, 1, 3, ..., 28] sum=84 crc=6b04c49e
#   (computed in Python from: [0, 1, 3, 6, 10, 15, 21, 28])
# RUN: wraps --grid 1 --block 8 x=arange:float32:8 out=zeros:float32:8
# EXPECT: out: float32[8] [18, 14, 10, ..., 22] sum=112 crc=9ae48ad4
#   (computed in Python from: (lambda s: [s[t] + s[t - 1] + s[t - 2] + s[t - 3] for t in range(8)])(list(range(8))))


@cuda.jit("void(float32[::1], float32[::1])")
def guarded(x, out):
    s = cuda.shared.array(TPB, dtype=float32)
    t = cuda.threadIdx.x
    s[t] = x[t]
    cuda.syncthreads()
    off = 1
    while off < TPB:
        v = s[t - off] if t >= off else ZERO
        cuda.syncthreads()
        s[t] += v
        cuda.syncthreads()
        off *= 2
    out[t] = s[t]


@cuda.jit("void(float32[::1], float32[::1])")
def wraps(x, out):
    s = cuda.shared.array(TPB, dtype=float32)
    t = cuda.threadIdx.x
    s[t] = x[t]
    cuda.syncthreads()
    off = 1
    while off < TPB // 2:
        v = s[t - off]
        cuda.syncthreads()
        s[t] += v
        cuda.syncthreads()
        off *= 2
    out[t] = s[t]

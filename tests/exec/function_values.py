"""Functions held in variables and called, where the variable is a
compile-time constant as Numba resolves it: a module variable bound to a
device function (rebound to itself, `op = op`, as numba-cuda's test
harness writes it) or to a CUDA intrinsic (numba-cuda's
test_comparison_intrinsics binds `cmpfn = heq`), a local bound to a device
function, and loops over a tuple of device functions, a module one and a
display, unrolled as Numba's literal_unroll does."""
from numba import cuda, literal_unroll
from numba.cuda.bf16 import bfloat16, heq, hlt


@cuda.jit(device=True)
def twice(x):
    return 2 * x


@cuda.jit(device=True)
def plus1(x):
    return x + 1


op = twice
op = op
cmp_eq = heq
cmp_lt = hlt
FNS = (twice, plus1, twice)


@cuda.jit
def k(out, a, b):
    out[0] = op(a)
    out[1] = cmp_eq(bfloat16(a), bfloat16(b))
    out[2] = cmp_lt(bfloat16(a), bfloat16(b))
    g = plus1
    out[3] = g(b)
    acc = 0.0
    for f in literal_unroll(FNS):
        acc += f(a)
    out[4] = acc
    for f in literal_unroll((plus1, twice)):
        acc = f(acc)
    out[5] = acc


# RUN: k --grid 1 --block 1 out=zeros:f64:6 a=4.0 b=5.0
# EXPECT: out: float64[6] [8, 0, 1, 6, 21, 44] sum=80 crc=39a8b1a0
#   (computed in Python from: [8.0, 0.0, 1.0, 6.0, 8.0 + 5.0 + 8.0, (8.0 + 5.0 + 8.0 + 1) * 2])
# RUN: k --grid 1 --block 1 out=zeros:f64:6 a=3.0 b=3.0
# EXPECT: out: float64[6] [6, 1, 0, 4, 16, 34] sum=61 crc=517d79cd
#   (computed in Python from: [6.0, 1.0, 0.0, 4.0, 6.0 + 4.0 + 6.0, (6.0 + 4.0 + 6.0 + 1) * 2])

"""Python identifiers may hold any Unicode letter: a kernel and a device
function named with non-ASCII letters compile (their symbols are escaped
for PTX and ELF) and run.  Found by the compile fuzzer: such a name made
LLVM's NVPTX printer abort."""
from numba import cuda

# RUN: größe --grid 1 --block 8 a=arange:float32:8 out=zeros:float32:8
# EXPECT: out: float32[8] [1, 3, 5, ..., 15] sum=64 crc=9cd35dac
#   (computed in Python from: [2.0 * k + 1.0 for k in range(8)])


@cuda.jit(device=True)
def δ(x):
    return x * 2 + 1


@cuda.jit
def größe(a, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = δ(a[i])

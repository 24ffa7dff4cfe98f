"""A module name rebound to itself (`cmpfn = cmpfn`, as code written around
a factory's parameters has it) keeps the value it had: a function alias
stays callable and a constant stays constant."""
from numba import cuda
from numba.cuda.bf16 import bfloat16, hlt

cmpfn = hlt
cmpfn = cmpfn
N = 4
N = N

# RUN: k --grid 1 --block 1 out=zeros:b1:1 n=zeros:i8:1 a=2.0 b=3.0
# EXPECT: out: bool[1] [True] sum=1 crc=a505df1b
#   (computed in Python from: [True])
# EXPECT: n: int64[1] [4] sum=4 crc=e168d193
#   (computed in Python from: [4])


@cuda.jit
def k(out, n, a, b):
    out[0] = cmpfn(bfloat16(a), bfloat16(b))
    n[0] = N

"""Block reduction in shared memory, then one atomic add per block into a
global total; syncthreads_count counts the odd elements."""
from numba import cuda, int64

# RUN: block_reduce --grid 16 --block 256 x=arange:int64:4096 total=zeros:int64:2
# EXPECT: total: int64[2] [8386560, 2048] sum=8388608 crc=e4fde411
#   (computed in Python from: [8386560, 2048])


@cuda.jit
def block_reduce(x, total):
    s = cuda.shared.array(256, int64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    v = x[i]
    s[t] = v
    odd = cuda.syncthreads_count(v % 2 == 1)
    step = 128
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        cuda.atomic.add(total, 0, s[0])
        cuda.atomic.add(total, 1, odd)

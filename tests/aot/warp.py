from numba import cuda


@cuda.jit("void(int32[::1])")
def warp_sum(x):
    v = x[cuda.threadIdx.x]
    v += cuda.shfl_down_sync(0xffffffff, v, 1)
    x[cuda.threadIdx.x] = v

# ARGS: ptx %s:block_sum --sig "void(float32[::1], float32[::1])" --arch sm_90 --emit ptx
# Shared memory is a .shared array, syncthreads a bar.sync, atomic.add on a
# global float array an atom.global.add.f32; sm_90 uses PTX ISA 7.8.
# CHECK: .version 7.8
# CHECK: .target sm_90
# CHECK: .shared .align 16 .b8 {{.*}}[512]
# CHECK: bar.sync 0
# CHECK: atom.global.add.f32
from numba import cuda, float32

TPB = 128


@cuda.jit
def block_sum(x, out):
    tmp = cuda.shared.array(TPB, float32)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    tmp[t] = x[i] if i < x.size else float32(0)
    cuda.syncthreads()
    s = TPB // 2
    while s > 0:
        if t < s:
            tmp[t] += tmp[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        cuda.atomic.add(out, 0, tmp[0])

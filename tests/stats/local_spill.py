# Resource usage beyond registers: a local array indexed at run time lives
# in the stack frame, a shared array sets static shared bytes and a
# barrier count, and the Black-Scholes benchmark held to 24 registers (the
# fewest ptxas allocates) spills; stats.sh compares each with ptxas -v -c.
# ARGS: ptx %s:local_array
# ARGS: ptx %s:many_live
# ARGS: ptx ../bench/gpu/kernels/black_scholes.py --max-registers 24
from numba import cuda, float32

@cuda.jit("void(float32[::1], int64)")
def local_array(out, k):
    tmp = cuda.local.array(64, float32)
    i = cuda.grid(1)
    for j in range(64):
        tmp[j] = i * j
    if i < out.size:
        out[i] = tmp[k % 64]

@cuda.jit("void(float32[::1], float32[::1])")
def many_live(x, out):
    sh = cuda.shared.array(256, float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    if i >= x.size:
        return
    a0 = x[i]; a1 = a0 * 1.5; a2 = a1 + a0; a3 = a2 * a1; a4 = a3 - a0
    a5 = a4 * a2; a6 = a5 + a3; a7 = a6 * a4; a8 = a7 - a5; a9 = a8 * a6
    b0 = a9 + a7; b1 = b0 * a8; b2 = b1 - a9; b3 = b2 * b0; b4 = b3 + b1
    sh[t] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9
    cuda.syncthreads()
    out[i] = sh[(t + 1) % 256] * (b0 + b1 + b2 + b3 + b4) + a0 * a1 * a2 * a3 * a4 * a5 * a6 * a7 * a8 * a9

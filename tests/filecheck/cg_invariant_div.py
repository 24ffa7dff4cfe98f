# ARGS: ptx %s --arch sm_90 --fits32 --grid32
# A loop that divides by a value it does not change (an extent, a scalar
# argument) divides through a reciprocal computed once before the loop
# (codegen/cg_invdiv.c): in the loop a mul.hi.u32 and one correction step
# where ptxas would expand div.u32/rem.u32 (its own reciprocal: I2F,
# MUFU.RCP, F2I) every iteration; the int64 division stays for operands
# past 32 bits (moved after the fast path).  A division outside any loop
# is left to ptxas.
# CHECK-LABEL: .entry rowmod
# CHECK: div.u32
# CHECK: ld.global.u64
# CHECK-NOT: ret;
# CHECK: mul.hi.u32
# CHECK: match.any.sync.b64
# CHECK-LABEL: .entry once
# CHECK-NOT: mul.hi.u32
# CHECK: ret;
from numba import cuda


@cuda.jit("void(int64[:, ::1], uint32[:, ::1])")
def rowmod(keys, hist):
    row = cuda.blockIdx.x
    nb = hist.shape[1]
    for j in range(cuda.threadIdx.x, keys.shape[1], cuda.blockDim.x):
        b = keys[row, j] % nb
        mask = cuda.match_any_sync(cuda.activemask(), b)
        if cuda.threadIdx.x % 32 == cuda.ffs(mask) - 1:
            cuda.atomic.add(hist, (row, b), cuda.popc(mask))


@cuda.jit("void(int64[::1], int64[::1])")
def once(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] // a.size

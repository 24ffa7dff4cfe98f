# ARGS: ptx %s:lowest --sig "void(uint32[::1], int32[::1])" --arch sm_90 --emit ptx
# cuda.ffs is straight-line code: the x == 0 case is a select, never a
# branch (a cttz defined at zero was split into a branch around it, in the
# body of every match_any_sync loop that picks a leader with ffs).
# CHECK: ld.global.u32
# CHECK-NOT: bra
# CHECK: popc.b32
# CHECK-NOT: bra
# CHECK: selp.b32
# CHECK-NOT: bra
# CHECK: st.global.u32
from numba import cuda


@cuda.jit
def lowest(m, out):
    i = cuda.grid(1)
    out[i] = cuda.ffs(m[i])

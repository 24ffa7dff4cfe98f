# ARGS: ptx %s:lowest --sig "void(uint32[::1], int32[::1])" --arch sm_90 --emit ptx
# cuda.ffs is straight-line code: never a branch (a cttz defined at zero
# was split into a branch around it, in the body of every match_any_sync
# loop that picks a leader with ffs).  On the GPU it is Numba's form:
# brev, bfind.shiftamt (0xffffffff for 0, so ffs(0) = 0 needs no select),
# add 1 (codegen/cg_nvptx.c nvptx_ffs32).
# CHECK: ld.global.u32
# CHECK-NOT: bra
# CHECK: brev.b32
# CHECK-NOT: bra
# CHECK: bfind.shiftamt.u32
# CHECK-NOT: selp
# CHECK: st.global.u32
from numba import cuda


@cuda.jit
def lowest(m, out):
    i = cuda.grid(1)
    out[i] = cuda.ffs(m[i])

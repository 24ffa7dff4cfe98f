# ARGS: ptx %s:bins8 --sig "void(int32[:, ::1], int32[:, ::1])" --arch sm_90 --emit ptx
# A local array of 8 int32 indexed by data (a per-thread histogram) is kept
# in registers: one scalar per element, a load and a store at a run-time
# index as compare-and-select chains (codegen/cg_localsel.c).  No .local
# depot is left for ptxas to promote or not (it did not: 32 bytes of stack).
# CHECK-NOT: .local
# CHECK-NOT: ld.local
# CHECK: ld.global.u32
# CHECK: setp.eq.s32
# CHECK: selp.b32
# CHECK-NOT: st.local
# CHECK: ret;
from numba import cuda, int32


@cuda.jit
def bins8(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        bins = cuda.local.array(8, int32)
        for k in range(8):
            bins[k] = 0
        for k in range(a.shape[1]):
            bins[a[i, k] % 8] += 1
        for k in range(8):
            out[i, k] = bins[k]

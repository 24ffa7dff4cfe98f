# ARGS: ptx %s:k --arch sm_80 --emit ptx
# A raw pointer parameter (types.CPointer) is one .u64 parameter made
# global; p[i] is a plain global load or store at p + i*4 (a negative index
# is not wrapped: no selp against a length), and cache hints on a pointer
# emit numba-cuda's inline PTX (test_cache_hints' cpointer cases).
# CHECK: .entry k__Pf32_i64(
# CHECK-NEXT: .param .u64 k__Pf32_i64_param_0,
# CHECK-NEXT: .param .u64 k__Pf32_i64_param_1
# CHECK-NOT: selp
# CHECK: cvta.to.global.u64
# CHECK: st.global.cs.b32
# CHECK: ld.global.cg.b32
# CHECK-NOT: selp
# CHECK: ret;
from numba import cuda, types


@cuda.jit(types.void(types.CPointer(types.float32), types.int64))
def k(p, i):
    cuda.stcs(p, i, 1.5)
    p[i - 1] = cuda.ldcg(p, i) * 2

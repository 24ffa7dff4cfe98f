# ARGS: ptx %s:u --sig "void(uint64[:, ::1], float32[::1])" --arch sm_80 --emit ptx
# xoroshiro128p_uniform_float32 is straight-line code: two 64-bit loads of
# the state, two 64-bit stores, the conversion, and no branch or call
# between the loads and the store of the result.  The conversion rounds
# next >> 11 to f32 and scales it by 2^-53 (exact): the same bits as
# Numba's route through f64 (convert, scale, round), without f64 work.
# CHECK: .entry
# CHECK: ld.global.u64 {{.*}}, [[[ST:%rd[0-9]+]]];
# CHECK-NEXT: ld.global.u64 {{.*}}, [[[ST]]+8];
# CHECK-NOT: bra
# CHECK-NOT: call
# CHECK-NOT: f64
# CHECK: cvt.rn.f32.u64
# CHECK-NEXT: mul.rn.f32 {{.*}}, 0f25000000;
# CHECK-NOT: f64
# CHECK-NOT: bra
# CHECK: st.global.u64 [[[ST]]],
# CHECK-NEXT: st.global.u64 [[[ST]]+8],
# CHECK-NEXT: st.global.f32
# CHECK-NEXT: ret;
from numba import cuda
from numba.cuda.random import xoroshiro128p_uniform_float32


@cuda.jit
def u(states, out):
    out[0] = xoroshiro128p_uniform_float32(states, 0)

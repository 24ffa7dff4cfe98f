# ARGS: ptx %s:paths --sig "void(uint64[:, ::1], float32[::1])" --arch sm_90 --emit ptx
# A loop of xoroshiro128p_normal_float32 keeps the generator's state in
# registers and writes it back once, after the loop, as nvcc does with a
# local copy (bench/gpu monte_carlo).  Two things kept LLVM's LICM from
# sinking the stores: the inline asm of cosf's slow path (libdevice's
# mad.lo.cc/madc.hi pair) had no willreturn, and its load from the
# constant table __cudart_i2opi_f "may read" the state without GlobalsAA.
# CHECK-LABEL: .entry paths
# CHECK: ld.global.u64 {{.*}}, [[[ST:%rd[0-9]+]]];
# CHECK-NEXT: ld.global.u64 {{.*}}, [[[ST]]+8];
# CHECK-NOT: st.global
# CHECK: mad.lo.cc.u32
# CHECK-NOT: st.global
# CHECK: st.global.u64 [[[ST]]],
# CHECK-NEXT: st.global.u64 [[[ST]]+8],
# CHECK-NOT: st.global.u64
# CHECK: ret;
from numba import cuda, float32
from numba.cuda.random import xoroshiro128p_normal_float32


@cuda.jit
def paths(states, out):
    i = cuda.grid(1)
    if i >= out.size:
        return
    acc = float32(0.0)
    for _ in range(64):
        acc += xoroshiro128p_normal_float32(states, i)
    out[i] = acc

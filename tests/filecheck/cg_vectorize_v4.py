# ARGS: ptx %s:add --arch sm_80 --emit ptx
# The contiguous ufunc kernel moves 16 bytes per access: four float32 per
# load and store in the grid-stride loop, then a scalar tail.
# CHECK: .visible .entry __vectorized_add_c4_
# CHECK: ld.global.v4.f32
# CHECK: ld.global.v4.f32
# CHECK: st.global.v4.f32
# CHECK: ld.global.f32
# CHECK: ld.global.f32
# CHECK: st.global.f32
# CHECK: .visible .entry __vectorized_add_c2_
# CHECK: ld.global.v2.f64
# CHECK: st.global.v2.f64
from numba import vectorize


@vectorize(['float32(float32, float32)', 'float64(float64, float64)'], target='cuda')
def add(a, b):
    return a + b

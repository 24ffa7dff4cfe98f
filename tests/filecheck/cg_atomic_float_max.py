# ARGS: ptx %s:bin_max --sig "void(float32[::1], float32[::1])" --arch sm_90 --emit ptx
# A float atomic max reads the element and tries a compare-and-swap only while
# the value would raise it (Numba's form): a value that cannot win costs one
# load and no atomic; a successful swap ends the loop.
# CHECK: ld.volatile.global.u32 [[OLD:%r[0-9]+]]
# CHECK: setp.nan.f32
# CHECK: [[LOOP:\$L__BB0_[0-9]+]]:
# CHECK: setp.leu.f32
# CHECK-NEXT: @%p{{[0-9]+}} bra
# CHECK-NEXT: atom.global.cas.b32
# CHECK: bra{{(.uni)?}} {{.*}}[[LOOP]];
# CHECK-NOT: atom.global.cas
# CHECK: ret;
from numba import cuda


@cuda.jit
def bin_max(x, hi):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.max(hi, i % hi.size, x[i])

# ARGS: ptx %s:mandel --sig "void(float32, float32, int32[::1], int32)" --arch sm_90 --emit ptx
# Numba types range(max_iter) int64, but max_iter is int32, so every value
# of the counter fits int32 (ir/narrow.c): the escape loop counts in 32 bits
# (one add.s32 and one setp .s32 per iteration), as CUDA C's int loop does.
# CHECK: .entry
# CHECK: [[LOOP:\$L__BB0_[0-9]+]]:
# CHECK-NOT: add.s64
# CHECK-NOT: setp.{{[a-z]+}}.s64
# CHECK: add.s32
# CHECK: setp.{{[a-z]+}}.s32
# CHECK: bra {{.*}}[[LOOP]];
# CHECK: ret;
from numba import cuda, float32


@cuda.jit(device=True)
def escape(c_re, c_im, max_iter):
    z_re = float32(0.0)
    z_im = float32(0.0)
    for n in range(max_iter):
        if z_re * z_re + z_im * z_im > float32(4.0):
            return n
        z_re, z_im = z_re * z_re - z_im * z_im + c_re, float32(2.0) * z_re * z_im + c_im
    return max_iter


@cuda.jit
def mandel(c_re, c_im, out, max_iter):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = escape(c_re + float32(i), c_im, max_iter)

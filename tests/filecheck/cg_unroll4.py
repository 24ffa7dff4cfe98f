# ARGS: ptx %s --arch sm_90 --fits32
# A small inner loop with a constant trip count that 4 divides is unrolled 4
# times, as NVVM (nvcc, Numba) does: four rsqrt bodies between the loop's
# label and its back branch (LLVM's own NVPTX threshold stopped at 2).  A
# trip count that 4 does not divide (126) keeps LLVM's choice.
# CHECK-LABEL: .entry tile4
# CHECK: [[LOOP:\$L__BB[0-9_]+]]:
# CHECK-COUNT-4: rsqrt.approx.f32
# CHECK-NOT: rsqrt.approx.f32
# CHECK: bra {{.*}}[[LOOP]];
# CHECK-LABEL: .entry tile126
# CHECK: [[LOOP2:\$L__BB[0-9_]+]]:
# CHECK-COUNT-2: rsqrt.approx.f32
# CHECK-NOT: rsqrt.approx.f32
# CHECK: bra {{.*}}[[LOOP2]];
# CHECK: ret;
from numba import cuda, float32
from numba.cuda import libdevice

ZERO = float32(0.0)


@cuda.jit("void(float32[:, ::1], float32[::1], float32)")
def tile4(pos, acc, eps2):
    tile = cuda.shared.array((128, 4), dtype=float32)
    t = cuda.threadIdx.x
    for c in range(4):
        tile[t, c] = pos[t, c]
    cuda.syncthreads()
    px = tile[t, 0]
    ax = ZERO
    for k in range(128):
        dx = tile[k, 0] - px
        dy = tile[k, 1] - px
        r2 = dx * dx + dy * dy + eps2
        inv = libdevice.rsqrtf(r2)
        ax += dx * tile[k, 3] * (inv * inv * inv)
    acc[t] = ax


@cuda.jit("void(float32[:, ::1], float32[::1], float32)")
def tile126(pos, acc, eps2):
    tile = cuda.shared.array((128, 4), dtype=float32)
    t = cuda.threadIdx.x
    for c in range(4):
        tile[t, c] = pos[t, c]
    cuda.syncthreads()
    px = tile[t, 0]
    ax = ZERO
    for k in range(126):
        dx = tile[k, 0] - px
        dy = tile[k, 1] - px
        r2 = dx * dx + dy * dy + eps2
        inv = libdevice.rsqrtf(r2)
        ax += dx * tile[k, 3] * (inv * inv * inv)
    acc[t] = ax

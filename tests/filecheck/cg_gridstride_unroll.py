# ARGS: ptx %s --arch sm_90 --fits32 --grid32
# A grid-stride loop that stores to global memory is not unrolled at run
# time (codegen/cg_nvptx.c): the copies' loads could not pass the previous
# copy's store, so unrolling only added a trip-count division and pointer
# increments per array (one ld per array).  A
# grid-stride loop whose writes go to shared memory keeps LLVM's runtime
# unrolling (several loads per trip), and so does one that divides by a
# value known at run time (`k // cols`, `k % cols`): the next copy's
# division overlaps this copy's memory (4 copies and the remainder loop).
# CHECK-LABEL: .entry axpy
# CHECK-COUNT-2: ld.global.f32
# CHECK-NOT: ld.global
# CHECK: ret;
# CHECK-LABEL: .entry shared_count
# CHECK-COUNT-5: ld.global.u8
# CHECK: ret;
# CHECK-LABEL: .entry walk2d
# CHECK-COUNT-5: ld.global.f32
# CHECK-NOT: ld.global
from numba import cuda, uint32


@cuda.jit("void(float32, float32[::1], float32[::1], float32[::1])")
def axpy(a, x, y, out):
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        out[i] = a * x[i] + y[i]


@cuda.jit("void(uint8[::1], uint32[::1])")
def shared_count(data, bins):
    h = cuda.shared.array(256, dtype=uint32)
    h[cuda.threadIdx.x] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), data.size, cuda.gridsize(1)):
        cuda.atomic.add(h, data[i], 1)
    cuda.syncthreads()
    cuda.atomic.add(bins, cuda.threadIdx.x, h[cuda.threadIdx.x])


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def walk2d(a, out):
    rows, cols = a.shape
    for k in range(cuda.grid(1), rows * cols, cuda.gridsize(1)):
        out[k // cols, k % cols] = a[k // cols, k % cols] * 2.0 + 1.0

# ARGS: ptx %s
# Without :KERNEL every kernel with an eager signature goes into one module
# (each signature of a kernel with several); lazy kernels are left out, and a
# device function is compiled into the kernels that call it.
from numba import cuda


@cuda.jit(device=True)
def clamp(v, lo, hi):
    return min(max(v, lo), hi)


@cuda.jit("void(float32[:])")
def first(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = clamp(a[i], 0.0, 1.0)


@cuda.jit
def lazy_only(a):
    a[0] = 1


@cuda.jit(["void(int32[:])", "void(float64[::1])"])
def second(a):
    if cuda.grid(1) == 0:
        a[0] = 0

# CHECK-NOT: lazy_only
# CHECK: .version
# CHECK: .visible .entry first__a1Af32(
# CHECK: .visible .entry second__a1Ai32(
# CHECK: .visible .entry second__a1Cf64(
# CHECK-NOT: lazy_only

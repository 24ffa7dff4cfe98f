# ARGS: ptx %s:k --sig "void(float32[:, ::1], int64)" --arch sm_80 --emit llvm
# Bounds checks are off by default and cost nothing: no compare against an
# extent, no error path, no printf or trap (cg_bounds_debug.py has them).
# CHECK: define {{.*}}void @
# CHECK-NOT: oob
# CHECK-NOT: vprintf
# CHECK-NOT: llvm.trap
# CHECK-NOT: out of bounds
from numba import cuda


@cuda.jit
def k(a, n):
    i = cuda.grid(1)
    if i < n:
        a[i, 1] = a[i, 0] * 2.0

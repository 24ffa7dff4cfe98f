# ARGS: ptx %s:k --sig "void(float32[::1], int64)" --arch sm_80 --emit llvm
# boundscheck=True checks indices only: the assert stays unchecked (debug
# turns both on).
# CHECK-NOT: AssertionError
# CHECK: is out of bounds for axis
# CHECK-NOT: AssertionError
# CHECK: define {{.*}}void @
# CHECK: oob:
# CHECK-NOT: AssertionError
# CHECK-NOT: must be
from numba import cuda


@cuda.jit(boundscheck=True)
def k(a, n):
    i = cuda.grid(1)
    assert i < n, "i must be below n"
    a[i] = 1.0

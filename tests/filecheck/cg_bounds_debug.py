# ARGS: ptx %s:k --sig "void(float32[:, ::1], int64)" --arch sm_80 --debug --emit llvm
# --debug checks each wrapped index against its extent (one unsigned compare
# per axis) and, on failure, prints Numba's IndexError text and traps.
# CHECK: is out of bounds for axis %lld with size %lld in array '%s'
# CHECK: icmp ult i64
# CHECK: br i1 {{.*}}label %oob
# CHECK: oob:
# CHECK: call i32 @vprintf
# CHECK: call void @llvm.trap()
# CHECK-NEXT: unreachable
from numba import cuda


@cuda.jit
def k(a, n):
    i = cuda.grid(1)
    if i < n:
        a[i, 1] = a[i, 0] * 2.0

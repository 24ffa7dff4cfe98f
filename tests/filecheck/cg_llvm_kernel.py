# ARGS: ptx %s:k --sig "void(int64[:], int64)" --arch sm_80 --emit llvm
# LLVM IR: a ptx_kernel with an nvvm.annotations "kernel" entry, the array
# parameter noundef (never noalias), Python floor division guarded against 0.
# CHECK: define ptx_kernel void @{{.*}}({ ptr, [1 x i64], [1 x i64] } noundef
# CHECK-NOT: noalias
# CHECK: sdiv i64
# CHECK: !nvvm.annotations
# CHECK: !"kernel", i32 1}
from numba import cuda


@cuda.jit
def k(a, d):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] = a[i] // d

# ARGS: ptx %s --arch sm_90 --fits32 --grid32
# Comparisons that stay 64-bit under both launch facts: against an int64
# argument (any value), and against the size of a strided 2-D array (with
# stride 0 its size is not bounded by its byte span).  The one against a
# C-contiguous array's size is 32-bit.
# CHECK-LABEL: .entry against_arg
# CHECK: setp.{{[a-z]+}}.s64
# CHECK: ret;
# CHECK-LABEL: .entry against_strided_size
# CHECK: setp.{{[a-z]+}}.s64
# CHECK: ret;
# CHECK-LABEL: .entry against_c_size
# CHECK-NOT: setp.{{[a-z]+}}.{{[su]}}64
# CHECK: ret;
from numba import cuda


@cuda.jit("void(float32[::1], int64)")
def against_arg(out, n):
    i = cuda.grid(1)
    if i < n:
        out[0] = 1


@cuda.jit("void(float32[:, :], float32[::1])")
def against_strided_size(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[0] = 1


@cuda.jit("void(float32[:, ::1], float32[::1])")
def against_c_size(a, out):
    i = cuda.grid(1)
    if i < a.size:
        out[0] = 1

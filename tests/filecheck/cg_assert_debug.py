# ARGS: ptx %s:k --sig "void(float32[::1], int64)" --arch sm_80 --debug --emit llvm
# --debug checks each assert: a branch on the condition to a failure block
# that prints the AssertionError (file, line, the message, kernel, block and
# thread) with vprintf and traps.  A message that is not a string literal
# gives the statement's source text.
# CHECK: c"AssertionError: assert i < n\00"
# CHECK: c"AssertionError: x must be finite\00"
# CHECK: error: %s (%s '%s', block (%lld,%lld,%lld), thread (%lld,%lld,%lld))
# CHECK: define {{.*}}void @k__a1Cf32_i64
# CHECK: br i1 {{.*}}, label %{{[0-9]+}}, label %{{[0-9]+}}
# CHECK: call i32 @vprintf(ptr {{.*}}@.assertfmt
# CHECK-NEXT: call void @llvm.trap()
# CHECK: call i32 @vprintf(ptr {{.*}}@.assertfmt
# CHECK-NEXT: call void @llvm.trap()
from numba import cuda


@cuda.jit
def k(a, n):
    i = cuda.grid(1)
    assert i < n
    x = a[i]
    assert x == x, "x must be finite"
    a[i] = x + 1.0

# ARGS: ptx %s:k --sig "void(int64)" --arch sm_80 --opt 0 --emit llvm
# Without debug an assert leaves no trace, even unoptimized: its condition
# is not evaluated (no compare, no conditional branch), no message, no
# printf, no trap (cg_assert_debug.py has them).
# CHECK: define {{.*}}void @k__i64
# CHECK-NOT: icmp
# CHECK-NOT: br i1
# CHECK-NOT: positive
# CHECK-NOT: vprintf
# CHECK-NOT: llvm.trap
# CHECK: ret void
from numba import cuda


@cuda.jit
def k(n):
    assert n > 0, "n must be positive"

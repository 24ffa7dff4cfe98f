# ARGS: ptx %s:k --sig "void(int64)" --arch sm_80 --debug --emit ptx
# The failure path of an assert in PTX: a predicated branch on the
# condition, vprintf of the message, then trap.
# CHECK: .extern .func (.param .b32 func_retval0) vprintf
# CHECK: _$_assertfmt
# CHECK: .entry k__i64(
# CHECK: setp.{{.*}} %p{{[0-9]+}}
# CHECK: @%p{{[0-9]+}} bra
# CHECK: call.uni (retval0),
# CHECK-NEXT: vprintf,
# CHECK: trap;
from numba import cuda


@cuda.jit
def k(n):
    assert n > 0, "n must be positive"

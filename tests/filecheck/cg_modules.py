# ARGS: ptx %s:k --sig "void(float32[::1])" --arch sm_80 --emit kir
# Functions of an imported module keep their module in their name, so the
# kernel file's `helper` and the module's are two functions; a
# cuda.declare_device binding of the module is called by its C symbol.
# CHECK: call @helper__f32(
# CHECK: call @fcmods$2Effi$2Ehelper__f32(
# CHECK: call.foreign @mul_f32(
# CHECK: device helper(x: float32) -> float64   # symbol helper__f32
# CHECK: device fcmods.ffi.helper(x: float32) -> float32   # symbol fcmods$2Effi$2Ehelper__f32
# CHECK-NEXT: bb0:
# CHECK: call.foreign @mul_f32(
from numba import cuda

import fcmods.ffi as ffi


@cuda.jit(device=True)
def helper(x):
    return x + 1.0


@cuda.jit
def k(a):
    a[0] = helper(a[0]) + ffi.helper(a[1]) + ffi.mul(a[2], a[3])

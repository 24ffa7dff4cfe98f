"""The fp8 types of numba.cuda._internal.cuda_fp8 as Numba has them, and what
Numba refuses: numba.cuda.fp8 holds only registries; no operator, math
function or implicit conversion takes an fp8 value, nor bool() or a condition
(numba-cuda 0.30 cannot lower them); no fp8 arrays; the cvt_*
enum arguments name a member; the vector types are not built yet."""
# ARGS: check %s
from numba import cuda, float32
from numba.cuda.fp8 import fp8_e4m3 as registry_e4m3
from numba.cuda._internal.cuda_fp8 import (fp8_e4m3, fp8_e5m2, fp8x2_e4m3, cvt_float_to_fp8,
                                           cvt_float_to_e8m0, cvt_bfloat16raw_to_fp8,
                                           cvt_float2_to_fp8x2,
                                           saturation_t, fp8_interpretation_t)
from cuda.bindings.runtime import cudaRoundMode


@cuda.jit("void(float32[:], float32[:])")
def from_registry_module(a, o):
    o[0] = float32(registry_e4m3(a[0]))


@cuda.jit("void(float32[:], float32[:])")
def arithmetic(a, o):
    x = fp8_e4m3(a[0])
    o[0] = float32(x + x)


@cuda.jit("void(float32[:], float32[:])")
def implicit_store(a, o):
    o[0] = fp8_e5m2(a[0])


@cuda.jit("void(float32[:], float32[:])")
def fp8_array(a, o):
    s = cuda.local.array(4, fp8_e4m3)
    o[0] = a[0]


@cuda.jit("void(float32[:], uint8[:])")
def enum_not_named(a, o):
    o[0] = cvt_float_to_fp8(a[0], 1, fp8_interpretation_t.E4M3)
    o[1] = cvt_float_to_e8m0(a[0], saturation_t.NOSAT, cudaRoundMode.cudaRoundNearest)


@cuda.jit("void(float32[:], uint8[:])")
def raw_argument(a, o):
    o[0] = cvt_bfloat16raw_to_fp8(a[0], saturation_t.NOSAT, fp8_interpretation_t.E4M3)


@cuda.jit("void(float32[:], uint16[:])")
def pair_argument(a, o):
    o[0] = cvt_float2_to_fp8x2(a[0], saturation_t.NOSAT, fp8_interpretation_t.E4M3)


@cuda.jit("void(float32[:], float32[:])")
def vector_type(a, o):
    v = fp8x2_e4m3(a[0])
    o[0] = a[0]


@cuda.jit("void(float32[:], float32[:])")
def truth(a, o):
    if fp8_e4m3(a[0]):
        o[0] = 1.0


@cuda.jit("void(float32[:], float32[:])")
def from_bool(a, o):
    o[0] = float32(fp8_e4m3(a[0] > 0))

"""Tuple parameters in eager signatures: UniTuple and Tuple (nested, with
booleans, float16 and complex elements) passed by value as aggregates."""
from numba import cuda, types


@cuda.jit("void(UniTuple(float32, 3), float32[::1])")
def scale3(t, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = out[i] * t[0] + t[1] * t[2]


@cuda.jit(types.void(types.Tuple((types.int64, types.Tuple((types.boolean, types.float16)),
                                  types.complex128)), types.float64[:]))
def mixed(t, out):
    n, (flag, h), z = t
    if flag:
        out[0] = n + float(h) + z.real
    out[1] = z.imag


@cuda.jit("void(Tuple((int8, float64, int32)), int64[:])")
def padded(t, out):
    out[0] = t[0] + t[2]
    out[1] = int(t[1])

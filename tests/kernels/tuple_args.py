"""Tuple parameters in eager signatures: UniTuple and Tuple (nested, with
booleans, float16, complex and array elements; empty tuples, which travel
as an unused byte since PTX has no empty parameters) passed by value."""
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


@cuda.jit("void(int64[::1], UniTuple(Tuple(()), 3), Tuple((Tuple(()), int64)), Tuple(()))")
def empties(r, x, y, z):
    r[0] = len(x) + len(x[0]) + y[1] + len(z)


@cuda.jit("void(UniTuple(float64[::1], 3), Tuple((int64[:], int64, UniTuple(int64, 2))))")
def with_arrays(x, y):
    i = cuda.grid(1)
    if i < len(x[0]):
        x[0][i] = x[1][i] + x[2][i] + y[0][0] + y[1] + y[2][1]

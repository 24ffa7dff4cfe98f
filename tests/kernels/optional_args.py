"""Optional values: a kernel parameter of type none (None passed at launch)
and a number in its place, `is None` branches pruned by type, device
functions with default values called with and without them, `in` on
tuples, pow(), int.bit_count()."""
from numba import cuda, float64, int64, none, void

LEVELS = (1, 2, 4, 8)


@cuda.jit(device=True)
def axpy(a, x, y=None, scale=1.0):
    if y is None:
        return a * x * scale
    return (a * x + y) * scale


@cuda.jit([void(none, float64[::1]), void(float64, float64[::1]), "void(none, float64[:])"])
def offset(bias, out):
    i = cuda.grid(1)
    if i < out.size:
        if bias is None:
            out[i] = axpy(2.0, out[i])
        else:
            out[i] = axpy(2.0, out[i], bias, scale=0.5)


@cuda.jit(void(int64[::1], int64))
def features(out, n):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = pow(i, 2) + n.bit_count() + (i in LEVELS) + (i not in (0, 3))
        if n is not None and (i > 1) is True:
            out[i] += 1


@cuda.jit(device=True)
def vsum(first, *rest):
    s = first
    for v in rest:
        s += v
    return s + rest[0]


@cuda.jit(device=True)
def head(first, *rest):
    if len(rest) == 0:
        return first
    return first + rest[-1]


@cuda.jit(void(float64[::1], float64))
def star_args(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = head(x) + head(x, 1, 2.0) + vsum(x, 1.0, 2.0) + vsum(i, 3, 4, 5)

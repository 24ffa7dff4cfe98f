"""A function defined inside a kernel and called there, reading the
kernel's variables and arrays (numba-cuda inlines such closures)."""
from numba import cuda, float32, void


@cuda.jit(void(float32[::1], float32[::1], float32))
def saxpy_closure(x, out, a):
    n = out.size

    def term(k, scale=1.0):
        if k < n:
            return a * x[k] * scale
        return float32(0)

    i = cuda.grid(1)
    if i < n:
        out[i] = term(i) + term(i + 1, scale=0.5)

"""a.real / a.imag of complex arrays with eager signatures (numba-cuda's
TestAtomicOnComplexComponents): atomics and stores through the views."""
from numba import cuda


@cuda.jit("void(complex128[::1])")
def atomic_add_one(values):
    i = cuda.grid(1)
    cuda.atomic.add(values.real, i, 1)


@cuda.jit("void(complex64[:, :], float32[:, ::1])")
def parts_2d(z, out):
    i, j = cuda.grid(2)
    if i < z.shape[0] and j < z.shape[1]:
        cuda.atomic.add(z.imag, (i, j), 1)
        out[i, j] = z.real[i, j] + z.imag[i, ::2].shape[0]

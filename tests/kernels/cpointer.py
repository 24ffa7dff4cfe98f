# Raw pointer parameters (types.CPointer): loads and stores through
# ld.global/st.global (a host-given address is global memory), a pointer
# passed on to a device function, and a lazy kernel compiled for pointers.
# ARGS: ptx %s
# ARGS: ptx %s:lazy --sig "void(CPointer(float32), CPointer(uint16), float64[:])"
from numba import cuda, types, float32, int32, uint32, carray, farray

ptr = types.CPointer(types.int32)


@cuda.jit(types.void(ptr, int32, ptr, ptr, uint32))
def axpy(r, a, x, y, n):
    i = cuda.grid(1)
    if i < n:
        r[i] = a * x[i] + y[i]


@cuda.jit(device=True)
def twice(p, i):
    return p[i] * 2


@cuda.jit(types.void(types.CPointer(float32), types.float64[:], types.int64))
def scale_dev(p, out, n):
    i = cuda.grid(1)
    if i < n:
        p[i] *= 2.5
        out[i] = twice(p, i) + p[i - 1]


@cuda.jit
def lazy(p, q, out):
    i = cuda.grid(1)
    out[i] = p[i] + q[i]


@cuda.jit(types.void(types.CPointer(types.uint32), types.int64))
def count_into(p, n):
    # carray over the pointer: 2-d views and atomics on it
    i = cuda.grid(1)
    a = carray(p, (2, 2))
    b = farray(p, (2, 2))
    if i < n:
        cuda.atomic.add(carray(p, 4), i % 4, 1)
        a[0, 1] = b[1, 0]

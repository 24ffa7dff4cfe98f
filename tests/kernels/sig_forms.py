# Every signature form Numba accepts: strings, a tuple of argument types, a
# list, signatures held in module variables, calls of types (void(...),
# types.void(...)), numba-cuda's own spellings of type names and
# types.Array(dtype, ndim, layout).
from numba import cuda, float32, int32, void, types
from numba.cuda import float64 as f64
from numba.cuda.types import int64 as i64
import numba

SIG = "void(float32[:])"
ARGS = (float32[:], int32)
SIGS = ["void(float32[:])", "void(float64[:])"]
ARR2 = types.Array(types.float32, 2, 'C')


@cuda.jit("void(float32[:])")
def k_string(a):
    a[0] = 1


@cuda.jit((int32[:], int32))
def k_tuple(a, n):
    a[0] = n


@cuda.jit(["void(float32[:])", "void(float64[:])"])
def k_list(a):
    a[0] = 1


@cuda.jit(SIG)
def k_module_string(a):
    a[0] = 1


@cuda.jit(ARGS)
def k_module_tuple(a, n):
    a[0] = n


@cuda.jit(SIGS)
def k_module_list(a):
    a[0] = 2


@cuda.jit(void(float32[:], int32))
def k_call(a, n):
    a[0] = n


@cuda.jit(types.void(types.float32[::1], i64))
def k_types_call(a, n):
    a[0] = n


@cuda.jit(void(ARR2))
def k_array(a):
    a[0, 1] = 1


@cuda.jit(numba.types.void(types.Array(types.int32, 1, 'A')))
def k_array_a(a):
    a[0] = 3


@cuda.jit(float32(float32, float32), device=True)
def d_add(a, b):
    return a + b


@cuda.jit(void(f64[:]))
def k_device_eager(a):
    a[0] = d_add(16777217, 1)


nbtype = float32           # a dtype held in a module variable, used in a signature
ALIAS2 = nbtype


@cuda.jit(void(nbtype[:], int32[:], ALIAS2))
def k_dtype_alias(a, e, x):
    a[0], e[0] = x, 1

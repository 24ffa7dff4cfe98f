"""Records with string fields: str constants into 'U<n>' fields and bytes
constants into 'S<n>' fields (cut or zero-padded to the field), packed and
aligned layouts, and a record copy that carries them."""
import numpy as np
import numba
from numba import cuda

text_t = numba.from_dtype(np.dtype([('x', np.int32), ('y', np.dtype('<U12'))]))
raw_t = numba.from_dtype(np.dtype([('x', np.float32), ('y', np.dtype('S12'))]))
legacy_t = numba.from_dtype(np.dtype([('name', np.str_, 4), ('tag', np.bytes_, 3), ('u', 'U', 2)],
                                     align=True))  # NumPy's '<U4', '|S3', '<U2'
mixed_t = numba.from_dtype(np.dtype([('a', np.uint8), ('u', 'U3'), ('s', 'S5'), ('d', np.float64)],
                                    align=True))


@cuda.jit("void(text_t[::1])")
def text(a):
    a[0]["x"] = 1
    a[0]["y"] = "ABC"
    a[1]["x"] = 2
    a[1]["y"] = "XYZ\u00e9\U0001F600"


@cuda.jit("void(raw_t[::1])")
def raw(a):
    a[0]["x"] = 1
    a[0]["y"] = b"ABC"
    a[1].y = b"a much longer bytes value"


@cuda.jit("void(mixed_t[:])")
def mixed(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i].u = "pq"
        a[i].s = b"hello!"
        a[i].d = a[i].a * 2.0
        if i > 0:
            a[i - 1] = a[i]


@cuda.jit("void(legacy_t[:])")
def legacy(a):
    a[0].name = "abcdef"
    a[0].tag = b"xy"
    a[0].u = "q"

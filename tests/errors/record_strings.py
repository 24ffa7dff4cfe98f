"""Records with string fields: a unicode field ('U<n>') takes a str
constant and a bytes field ('S<n>') a bytes constant, as Numba's casts
allow; the other kind, a number, or reading the field are refused by name"""
import numpy as np
import numba
from numba import cuda

rec = numba.from_dtype(np.dtype([('x', np.int32), ('u', 'U4'), ('s', 'S4')]))

# ARGS: check %s


@cuda.jit("void(rec[:])")
def bytes_into_text(a):
    a[0].u = b"abc"


@cuda.jit("void(rec[:])")
def text_into_bytes(a):
    a[0]['s'] = "abc"


@cuda.jit("void(rec[:])")
def number_into_text(a):
    a[0].u = 1


@cuda.jit("void(rec[:], int32[:])")
def read_text(a, out):
    out[0] = len(a[0].u)


@cuda.jit("void(int32[:])")
def bytes_elsewhere(a):
    a[0] = b"a"

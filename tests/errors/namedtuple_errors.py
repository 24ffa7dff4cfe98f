"""Namedtuples in kernels: constructing one with a missing, unknown or
repeated field, too many values, and reading a field the class lacks."""
# ARGS: check %s
from collections import namedtuple
from numba import cuda

Point = namedtuple("Point", ["x", "y"])
Size = namedtuple("Size", "w h")


@cuda.jit("void(float64[::1])")
def k(out):
    a = Point(1.0)
    b = Point(1.0, z=2.0)
    c = Point(1.0, 2.0, 3.0)
    d = Point(1.0, x=2.0)


@cuda.jit("void(float64[::1])")
def k2(out):
    p = Point(1.0, 2.0)
    out[0] = p.w

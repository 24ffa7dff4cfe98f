"""Namedtuples built and read inside kernels (Numba's NamedUniTuple /
NamedTuple): fields by name and index, passed to a device function."""
from collections import namedtuple

from numba import cuda

Point = namedtuple("Point", ["x", "y"])
Cell = namedtuple("Cell", "row col weight")


@cuda.jit(device=True)
def dot(p, q):
    return p.x * q.x + p.y * q.y


@cuda.jit("void(UniTuple(float32, 2), float32[::1])")
def project(t, out):
    i = cuda.grid(1)
    if i < out.size:
        p = Point(t[0], t[1])
        c = Cell(row=i // 4, col=i % 4, weight=p[1])
        out[i] = dot(p, Point(c.row, c.col)) * c.weight

"""kjit run: a namedtuple VALUE names a class the kernel file does not
define."""
# ARGS: run %s:k --grid 1 --block 1 --target cpu "p=Pointt(1.5, 2.5)" out=zeros:f64:1
from collections import namedtuple
from numba import cuda

Point = namedtuple("Point", ["x", "y"])


@cuda.jit
def k(p, out):
    out[0] = p.x + p.y

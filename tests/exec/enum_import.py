"""Enum classes imported from another module, as Numba freezes them: members
compared, their .value read, IntEnum members used as ints, through
`from .mods.colors import Color`, a module alias and a relative package
import."""
from numba import cuda

from .mods.colors import Color, Shape
from .mods import colors as cm


@cuda.jit(device=True)
def code(c):
    if c == Color.red:
        return 1
    elif c == cm.Color.blue:
        return 3
    return 2


@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i < a.size:
        c = Color.green if i % 2 else Color.blue
        a[i] = code(c) * 100 + Color.red.value + Shape.square + cm.Shape.circle


# RUN: k --grid 1 --block 4 a=zeros:i64:4
# EXPECT: a: int64[4] [331, 231, 331, 231] sum=1124 crc=a863d636
#   (computed in Python from: [(2 if i % 2 else 3) * 100 + 1 + 20 + 10 for i in range(4)])

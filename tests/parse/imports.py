import a.b.c
import a.b as c, d
from a.b import x, y as z
from a import (p,
               q as r,)
from x import *
from . import rel
from ..pkg.mod import thing
import numba.cuda
import numba.cuda as nc

"""Programs of several files: device functions, constants and enums from
modules and packages found on the search path (--path exec/mods): `from m
import name`, `import a.b as x`, `import a.b` then `a.b.name`, names a
package's __init__ re-exports, `from m import *`, relative imports inside
the package, and two modules each defining `helper`."""
import numpy as np
from numba import cuda

import mypkg
import mypkg.rng as rng
import mypkg.sub.deep as deep
import sib
from mypkg.util import TPB, Color, helper
from sib import STEP as S
from starmod import *


@cuda.jit(device=True)
def local_helper(x):
    return x - 1


@cuda.jit
def mixed(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = helper(i) + rng.helper(i) + mypkg.util.TPB + TPB + mypkg.VERSION


@cuda.jit
def exported(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = mypkg.pkg_scale(i) + rng.uniform(i) + Color.RED + mypkg.util.Color.BLUE


@cuda.jit
def deep_and_sibling(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = deep.add_tpb(i) + sib.twice(i) + S + local_helper(i)


@cuda.jit
def star(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = times_a(i) + A


# RUN: mixed --path exec/mods --grid 1 --block 8 out=zeros:int64:8
# EXPECT: out: int64[8] [1015, 1024, 1033, ..., 1078] sum=8372 crc=0fbe15e6
#   (computed in Python from: [i * 8 + (i + 1000 + 4) + 4 + 4 + 3 for i in range(8)])
# RUN: exported --path exec/mods --grid 1 --block 8 out=zeros:int64:8
# EXPECT: out: int64[8] [1049, 1058, 1067, ..., 1112] sum=8644 crc=7ba56cde
#   (computed in Python from: [(i * 8 + 4) + (i + 1000 + 4 + 20) + 1 + 20 for i in range(8)])
# RUN: deep_and_sibling --path exec/mods --grid 1 --block 8 out=zeros:int64:8
# EXPECT: out: int64[8] [10, 14, 18, ..., 38] sum=192 crc=709bb899
#   (computed in Python from: [(i + 4) + 2 * i + 7 + (i - 1) for i in range(8)])
# RUN: star --path exec/mods --grid 1 --block 8 out=zeros:int64:8
# EXPECT: out: int64[8] [5, 10, 15, ..., 40] sum=180 crc=d858151e
#   (computed in Python from: [i * 5 + 5 for i in range(8)])

if __name__ == "__main__":
    out = np.zeros(8, np.int64)
    mixed[1, 8](out)
    print(out)

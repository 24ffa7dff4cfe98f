"""Modules next to the kernel file, without --path: the folder `mods`
beside this file (no __init__.py: a namespace package), a module in it,
and a package module reached through it."""
import numpy as np
from numba import cuda

import mods.mypkg.util as u
from mods import sib


@cuda.jit
def beside(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = sib.twice(i) + u.helper(i) + sib.STEP + u.Color.BLUE


# RUN: beside --grid 2 --block 4 out=zeros:int32:8
# EXPECT: out: int32[8] [27, 37, 47, ..., 97] sum=496 crc=75c3d0a0
#   (computed in Python from: [2 * i + 8 * i + 7 + 20 for i in range(8)])

if __name__ == "__main__":
    out = np.zeros(8, np.int32)
    beside[2, 4](out)
    print(out)

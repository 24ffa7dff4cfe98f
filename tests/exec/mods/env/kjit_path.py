"""Run by tests/CMakeLists.txt with KJIT_PATH=exec/mods (not a glob test;
its own folder holds no modules):
modules found through the environment variable, and a @cuda.reduce
function of an imported module run by its module-qualified name."""
from numba import cuda

import mypkg.ops  # noqa: F401 (its reduction is run below)
import sib
from mypkg.rng import uniform


@cuda.jit
def through_env(out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = uniform(i) + sib.STEP


# RUN: through_env --grid 1 --block 4 out=zeros:int64:4
# EXPECT: out: int64[4] [1031, 1032, 1033, 1034] sum=4130 crc=7ad92a37
#   (computed in Python from: [i + 1000 + 4 + 20 + 7 for i in range(4)])
# RUN: mypkg.ops.sum_op arange:int32:1000
# EXPECT: result: int32 499500

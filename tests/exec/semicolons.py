"""Statements separated by ';' at the top level, as Python allows them
(`import sys; import math`, `N = 4; SCALE = 2.0`, a trailing ';'): each is
its own statement; host code among them is skipped, constants stay constants."""
import sys; import math
from numba import cuda; import numpy as np;
N = 4; SCALE = 2.0; del sys
X: int = 3; Y = 5
print("host"); K = N * 2; assert K == 8


@cuda.jit
def k(a):
    i = cuda.grid(1); a[i] = i * SCALE + K + Y + math.floor(0.5)
    if i == 0: a[0] = X; a[0] += np.float32(0.5);


# RUN: k --grid 1 --block 4 a=zeros:f32:4
# EXPECT: a: float32[4] [3.5, 15, 17, 19] sum=54.5 crc=cd785153
#   (computed in Python from: [3.5, 15, 17, 19])

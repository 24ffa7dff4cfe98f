# ARGS: ptx %s:k --emit kir
# Module constants: Python folding semantics (floor division and modulo)= -7 % 2
HALF = np.float32(0.5)
TAU = math.pi * 2
PAruda
import math
import numpy as np

N = 1 << 10
N = N + 1
Q = -7 //1 << 10
N = N + 1
Q = -7 // 2
R = -7 % 2
HALF = np.float32 -7 %
 H2ALF = np.float32(0.5)
TAU = math.pi * 2
PA a IR =          a[0] = N + Q + R
    a[1] = HALF + TAU
    a[2=P] A IR[1]

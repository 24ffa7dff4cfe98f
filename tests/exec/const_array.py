"""Constant arrays: module-level np.array literals read through
cuda.const.array_like and directly, in 1-D and 2-D, with dtype= given as a
NumPy type, a string and positionally, NumPy's default dtypes (int64 for
ints, float64 for floats), elements from module constants, and a constant
array passed to a device function."""
import numpy
import numpy as np
from numba import cuda

TAPS = np.array([0.25, 0.5, 0.25, -1.0], dtype=np.float32)
TABLE = np.array([[1, 2, 3], [4, 5, 6]])
OFFS = np.array((10, -20, 30), 'int32')
MASK = numpy.array([True, False, True], dtype='bool')
NEG = -2
SCALE = np.array([NEG, 1.5 * 2])

# RUN: filt --grid 2 --block 8 x=arange:float32:16 out=zeros:float32:16
# EXPECT: out: float32[16] [-2, -2, -2, ..., 0] sum=-26 crc=9b3b878a
#   (computed in Python from: [0.25*k + 0.5*(k+1) + 0.25*(k+2) - (k+3) if k <= 12 else 0.0 for k in range(16)])
# RUN: mix --grid 1 --block 2,3 out=zeros:int64:2x3
# EXPECT: out: int64[2x3] [108, -42, 188, 143, -97, 283] sum=583 crc=39834e32
#   (computed in Python from: [[[1,2,3],[4,5,6]][k//3][k%3]*[10,-20,30][k%3] + (100 if [True,False,True][k%3] else 0) + [-2,3][k//3] for k in range(6)])


@cuda.jit(device=True)
def dot_taps(c, x, i):
    s = 0.0
    for k in range(len(c)):
        s += c[k] * x[i + k]
    return s


@cuda.jit
def filt(x, out):
    i = cuda.grid(1)
    c = cuda.const.array_like(TAPS)
    if i + c.shape[0] <= x.size:
        out[i] = dot_taps(c, x, i)


@cuda.jit
def mix(out):
    i, j = cuda.grid(2)
    offs = cuda.const.array_like(OFFS)
    mask = cuda.const.array_like(MASK)
    rows, cols = TABLE.shape
    if i < rows and j < cols:
        v = TABLE[i, j] * offs[j] + int(SCALE[i])
        if mask[j]:
            v += 100
        out[i, j] = v

"""a.T and a.transpose() of arrays of more than two dimensions, as NumPy
and Numba have them: every axis reversed, so t[i, j, k] is a[k, j, i] and
t.shape is a.shape reversed; a write through the view reaches the array."""
from numba import cuda


@cuda.jit
def rev3(a, out):
    t = a.T
    out[0] = t.shape[0]
    out[1] = t.shape[1]
    out[2] = t.shape[2]
    out[3] = t[3, 1, 0]            # a[0, 1, 3]
    out[4] = t[0, 2, 1]            # a[1, 2, 0]
    out[5] = a.transpose()[2, 0, 1]  # a[1, 0, 2]
    s = 0.0
    for i in range(t.shape[0]):
        for j in range(t.shape[1]):
            for k in range(t.shape[2]):
                s += t[i, j, k] * (i + 10 * j + 100 * k)
    out[6] = s


@cuda.jit
def rev4(a):
    t = a.T
    t[1, 0, 2, 1] = -1.0           # a[1, 2, 0, 1]


# RUN: rev3 --grid 1 --block 1 a=arange:float64:2x3x4 out=zeros:float64:7
# EXPECT: out: float64[7] [4, 3, 2, ..., 24844] sum=24894 crc=17b34c81
#   (computed in Python from: a = [[[12*i + 4*j + k for k in range(4)] for j in range(3)] for i in range(2)];
#    [4, 3, 2, a[0][1][3], a[1][2][0], a[1][0][2], sum(a[k][j][i] * (i + 10*j + 100*k) for i in range(4) for j in range(3) for k in range(2))])
# RUN: rev4 --grid 1 --block 1 a=zeros:float32:2x3x2x2
# EXPECT: a: float32[2x3x2x2] [0, 0, 0, ..., 0] sum=-1 crc=cb2c63e3
#   (computed in Python from: the element at flat index ((1*3 + 2)*2 + 0)*2 + 1 = 21 set to -1)

"""Python's operator module in kernels (as numba-cuda's test_operator uses
it): operator.add & co. are the operators themselves, typed the same way,
called directly, through a module variable, or imported bare."""
from numba import cuda
import operator
from operator import mul, neg

op = operator.add

# RUN: ops --grid 1 --block 1 a=arange:float32:4 b=full:float32:4:2 out=zeros:float64:12 n=full:int64:4:7
# EXPECT: a: float32[4] [2, 3, 4, 5] sum=14 crc=8f866fb1
#   (computed in Python from: [i + 2 for i in range(4)])
# EXPECT: out: float64[12] [2, 2.5, 2, ..., 1] sum=33.5 crc=6c96b0cc
#   (computed in Python from: [2 * 2 - 2, 5 / 2, 5 // 2, 5 % 2, 2.0 ** 3, 7 << 2, 7 & 3, -7, ~7, 1.0, 0.0, 1.0])


@cuda.jit
def ops(a, b, out, n):
    for i in range(a.size):
        a[i] = op(a[i], b[i])
    out[0] = operator.sub(mul(b[0], 2), b[1])
    out[1] = operator.truediv(5, 2)
    out[2] = operator.floordiv(5, 2)
    out[3] = operator.mod(5, 2)
    out[4] = operator.pow(b[0], 3)
    out[5] = operator.lshift(n[0], 2)
    out[6] = operator.and_(n[0], 3)
    out[7] = neg(n[0])
    out[8] = operator.invert(n[0])
    out[9] = operator.lt(b[0], n[0])
    out[10] = operator.not_(True)
    out[11] = operator.ge(n[1], n[2])

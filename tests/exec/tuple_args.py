"""Tuples as kernel arguments, typed as Numba types a Python tuple: each
element by its value (int -> int64, float -> float64, bool -> boolean, a
NumPy scalar by its dtype), UniTuple when all element types are equal and
Tuple otherwise; nested tuples; eager signatures spelled
UniTuple(float32, 3) and types.Tuple((types.int64, types.float32)), whose
element types the arguments are converted to; tuples passed on to device
functions, indexed, unpacked, iterated (UniTuple) and measured with len."""
import numba
from numba import cuda, types


@cuda.jit(device=True)
def dot2(p, q):
    return p[0] * q[0] + p[1] * q[1]

# RUN: affine --grid 1 --block 8 "t=(2, 0.5)" out=zeros:float64:8
# EXPECT: out: float64[8] [2, 2.5, 3, ..., 5.5] sum=30 crc=63e0ac8a
#   (computed in Python from: [2 + 0.5 * i for i in range(8)])


@cuda.jit
def affine(t, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = t[0] + t[1] * i

# RUN: unituple --grid 1 --block 1 "t=(1.5, 2.5, 4.0)" out=zeros:float64:6
# EXPECT: out: float64[6] [8, 3, 1.5, 4, -2.5, 13.75] sum=27.75 crc=857f5888
#   (computed in Python from: [1.5 + 2.5 + 4.0, 3, 1.5, 4.0, 1.5 - 4.0, (1.5 * 2.5) + (2.5 * 4.0)])


@cuda.jit
def unituple(t, out):
    s = 0.0
    for x in t:
        s += x
    out[0] = s
    out[1] = len(t)
    a, b, c = t
    out[2] = a
    out[3] = t[-1]
    out[4] = a - c
    out[5] = dot2(t, (b, c))

# RUN: nested --grid 1 --block 1 "t=(7, (2.5, True), -3)" out=zeros:float64:5
# EXPECT: out: float64[5] [7, 2.5, 1, -3, 14.5] sum=22 crc=84d2520e
#   (computed in Python from: [7, 2.5, 1, -3, 7 * 2.5 - 3])


@cuda.jit
def nested(t, out):
    n, (x, flag), m = t
    out[0] = n
    out[1] = t[1][0]
    if flag:
        out[2] = 1
    out[3] = m
    out[4] = n * x + m

# RUN: typed_elems --grid 1 --block 1 "t=(float32:1.5, float32:2)" "u=(int8:-3, uint16:700, complex128:1+2j)" out=zeros:float64:5
# EXPECT: out: float64[5] [3, -3, 700, 1, 2] sum=703 crc=f53d5508
#   (computed in Python from: [1.5 * 2, -3, 700, 1, 2])


@cuda.jit
def typed_elems(t, u, out):
    out[0] = t[0] * t[1]
    out[1] = u[0]
    out[2] = u[1]
    out[3] = u[2].real
    out[4] = u[2].imag

# RUN: eager_unituple --grid 1 --block 1 "t=(float32:1, float32:2.5, float32:3)" out=zeros:float32:2
# EXPECT: out: float32[2] [6.5, 3] sum=9.5 crc=a94a959a
#   (computed in Python from: [1 + 2.5 + 3, 3])


@cuda.jit("void(UniTuple(float32, 3), float32[:])")
def eager_unituple(t, out):
    out[0] = t[0] + t[1] + t[2]
    out[1] = len(t)

# RUN: eager_tuple --grid 1 --block 1 "t=(3, 2.5)" out=zeros:float32:1
# EXPECT: out: float32[1] [7.5] sum=7.5 crc=43247f31
#   (computed in Python from: [3 * 2.5])


@cuda.jit(numba.void(types.Tuple((types.int64, types.float32)), types.float32[:]))
def eager_tuple(t, out):
    out[0] = t[0] * t[1]

# RUN: padded --grid 1 --block 1 "t=(int8:-1, 2.5, int32:7)" "u=(3, (True, float32:0.5), complex128:1+2j)" out=zeros:float64:4
# EXPECT: out: float64[4] [6, 2.5, 4.5, 2] sum=15 crc=80a71920
#   (computed in Python from: [-1 + 7, 2.5, 3 + 0.5 + 1, 2])


@cuda.jit("void(Tuple((int8, float64, int32)), Tuple((int64, Tuple((boolean, float32)), complex128)), float64[:])")
def padded(t, u, out):
    out[0] = t[0] + t[2]
    out[1] = t[1]
    n, (flag, h), z = u
    if flag:
        out[2] = n + h + z.real
    out[3] = z.imag

# RUN: arrays --grid 1 --block 8 "x=(zeros:float64:8, full:float64:8:1, arange:float64:8)"
# EXPECT: x[0]: float64[8] [1, 2, 3, ..., 8] sum=36 crc=875233fc
#   (computed in Python from: [1 + i for i in range(8)])
# EXPECT: x[2]: float64[8] [0, 1, 2, ..., 7] sum=28 crc=5108bd08
#   (computed in Python from: [i for i in range(8)])


@cuda.jit
def arrays(x):
    i = cuda.grid(1)
    if i < len(x[0]):
        x[0][i] = x[1][i] + x[2][i]

# RUN: of_tuples --grid 1 --block 1 r=zeros:int64:9 "x=((), (5, 6), (8, 9, 10))"
# EXPECT: r: int64[9] [3, 0, 2, ..., 10] sum=46 crc=f36ab36a
#   (computed in Python from: [3, 0, 2, 3, 5, 6, 8, 9, 10])


@cuda.jit
def of_tuples(r, x):
    r[0] = len(x)
    r[1] = len(x[0])
    r[2] = len(x[1])
    r[3] = len(x[2])
    r[4] = x[1][0]
    r[5] = x[1][1]
    r[6] = x[2][0]
    r[7] = x[2][1]
    r[8] = x[2][2]

# RUN: array_scalar_tuple --grid 1 --block 1 r=zeros:int64:4 "x=(arange:int64:2, 3, (4, 5))"
# EXPECT: r: int64[4] [0, 1, 3, 9] sum=13 crc=aea89f53
#   (computed in Python from: [0, 1, 3, 4 + 5])


@cuda.jit
def array_scalar_tuple(r, x):
    r[0] = x[0][0]
    r[1] = x[0][1]
    r[2] = x[1]
    a, b = x[2]
    r[3] = a + b

# RUN: empty --grid 1 --block 1 r=full:int64:1:7 "x=()"
# EXPECT: r: int64[1] [0] sum=0 crc=6522df69
#   (computed in Python from: [0])


@cuda.jit
def empty(r, x):
    r[0] = len(x)

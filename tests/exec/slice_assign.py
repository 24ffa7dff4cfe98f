"""Assignment to array slices, as Numba compiles it in kernels: a number
stored into every element of the view (`a[:] = 0`, `a[::2] = x`,
`m[i, :] = v`), an array copied into a view of the same shape
(`a[lo:hi] = b[lo:hi]`) or broadcast onto it (a row into every row of a
matrix; NumPy's rule: dimensions aligned on the right, each equal or 1),
values converted to the view's dtype, overlapping views copied as NumPy
copies them (`a[1:] = a[:-1]` shifts).  A source whose shape does not
broadcast raises Numba's ValueError: the thread ends (its later stores are
not done), and with --debug the launch fails with the message."""
from numba import cuda, float32


@cuda.jit
def mixed(a, b, m):
    a[:] = 0
    a[2:5] = b[2:5]
    a[6:] = 9
    m[1, :] = b[0:4]
    m[0, :] = 3.5
    m[2, ::2] = 1
    m[:, 3] = -1


@cuda.jit
def per_thread(m, v):
    i = cuda.grid(1)
    if i < m.shape[0]:
        m[i, :] = v[i]
        m[i, i:] = 7


@cuda.jit
def shift(a):
    a[1:] = a[:-1]


@cuda.jit
def shift_down(a):
    a[:-1] = a[1:]


@cuda.jit
def broadcast(m, row, col):
    m[:, :] = row
    m[0:2, 0:1] = col


@cuda.jit
def strided(a, x, b):
    a[::2] = x
    a[1::2] = b[::-2]


@cuda.jit
def shared_fill(out):
    s = cuda.shared.array(8, float32)
    t = cuda.local.array(8, float32)
    i = cuda.threadIdx.x
    if i == 0:
        s[:] = 2.5
        s[4:] = 1
    cuda.syncthreads()
    t[:] = s
    out[i] = t[i] + t[7 - i]


@cuda.jit
def bad_shape(a, b):
    a[:] = b
    a[0] = 100


@cuda.jit
def empty(a):
    a[3:3] = 5
    a[5:] = 1


# RUN: mixed --grid 1 --block 1 a=zeros:f32:8 b=arange:f32:8 m=zeros:f32:3x4
# EXPECT: a: float32[8] [0, 0, 2, ..., 9] sum=27 crc=198263b4
#   (computed in Python from: [0, 0, 2, 3, 4, 0, 9, 9])
# EXPECT: m: float32[3x4] [3.5, 3.5, 3.5, ..., -1] sum=12.5 crc=2c5664d1
#   (computed in Python from: [3.5, 3.5, 3.5, -1, 0, 1, 2, -1, 1, 0, 1, -1])
# RUN: per_thread --grid 1 --block 4 m=zeros:i32:4x5 v=arange:f64:4
# EXPECT: m: int32[4x5] [7, 7, 7, ..., 7] sum=112 crc=65631692
#   (computed in Python from: [7 if j >= i else i for i in range(4) for j in range(5)])
# RUN: shift --grid 1 --block 1 a=arange:i32:6
# EXPECT: a: int32[6] [0, 0, 1, 2, 3, 4] sum=10 crc=e07f559a
#   (computed in Python from: [0, 0, 1, 2, 3, 4])
# RUN: shift_down --grid 1 --block 1 a=arange:i32:6
# EXPECT: a: int32[6] [1, 2, 3, 4, 5, 5] sum=20 crc=bddaa850
#   (computed in Python from: [1, 2, 3, 4, 5, 5])
# RUN: broadcast --grid 1 --block 1 m=zeros:f64:3x2 row=arange:i64:2 col=full:f32:2x1:8
# EXPECT: m: float64[3x2] [8, 1, 8, 1, 0, 1] sum=19 crc=39d77c9c
#   (computed in Python from: [8, 1, 8, 1, 0, 1])
# RUN: strided --grid 1 --block 1 a=arange:i16:7 x=3 b=arange:f32:6
# EXPECT: a: int16[7] [3, 5, 3, ..., 3] sum=21 crc=45c4d1e4
#   (computed in Python from: [3, 5, 3, 3, 3, 1, 3])
# RUN: shared_fill --grid 1 --block 8 out=zeros:f32:8
# EXPECT: out: float32[8] [3.5, 3.5, 3.5, ..., 3.5] sum=28 crc=173e9cdc
#   (computed in Python from: [3.5] * 8)
# RUN: bad_shape --grid 1 --block 1 a=full:f32:4:7 b=arange:f32:3
# EXPECT: a: float32[4] [7, 7, 7, 7] sum=28 crc=d1fd45f4
#   (computed in Python from: [7, 7, 7, 7])
# RUN: bad_shape --grid 1 --block 1 --debug a=full:f32:4:7 b=arange:f32:3
# EXPECT-EXIT: 1
# RUN: bad_shape --grid 1 --block 1 a=full:f32:4:7 b=full:f32:1:2
# EXPECT: a: float32[4] [100, 2, 2, 2] sum=106 crc=3044734e
#   (computed in Python from: [100, 2, 2, 2])
# RUN: empty --grid 1 --block 1 a=arange:uint8:5
# EXPECT: a: uint8[5] [0, 1, 2, 3, 4] sum=10 crc=515ad3cc
#   (computed in Python from: [0, 1, 2, 3, 4])

"""Records (NumPy structured dtypes), as Numba has them: a[i].x and
a[i]['x'] read and written, r = a[i] a reference into the array (writes
through r change it), records passed to device functions, nested arrays
(r.v[1]), nested records (a[i].p.b), record copies (a[0] = a[3]), a record
argument passed by reference, aligned and packed layouts.  The inputs are
made by `kjit run` from the descr (arange: every number field of a[i]
holds i; v[j] of a[i] holds i * len(v) + j)."""
import numpy as np
from numba import cuda, float64, void
from numba.cuda.np import numpy_support

point = np.dtype([('x', np.float32), ('y', np.int32), ('z', np.float64), ('v', np.int16, 3)],
                 align=True)
point_t = numpy_support.from_dtype(point)


@cuda.jit(device=True)
def norm1(r):
    return abs(r.x) + abs(r.y)

# RUN: fields --grid 1 --block 4 "a=arange:[('x', 'f4'), ('y', 'i4'), ('z', 'f8'), ('v', 'i2', (3,)), ('', 'V2')]:4" out=zeros:f8:4
# EXPECT: out: float64[4] [0, 3, 6, 9] sum=18 crc=68985bfe
#   (computed in Python from: [3.0 * i for i in range(4)])
# EXPECT: a.x: float32[4] [0.5, 2.5, 4.5, 6.5] sum=14 crc=ef0cb91d
#   (computed in Python from: [2 * i + 0.5 for i in range(4)])
# EXPECT: a.y: int32[4] [0, 10, 20, 30] sum=60 crc=4ebbbc49
#   (computed in Python from: [10 * i for i in range(4)])
# EXPECT: a.z: float64[4] [1, 2, 3, 4] sum=10 crc=0ced622b
#   (computed in Python from: [i + 1.0 for i in range(4)])
# EXPECT: a.v: int16[4x3] [0, 2, 2, ..., 11] sum=88 crc=63f89f41
#   (computed in Python from: [x for i in range(4) for x in (3 * i, 6 * i + 2, 3 * i + 2)])


@cuda.jit
def fields(a, out):
    i = cuda.grid(1)
    if i < a.size:
        r = a[i]
        out[i] = norm1(r) + r['z']
        r.x = r.y * 2 + 0.5
        a[i]['y'] = i * 10
        r.v[1] = r.v[0] + r.v[2]
        r.z += 1.0

# RUN: by_ref --grid 1 --block 1 "r=arange:{'names': ['x', 'y', 'z', 'v'], 'formats': ['f4', 'i4', 'f8', ('i2', (3,))], 'offsets': [0, 4, 8, 16], 'itemsize': 24, 'aligned': True}" out=zeros:f8:1
# EXPECT: out: float64[1] [2] sum=2 crc=13fe9ef9
#   (computed in Python from: [0.0 + 2])
# EXPECT: r.y: int32[] 42 sum=42 crc=eecb9046
#   (computed in Python from: [42])
# EXPECT: r.v: int16[3] [-1, 1, 2] sum=2 crc=15e8c804
#   (computed in Python from: [-1, 1, 2])


@cuda.jit(void(point_t, float64[::1]))
def by_ref(r, out):
    out[0] = r.z + r.v[2]
    r.y = 42
    r.v[0] = -1

# RUN: staged --grid 1 --block 4 "x=arange:{'names': ['x', 'y', 'z', 'v'], 'formats': ['f4', 'i4', 'f8', ('i2', (3,))], 'offsets': [0, 4, 8, 16], 'itemsize': 24, 'aligned': True}:4" "y=zeros:{'names': ['x', 'y', 'z', 'v'], 'formats': ['f4', 'i4', 'f8', ('i2', (3,))], 'offsets': [0, 4, 8, 16], 'itemsize': 24, 'aligned': True}:4"
# EXPECT: y.x: float32[4] [3, 2, 1, 0] sum=6 crc=f3dc1587
#   (computed in Python from: [3.0, 2.0, 1.0, 0.0])
# EXPECT: y.z: float64[4] [0, 0.25, 0.5, 0.75] sum=1.5 crc=3a9451ad
#   (computed in Python from: [0.25 * i for i in range(4)])
# EXPECT: y.v: int16[4x3] [9, 10, 11, ..., 2] sum=66 crc=294bc48e
#   (computed in Python from: [x for i in (3, 2, 1, 0) for x in (3 * i, 3 * i + 1, 3 * i + 2)])


@cuda.jit
def staged(x, y):
    sm = cuda.shared.array(4, dtype=point_t)
    tx = cuda.threadIdx.x
    sm[tx] = x[tx]
    cuda.syncthreads()
    y[tx] = sm[3 - tx]
    y[tx].z = sm[tx].y * 0.25

# RUN: nested --grid 1 --block 4 "a=arange:[('id', 'i8'), ('p', [('a', 'i1'), ('', 'V3'), ('b', 'f4')]), ('w', 'f4', (2, 2))]:4"
# EXPECT: a.id: int64[4] [3, 1, 2, 3] sum=9 crc=581f1ab5
#   (computed in Python from: [3, 1, 2, 3])
# EXPECT: a.p.a: int8[4] [-3, -1, -2, -3] sum=-9 crc=a2e36719
#   (computed in Python from: [-3, -1, -2, -3])
# EXPECT: a.p.b: float32[4] [15.5, 6.5, 11, 15.5] sum=48.5 crc=53c1d6ea
#   (computed in Python from: [4.5 * i + 2 for i in (3, 1, 2, 3)])


@cuda.jit
def nested(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i].p.b = a[i].id * 0.5 + a[i].w[1, 0]
        a[i]['p']['a'] = -a[i].p.a
    cuda.syncthreads()
    if i == 0:
        a[0] = a[3]

# RUN: packed --grid 1 --block 5 "a=arange:[('a', 'i1'), ('b', 'u1'), ('c', 'i2')]:5"
# EXPECT: a.c: int16[5] [0, 1, 4, 9, 16] sum=30 crc=837b7725
#   (computed in Python from: [i * i for i in range(5)])
# EXPECT: a.b: uint8[5] [255, 0, 1, 2, 3] sum=261 crc=a6bb699e
#   (computed in Python from: [255, 0, 1, 2, 3])


@cuda.jit
def packed(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i].c = a[i].a * a[i].b
        a[i].b = a[i].b - 1

# RUN: assign_nested --grid 1 --block 1 "dest=zeros:[('array1', 'i2', (3,))]" src=arange:i2:3
# EXPECT: dest.array1: int16[3] [0, 1, 2] sum=3 crc=3b48a444
#   (computed in Python from: [0, 1, 2])


@cuda.jit
def assign_nested(dest, src):
    dest['array1'] = src

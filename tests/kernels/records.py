"""Records (structured dtypes): field reads and writes, r['x'], records
taken from arrays as references, nested records and array fields, a
record argument passed by reference, a record copy, packed layouts."""
import numpy as np
import numba
from numba import cuda

point = np.dtype([('x', np.float32), ('y', np.int32), ('z', np.float64),
                  ('v', np.int16, 3), ('ok', np.bool_), ('c', np.complex64)], align=True)
point_t = numba.from_dtype(point)
outer = np.dtype([('id', np.int64), ('p', point), ('w', (np.float32, (2, 2)))], align=True)
outer_t = numba.from_dtype(outer)
packed_t = numba.from_dtype(np.dtype([('a', np.int8), ('b', np.int8), ('c', np.int16)]))


@cuda.jit(device=True)
def bump(r, v):
    r.x += v
    return r.y


@cuda.jit("void(point_t[:], float32)")
def fields(a, v):
    i = cuda.grid(1)
    if i < a.size:
        a[i].x = a[i].y * 2 + v
        a[i]['y'] = 7
        r = a[i]
        r.z = r['x'] + 1.0
        r.v[1] = 5
        r.ok = not r.ok
        r.c = r.c * 2
        r.v[2] = bump(r, v)
        if i == 0:
            a[0] = a[1]


@cuda.jit("void(outer_t[:, ::1])")
def nested(a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j].p.x = a[i, j].id
        a[i, j].w[1, 0] = a[i, j].p.v[0]


@cuda.jit("void(point_t, float64[::1])")
def by_ref(r, out):
    out[0] = r.z
    r.y = 3


@cuda.jit("void(packed_t[:])")
def packed(a):
    a[0].c = a[0].a + a[0].b


@cuda.jit("void(point_t[::1], float32[::1])")
def staged(a, out):
    tmp = cuda.local.array(2, point_t)
    sh = cuda.shared.array(32, dtype=point_t)
    dyn = cuda.shared.array(0, dtype=point)
    i = cuda.threadIdx.x
    tmp[0] = a[i]
    tmp[1].x = 2.5
    sh[i] = tmp[0]
    dyn[i].y = i
    cuda.syncthreads()
    out[i] = sh[31 - i].x + tmp[1].x + dyn[i].y

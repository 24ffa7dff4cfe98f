"""Array views as Numba has them: partial indexing of 2-d and 3-d arrays
(rows), slices with negative and run-time bounds and steps, bounds that
clamp as Python's slice.indices, .shape/.strides/.size/.ndim/len() of
views, a.T, views passed to device functions, and writes through views."""
from numba import cuda

# RUN: views --grid 1 --block 1 m=arange:float32:3x4 c=arange:float32:2x3x4 out=zeros:float64:34 z=0
# EXPECT: out: float64[34] [6, 11, 10, ..., 0] sum=324 crc=c55eae88
#   (computed in Python from: (lambda M, C: [M[1][2], M[2][3], M[-1][-2], M[1:][0][1], [r[1] for r in M][2], M[1][::-1][0], [r[1:-1] for r in M[::-2]][1][0], len(M[::-2]) * 10 + len(M[0][1:-1]), len(M[100:]), len(M[-100:2]), len(M[3:1]), M[1][10:-10:-1][0], len(M[1][10:-10:-1]), [r[::-3] for r in M][2][1], sum(M[2]), sum(r[0] for r in M), sum(M[1][1::2]), M[1][3], 4, M[2][0], C[1][2][3], C[1][2][3], C[1][1][2], C[1][0][::-1][0], len(C[-1:][0][1:]), 16, 48, 3, 2, -16, M[-1][0], M[1][-1:][0], len(M[1][::2]), 0])([[4.0 * r + j for j in range(4)] for r in range(3)], [[[12.0 * p + 4 * r + j for j in range(4)] for r in range(3)] for p in range(2)]))

# RUN: writes --grid 1 --block 1 m=arange:float32:3x4
# EXPECT: m: float32[3x4] [100, 1, 2, ..., 75] sum=2279 crc=91c78aad
#   (computed in Python from: (lambda M: [(M[0].__setitem__(0, 100), M[1].__setitem__(2, 50), M[2].__setitem__(3, 70), M[2].__setitem__(3, M[2][3] + 5), M[2].__setitem__(1, M[2][1] - 1), M[0].__setitem__(3, 9), M[1].__setitem__(1, M[1][1] + 1000), M[1].__setitem__(2, M[1][2] + 1000)), [v for r in M for v in r]][1])([[4.0 * r + j for j in range(4)] for r in range(3)]))


@cuda.jit(device=True)
def rowsum(r):
    s = 0.0
    for j in range(r.shape[0]):
        s += r[j]
    return s


@cuda.jit(device=True)
def bump(v):
    for j in range(len(v)):
        v[j] += 1000


@cuda.jit
def views(m, c, out, z):
    row = m[1]
    out[0] = row[2]
    out[1] = m[2][3]
    out[2] = m[-1][-2]
    out[3] = m[1:][0, 1]
    out[4] = m[:, 1][2]
    out[5] = m[1, ::-1][0]
    e = m[::-2, 1:-1]
    out[6] = e[1, 0]
    out[7] = e.shape[0] * 10 + e.shape[1]
    out[8] = m[100:].shape[0]            # clamped: empty
    out[9] = m[-100:2].shape[0]          # clamped: 2 rows
    out[10] = m[3:1].shape[0]            # empty
    out[11] = m[1, 10:-10:-1][0]         # negative step, both bounds clamped
    out[12] = len(m[1, 10:-10:-1])
    out[13] = m[:, ::-3][2, 1]
    out[14] = rowsum(m[2])               # array(float32, 1d, C)
    out[15] = rowsum(m[:, 0])            # array(float32, 1d, A)
    out[16] = rowsum(m[1, 1::2])
    t = m.T
    out[17] = t[3, 1]
    out[18] = t.shape[0]
    out[19] = m.transpose()[0, 2]
    p = c[1]
    out[20] = p[2, 3]
    out[21] = c[1, 2][3]
    out[22] = c[:, 1, 2][1]
    out[23] = c[1, :, ::-1][0, 0]
    out[24] = c[-1:, 1:][0].shape[0]
    out[25] = c[0].strides[0]
    out[26] = c[:, 1].strides[0]
    out[27] = m[:, 1].size
    out[28] = c[0].ndim
    out[29] = m[::-1, 2].strides[0]
    n = 2
    out[30] = m[n - 3][0]                # a negative index known at run time
    s0 = -1
    out[31] = m[1][s0:][0]               # run-time slice bounds
    out[32] = len(m[1, ::z + 2])         # run-time step
    out[33] = len(m[1, ::z])             # run-time step 0: an empty view (kjit's choice)


@cuda.jit
def writes(m):
    row = m[0]
    row[0] = 100
    m[1][2] = 50
    m[1:][1, 3] = 70
    r = m[2, ::-1]
    r[0] += 5
    m[:, 1][2] -= 1
    m.T[3, 0] = 9
    bump(m[1, 1:3])

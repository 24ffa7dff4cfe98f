"""for loops over arrays (1-d: elements, 2-d: rows as views), enumerate
(with a start), zip (arrays and ranges, the shortest length), tuples
(unrolled), a.shape and module tuples; break, continue and
else in them; len() of a 2-d array and of a tuple."""
from numba import cuda

SH = (2, 3)

# RUN: loops --grid 1 --block 1 a=arange:float32:5 m=arange:float32:3x4 out=zeros:float64:16
# EXPECT: out: float64[16] [10, 66, 30, ..., 3] sum=776.5 crc=bced0a2b
#   (computed in Python from: (lambda A, M: [sum(A), sum(sum(r) for r in M), sum(i * x for i, x in enumerate(A)), sum(i for i, x in enumerate(A, 10)), sum(p * q for p, q in zip(A, M[1])), sum(p for p, r in zip(range(100, 0, -7), A)), sum((1, 2.5, 3)), (3 + 1) * (4 + 1), sum((2, 3)), next((i for i, x in enumerate(A) if x == 3), 100), 2, len(M), len((2, 3)), sum(x for x in A[::-2]), sum(r[0] * r[1] for r in M[1:]), sum(1 for x, y in zip(A, A[2:]))])([0.0, 1, 2, 3, 4], [[4.0 * r + j for j in range(4)] for r in range(3)]))


@cuda.jit
def loops(a, m, out):
    s = 0.0
    for x in a:
        s += x
    out[0] = s
    t = 0.0
    for row in m:
        for v in row:
            t += v
    out[1] = t
    u = 0
    for i, x in enumerate(a):
        u += i * x
    out[2] = u
    w = 0
    for i, x in enumerate(a, 10):
        w += i
    out[3] = w
    z = 0.0
    for p, q in zip(a, m[1]):
        z += p * q
    out[4] = z
    c = 0
    for p, r in zip(range(100, 0, -7), a):
        c += p
    out[5] = c
    d = 0.0
    for e in (1.0, 2.5, 3.0):
        d += e
    out[6] = d
    f = 1
    for n in m.shape:
        f *= n + 1
    out[7] = f
    g = 0
    for n in SH:
        g += n
    out[8] = g
    h = 0
    for x in a:
        if x == 3:
            break
        h += 1
    else:
        h = 100
    out[9] = h
    for n in (1, 2):
        if n == 1:
            continue
        out[10] = n
    out[11] = len(m)
    out[12] = len(SH)
    y = 0.0
    for x in a[::-2]:
        y += x
    out[13] = y
    k = 0.0
    for rw in m[1:]:
        k += rw[0] * rw[1]
    out[14] = k
    cnt = 0
    for x, y2 in zip(a, a[2:]):
        cnt += 1
    out[15] = cnt

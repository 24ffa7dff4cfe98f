"""zip() and enumerate() nested in each other, as numba-cuda's
test_enumerate_zip / test_zip_enumerate use them: the shortest source
decides the length, enumerate counts from its start, the inner call's
elements are tuples unpacked by the target (or kept whole)."""
from numba import cuda

# RUN: nested --grid 1 --block 1 x=arange:int32:5 y=arange:float64:7 out=zeros:float64:24
# EXPECT: out: float64[24] [0, 102, 204, ..., 0] sum=1331 crc=ba477bff
#   (computed in Python from: [i * 100 + x + y for i, (x, y) in enumerate(zip(range(5), [float(v) for v in range(7)]))] + [i * 10 + x + 2 * y for (i, x), y in zip(enumerate(range(5), 3), [float(v) for v in range(7)])] + [i + x + y + j for i, (x, (j, y)) in enumerate(zip(range(4), enumerate([float(v) for v in range(7)], 1)))] + [sum(p) + q for p, q in zip(zip(range(5), range(5)), range(2))] + [0.0] * 8)


@cuda.jit
def nested(x, y, out):
    k = 0
    for i, (xv, yv) in enumerate(zip(x, y)):
        out[k] = i * 100 + xv + yv
        k += 1
    for (i, xv), yv in zip(enumerate(x, 3), y):
        out[k] = i * 10 + xv + 2 * yv
        k += 1
    for i, (xv, (j, yv)) in enumerate(zip(x[:4], enumerate(y, 1))):
        out[k] = i + xv + yv + j
        k += 1
    for p, q in zip(zip(x, x), range(2)):
        out[k] = p[0] + p[1] + q
        k += 1

"""Optional values and small Python features in device functions: `is None`
/ `is not None` on a parameter that got None (a default or passed) or a
number, decided from its type so the untaken branch is never typed (Numba's
branch pruning); default parameter values with keywords; `in` / `not in` on
tuples; pow(a, b); int.bit_count() (cuda.popc); `is` between two bools."""
from numba import cuda

PRIMES = (2, 3, 5, 7)


@cuda.jit(device=True)
def scaled(x, scale=2.0, bias=None):
    if bias is None:
        return x * scale
    return x * scale + bias


@cuda.jit(device=True)
def fill(x, y=None):
    if y is None:
        y = 10
    return x + y


@cuda.jit(device=True)
def count(lo, hi=None, step=1):
    if hi is None:
        hi = lo
        lo = 0
    n = 0
    for _ in range(lo, hi, step):
        n += 1
    return n

# RUN: features --grid 1 --block 1 out=zeros:float64:20 n=1023
# EXPECT: out: float64[20] [3, 4.5, 4, ..., 0] sum=1104.75 crc=2a5a1e49
#   (computed in Python from: [3.0, 4.5, 4.0, 6.5, 1.25, 11, 3.5, 11, 1024, 1, 8, 10, 1, 1, 1, 0, 5, 4, 5, 0])


@cuda.jit
def features(out, n):
    out[0] = scaled(1.5)
    out[1] = scaled(1.5, 3.0)
    out[2] = scaled(1.5, bias=1.0)
    out[3] = scaled(1.5, 4.0, 0.5)
    out[4] = scaled(x=2.0, bias=0.25, scale=0.5)
    out[5] = fill(1)
    out[6] = fill(1, 2.5)
    out[7] = fill(1, None)
    out[8] = pow(2, 10)
    out[9] = 1.0 if abs(pow(2.0, 0.5) - 2 ** 0.5) < 1e-12 else 0.0  # libdevice pow: 1 ulp
    out[10] = (255).bit_count()
    out[11] = n.bit_count()
    out[12] = 1.0 if n in (1, 1023, 7) else 0.0
    out[13] = 1.0 if n not in (1, 2) else 0.0
    out[14] = 1.0 if (n > 3) is True else 0.0
    out[15] = 1.0 if n is None else 0.0
    out[16] = count(5)
    out[17] = count(2, 10, 2)
    out[18] = count(1, step=1, hi=6)
    out[19] = 1.0 if n is not n else 0.0

# RUN: membership --grid 1 --block 8 hits=zeros:int32:8
# EXPECT: hits: int32[8] [3, 2, 0, ..., 0] sum=11 crc=e839f21f
#   (computed in Python from: [(i in (0, 3, 5)) + 2 * (i not in (2, 3, 5, 7)) for i in range(8)])


@cuda.jit
def membership(hits):
    i = cuda.grid(1)
    if i < hits.size:
        hits[i] = (i in (0, 3, 5)) + 2 * (i not in PRIMES)

# RUN: local_none --grid 1 --block 1 out=zeros:float64:5
# EXPECT: out: float64[5] [1, 5, 2, 3, 6] sum=17 crc=e5146287
#   (computed in Python from: [1.0, 5, 2.0, 3, 6])


@cuda.jit(device=True)
def level(x, limit=None):
    if limit == 100:
        return x * 2
    return x


@cuda.jit
def local_none(out):
    y = None
    if y is None:
        out[0] = 1.0
    else:
        out[0] = y + 1
    z = 5
    if z is not None:
        out[1] = z
    w = None
    out[2] = scaled(1.0, bias=w)
    out[3] = level(3)
    out[4] = level(3, 100)

# RUN: membership_vars --grid 1 --block 1 out=zeros:float64:6 a=arange:float64:4 n=4
# EXPECT: out: float64[6] [1, 1, 0, 1, 1, 1] sum=5 crc=ad9c9849
#   (computed in Python from: [1, 1, 0, 1, 1, 1])


@cuda.jit
def membership_vars(out, a, n):
    t = (n, n + 1, 7)
    out[0] = 5 in t
    out[1] = 7 in t
    out[2] = 8 in t
    out[3] = 2.0 in a
    out[4] = 9.0 not in a
    out[5] = n in a.shape

# RUN: clamps --grid 1 --block 4 out=zeros:float64:4 a=arange:float64:4
# EXPECT: out: float64[4] [1, 6111, 12172, 18182] sum=36466 crc=d8f4ec06
#   (computed in Python from: [min(max(i, 1.0), 2.0) + 10 * i + 100 * min(i, 1.5) + 1000 * i + 10000 * (i / 2.0) for i in range(4)])


@cuda.jit(device=True)
def clamp(x, lo=None, hi=None):
    if lo is not None and x < lo:
        return lo
    elif hi is not None and x > hi:
        return hi
    return x


@cuda.jit(device=True)
def ratio(x, d=None):
    return x if d is None else x / d


@cuda.jit
def clamps(out, a):
    i = cuda.grid(1)
    if i < out.size:
        v = a[i]
        out[i] = clamp(v, 1.0, 2.0) + clamp(v) * 10 + clamp(v, hi=1.5) * 100
        out[i] += ratio(v) * 1000 + ratio(v, 2.0) * 10000

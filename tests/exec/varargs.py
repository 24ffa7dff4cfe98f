"""*args and keyword-only parameters (after a bare *) in device functions;
*args gives one specialization per count and types of
the extra arguments (Numba's tuple type); `for v in args`, `len(args)`,
`args[k]`; `if len(args) == 0` decided before typing, as Numba's
semantic-constant rewrite and branch pruning decide it, so args[0] in the
untaken branch is never typed."""
from numba import cuda


@cuda.jit(device=True)
def vsum(*args):
    s = 0
    for v in args:
        s += v
    return s


@cuda.jit(device=True)
def first_plus(x, *rest):
    if len(rest) == 0:
        return x
    return x + rest[0] + len(rest)


@cuda.jit(device=True)
def weighted(w, *values):
    s = 0.0
    for k in range(len(values)):
        s += w * values[k]
    return s

# RUN: star --grid 1 --block 1 out=zeros:float64:7 n=3
# EXPECT: out: float64[7] [6, 4, 4, ..., 11] sum=58 crc=dfa9a88f
#   (computed in Python from: [6, 4.0, 4, 10, 17, 0.5 * (3 + 4 + 5), 3 + 2 * 3 + 2])


@cuda.jit
def star(out, n):
    out[0] = vsum(1, 2, 3)
    out[1] = vsum(1.5, 2.5)
    out[2] = vsum(4)
    out[3] = first_plus(10)
    out[4] = first_plus(10, 5, 7)
    out[5] = weighted(0.5, n, n + 1, n + 2)
    out[6] = first_plus(n, 2 * n, n + 2)

# RUN: star_in --grid 1 --block 1 out=zeros:float64:2
# EXPECT: out: float64[2] [1, 0] sum=1 crc=0d7fc8cf
#   (computed in Python from: [1, 0])


@cuda.jit(device=True)
def any_of(x, *options):
    return x in options


@cuda.jit
def star_in(out):
    out[0] = any_of(3, 1, 2, 3)
    out[1] = any_of(4, 1, 2, 3)

# RUN: keyword_only --grid 1 --block 1 out=zeros:float64:3 n=5
# EXPECT: out: float64[3] [3, 4, 9.5] sum=16.5 crc=d89fb5c6
#   (computed in Python from: [3.0, 4.0, 1.5 * 3.0 + 5])


@cuda.jit(device=True)
def affine(x, *, scale=2.0, shift=0.0):
    return x * scale + shift


@cuda.jit
def keyword_only(out, n):
    out[0] = affine(1.5)
    out[1] = affine(1.5, shift=1.0)
    out[2] = affine(1.5, shift=n, scale=3.0)

"""Pattern: device functions returning heterogeneous tuples, unpacked in a
loop over a row view (a[i]).  Variants: (float32, int64, bool) over rows of
32, (float64, float64, int32) min/max/argmax over rows of 64, and a nested
call returning a tuple of a tuple."""
# BENCH row=tup_stats_f32 kernel=tup_stats_f32 grid=8192 block=256 a=in:float32:2097152x32:71:0:1 a=out:float32:2097152 a=out:int32:2097152
# BENCH row=tup_minmax_f64 kernel=tup_minmax_f64 grid=4096 block=256 a=in:float64:1048576x64:72:-1:1 a=out:float64:1048576 a=out:int32:1048576
# BENCH row=tup_nested_f32 kernel=tup_nested_f32 grid=8192 block=256 a=in:float32:2097152x16:73:-1:1 a=out:float32:2097152
from numba import cuda, float32


@cuda.jit(device=True)
def sq_stats(x, k):
    return x * x, k + 1, x > float32(0.5)


@cuda.jit("void(float32[:, ::1], float32[::1], int32[::1])")
def tup_stats_f32(a, s, c):
    i = cuda.grid(1)
    if i < a.shape[0]:
        row = a[i]
        acc = float32(0.0)
        cnt = 0
        for j in range(row.size):
            q, k, big = sq_stats(row[j], j)
            if big:
                acc += q
                cnt += k
        s[i] = acc
        c[i] = cnt


@cuda.jit(device=True)
def step(lo, hi, arg, x, j):
    if x > hi:
        return min(lo, x), x, j
    return min(lo, x), hi, arg


@cuda.jit("void(float64[:, ::1], float64[::1], int32[::1])")
def tup_minmax_f64(a, span, where):
    i = cuda.grid(1)
    if i < a.shape[0]:
        row = a[i]
        lo = row[0]
        hi = row[0]
        arg = 0
        for j in range(1, row.shape[0]):
            lo, hi, arg = step(lo, hi, arg, row[j], j)
        span[i] = hi - lo
        where[i] = arg


@cuda.jit(device=True)
def split(x):
    return (x, -x), x > 0


@cuda.jit("void(float32[:, ::1], float32[::1])")
def tup_nested_f32(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        row = a[i]
        acc = float32(0.0)
        for v in row:
            (p, n), pos = split(v)
            acc += p if pos else n * float32(0.5)
        out[i] = acc

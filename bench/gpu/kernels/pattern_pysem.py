"""Pattern: Python semantics in a kernel: floor division and modulo of
negative numbers, chained comparisons, min/max.  Variants: int32 by a
run-time divisor, int64 by a constant, float64 floor division and modulo."""
# BENCH row=pysem_i32 kernel=pysem_i32 grid=65536 block=256 a=in:int32:16777216:81:-100000:100000 a=out:int32:16777216 a=s:int32:37
# BENCH row=pysem_i64_const kernel=pysem_i64_const grid=65536 block=256 a=in:int64:16777216:82:-100000000:100000000 a=out:int64:16777216
# BENCH row=pysem_f64 kernel=pysem_f64 grid=32768 block=256 a=in:float64:8388608:83:-1000:1000 a=out:float64:8388608 a=s:float64:3.5
from numba import cuda


@cuda.jit("void(int32[::1], int32[::1], int32)")
def pysem_i32(a, out, m):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        q = x // m
        r = x % m
        if -500 < q <= 500:
            out[i] = min(max(q * r, -1000), 1000)
        else:
            out[i] = max(q, r) - min(q, -r)


@cuda.jit("void(int64[::1], int64[::1])")
def pysem_i64_const(a, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        q = x // 1000
        r = x % 7
        out[i] = q * 7 + r if 0 <= r < 4 else min(q, r - x // -13)


@cuda.jit("void(float64[::1], float64[::1], float64)")
def pysem_f64(a, out, m):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        q = x // m
        r = x % m
        out[i] = max(min(q, 100.0), -100.0) + (r if -1.0 < r < 2.0 else -r)

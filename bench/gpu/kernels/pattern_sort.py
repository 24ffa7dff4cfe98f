"""Pattern: a per-thread sort in a cuda.local.array, written the ordinary
way (insertion sort with a while loop), one row of the input per thread.
Variants: 8 float32 values (the issue's case), 8 float64, 16 int32 (the
median written), and a lazily typed float32 kernel with a loop bound taken
from the array."""
# ARGS: ptx %s
# ARGS: ptx %s:isort_lazy --sig "void(float32[:, ::1], float32[:, ::1])"
# BENCH row=sort8_f32 kernel=isort8_f32 grid=16384 block=256 a=in:float32:4194304x8:21:0:1 a=out:float32:4194304x8
# BENCH row=sort8_f32_b128 kernel=isort8_f32 grid=32768 block=128 a=in:float32:4194304x8:22:-1:1 a=out:float32:4194304x8
# BENCH row=sort8_f64 kernel=isort8_f64 grid=8192 block=256 a=in:float64:2097152x8:23:0:1 a=out:float64:2097152x8
# BENCH row=median16_i32 kernel=median16_i32 grid=8192 block=256 a=in:int32:2097152x16:24:-1000:1000 a=out:int32:2097152
# BENCH row=sort8_lazy kernel=isort_lazy grid=16384 block=256 a=in:float32:4194304x8:25:0:1 a=out:float32:4194304x8
from numba import cuda, float32, float64, int32


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def isort8_f32(a, out):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    v = cuda.local.array(8, float32)
    for k in range(8):
        v[k] = a[i, k]
    for k in range(1, 8):
        x = v[k]
        j = k - 1
        while j >= 0 and v[j] > x:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = x
    for k in range(8):
        out[i, k] = v[k]


@cuda.jit("void(float64[:, ::1], float64[:, ::1])")
def isort8_f64(a, out):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    v = cuda.local.array(8, float64)
    for k in range(8):
        v[k] = a[i, k]
    for k in range(1, 8):
        x = v[k]
        j = k - 1
        while j >= 0 and v[j] > x:
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = x
    for k in range(8):
        out[i, k] = v[k]


@cuda.jit("void(int32[:, ::1], int32[::1])")
def median16_i32(a, out):
    i = cuda.grid(1)
    if i >= a.shape[0]:
        return
    v = cuda.local.array(16, int32)
    for k in range(16):
        v[k] = a[i, k]
    for k in range(1, 16):
        x = v[k]
        j = k
        while j > 0 and v[j - 1] > x:
            v[j] = v[j - 1]
            j -= 1
        v[j] = x
    out[i] = (v[7] + v[8]) // 2


@cuda.jit
def isort_lazy(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        v = cuda.local.array(8, float32)
        n = a.shape[1]
        for k in range(n):
            v[k] = a[i, k]
        for k in range(1, n):
            x = v[k]
            j = k - 1
            while j >= 0 and v[j] > x:
                v[j + 1] = v[j]
                j -= 1
            v[j + 1] = x
        for k in range(n):
            out[i, k] = v[k]

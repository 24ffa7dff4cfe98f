# ARGS: ptx %s --arch sm_90
# An insertion sort in a cuda.local.array stays in registers: once the loops
# are unrolled, the store after each inner loop writes through a phi of the
# array's elements (or at a phi of constant indices), which
# codegen/cg_phistore.c splits into one store per element so SROA promotes
# the array (the store had kept the whole array in local memory: a stack
# frame and generic ld/st for every move).  A sort bounded by a run-time
# length cannot be unrolled and keeps its frame.
# CHECK-LABEL: .entry sort8_f32
# CHECK-NOT: __local_depot
# CHECK-NOT: st.f32 [%SP
# CHECK: ret;
# CHECK-LABEL: .entry sort5_i64
# CHECK-NOT: __local_depot
# CHECK: ret;
# CHECK-LABEL: .entry sort_n
# CHECK: __local_depot
from numba import cuda, float32, int64


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def sort8_f32(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
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


@cuda.jit("void(int64[:, ::1])")
def sort5_i64(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        v = cuda.local.array(5, int64)
        for k in range(5):
            v[k] = out[i, k]
        for k in range(1, 5):
            x = v[k]
            j = k
            while j > 0 and v[j - 1] > x:
                v[j] = v[j - 1]
                j -= 1
            v[j] = x
        for k in range(5):
            out[i, k] = v[k]


@cuda.jit("void(float32[:, ::1], int64)")
def sort_n(a, n):
    i = cuda.grid(1)
    if i < a.shape[0]:
        v = cuda.local.array(8, float32)
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
            a[i, k] = v[k]

"""A per-thread insertion sort in a cuda.local.array: the store after each
inner loop writes the element the exit chose (a phi of the array's
elements once the loops are unrolled).  On the CUDA target the array lives
in registers (codegen/cg_phistore.c, tests/filecheck/cg_local_sort.py);
the values must come out sorted all the same, ties and negatives
included, for each of the orders the threads start from."""
from numba import cuda, float32, int64


@cuda.jit
def sort8(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        v = cuda.local.array(8, float32)
        for k in range(8):
            v[k] = float32((i * 7 + k * 13) % 11 - 5)
        for k in range(1, 8):
            x = v[k]
            j = k - 1
            while j >= 0 and v[j] > x:
                v[j + 1] = v[j]
                j -= 1
            v[j + 1] = x
        for k in range(8):
            out[i, k] = v[k]


@cuda.jit
def sort5(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        v = cuda.local.array(5, int64)
        for k in range(5):
            v[k] = (i * 5 + k * 3) % 7 - 3
        for k in range(1, 5):
            x = v[k]
            j = k
            while j > 0 and v[j - 1] > x:
                v[j] = v[j - 1]
                j -= 1
            v[j] = x
        for k in range(5):
            out[i, k] = v[k] * 10 + k


# RUN: sort8 --grid 2 --block 32 out=zeros:f32:50x8
# EXPECT: out: float32[50x8] [-5, -4, -3, ..., 5] sum=1 crc=6ea85cf2
#   (computed in Python from: [x for i in range(50) for x in sorted(float((i * 7 + k * 13) % 11 - 5) for k in range(8))])
# RUN: sort5 --grid 1 --block 64 out=zeros:i64:40x5
# EXPECT: out: int64[40x5] [-30, -9, 2, ..., 34] sum=430 crc=994eb31e
#   (computed in Python from: [x * 10 + k for i in range(40) for k, x in enumerate(sorted((i * 5 + kk * 3) % 7 - 3 for kk in range(5)))])

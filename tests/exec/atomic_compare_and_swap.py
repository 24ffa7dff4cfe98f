"""cuda.atomic.compare_and_swap(ary, old, val): Numba's spelling of a cas on
ary[0], here on a view starting at each thread's element (as numba-cuda's
own test_atomic_compare_and_swap does)."""
from numba import cuda

# RUN: cas_first --grid 1 --block 6 res=arange:int32:6 old=zeros:int32:6 ary=full:int32:6:7 fill=full:int32:1:2
# EXPECT: res: int32[6] [0, 1, 7, 3, 4, 5] sum=20 crc=ff55252b
#   (computed in Python from: [7 if v == 2 else v for v in range(6)])
# EXPECT: old: int32[6] [0, 1, 2, 3, 4, 5] sum=15 crc=850cf83d
#   (computed in Python from: list(range(6)))


@cuda.jit
def cas_first(res, old, ary, fill):
    gid = cuda.grid(1)
    if gid < res.size:
        old[gid] = cuda.atomic.compare_and_swap(res[gid:], fill[0], ary[gid])

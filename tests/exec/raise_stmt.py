"""`raise` in kernels and device functions, as numba-cuda compiles it: the
raising thread ends (a kernel returns; a device function's callers end
too, up to the kernel), so its later stores are not done, while the other
threads go on.  With --debug (debug=True) the exception is reported: the
launch fails with its class and message, the source line, the block and
thread.  Arguments are constants (string literals, numbers)."""
from numba import cuda


class MyError(Exception):
    pass


@cuda.jit(device=True)
def checked(x):
    if x > 3:
        raise ValueError("x too large")
    return x * 2


@cuda.jit(device=True)
def outer(x):
    y = checked(x) + 1
    if y == 3:
        raise MyError
    return y


@cuda.jit
def through_calls(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = -1
        a[i] = outer(i)


@cuda.jit
def in_kernel(a, limit):
    i = cuda.grid(1)
    if i >= a.size:
        return
    a[i] = 1
    if i >= limit:
        raise IndexError("past the limit", 5)
    a[i] = 2


# RUN: through_calls --grid 1 --block 6 a=zeros:i64:6
# EXPECT: a: int64[6] [1, -1, 5, 7, -1, -1] sum=10 crc=2e237595
#   (computed in Python from: [1, -1, 5, 7, -1, -1])
# RUN: in_kernel --grid 2 --block 4 a=zeros:i32:8 limit=5
# EXPECT: a: int32[8] [2, 2, 2, ..., 1] sum=13 crc=594216f6
#   (computed in Python from: [2, 2, 2, 2, 2, 1, 1, 1])
# RUN: in_kernel --grid 2 --block 4 a=zeros:i32:8 limit=8
# EXPECT: a: int32[8] [2, 2, 2, ..., 2] sum=16 crc=b2e66c0b
#   (computed in Python from: [2] * 8)
# RUN: in_kernel --debug --grid 2 --block 4 a=zeros:i32:8 limit=5
# EXPECT-EXIT: 1
# RUN: through_calls --debug --grid 1 --block 6 a=zeros:i64:6
# EXPECT-EXIT: 1

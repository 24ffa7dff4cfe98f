"""The kernel of examples/mpi/ (Collatz stopping times of start..start+n-1):
int64 arithmetic with // and %, a data-dependent while loop, a scalar
start, run on two slices as two MPI ranks would."""
from numba import cuda

# RUN: collatz --grid 8 --block 128 1 out=zeros:int64:1000
# EXPECT: out: int64[1000] [0, 1, 7, ..., 111] sum=59542 crc=51a6d9a8
#   (computed in Python from: (lambda st: [st(n) for n in range(1, 1001)])(lambda n: (lambda f: f(f, n, 0))(lambda f, n, s: s if n == 1 else f(f, n // 2 if n % 2 == 0 else 3 * n + 1, s + 1))))

# RUN: collatz --grid 4 --block 128 837790 out=zeros:int64:500
# EXPECT: out: int64[500] [113, 162, 144, ..., 206] sum=64456 crc=46151841
#   (computed in Python from: (lambda st: [st(n) for n in range(837790, 838290)])(lambda n: (lambda f: f(f, n, 0))(lambda f, n, s: s if n == 1 else f(f, n // 2 if n % 2 == 0 else 3 * n + 1, s + 1))))


@cuda.jit
def collatz(start, out):
    i = cuda.grid(1)
    if i < out.size:
        n = start + i
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        out[i] = steps

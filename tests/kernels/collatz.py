"""examples/mpi/collatz.py's kernel, compiled for the signature the MPI
example launches it with (an int64 start, an int64 output array)."""
from numba import cuda

# ARGS: ptx %s:collatz --sig "void(int64, int64[::1])"


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

"""Collatz stopping times: out[i] = the steps from start + i down to 1.

The kernel of examples/mpi/mpi_collatz.c: every MPI rank runs it on its own
slice of 1..N (start = the slice's first number).  A real Numba kernel:
under Numba, collatz[blocks, threads](1, out) fills out for 1..out.size.
Integer arithmetic throughout, so every target gives the same bits and the
host's check is exact.
"""
from numba import cuda


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

"""Printing from a kernel: every thread prints its thread and block index.

    python3 examples/print_indices.py           # with Numba, on a GPU
    kjit run examples/print_indices.py:print_indices --grid 2 --block 3

Threads print in no fixed order (on the GPU nor on the CPU target): six lines,
"0 0" to "2 1", in some order.
"""
from numba import cuda


@cuda.jit
def print_indices():
    print(cuda.threadIdx.x, cuda.blockIdx.x)


if __name__ == "__main__":
    print_indices[2, 3]()
    cuda.synchronize()

# The compiles that ptxas assembles for sm_80 and sm_90 (tests/ptxas.sh):
# ARGS: ptx %s:print_indices --sig "void()"

# The tests' run (tests/exec.sh, on the CPU target and on the GPU), one
# expected line per thread; tests/examples_readme.sh also compares the
# sorted lines with the six expected ones.
# RUN: print_indices --grid 2 --block 3
# EXPECT: 0 0
# EXPECT: 1 0
# EXPECT: 2 0
# EXPECT: 0 1
# EXPECT: 1 1
# EXPECT: 2 1

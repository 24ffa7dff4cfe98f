"""--debug: assigning an array of another shape to a slice fails the launch
with Numba's ValueError (without --debug the thread ends silently, as in
Numba)."""
# ARGS: run %s:k --target cpu --debug --grid 1 --block 1 zeros:f32:4x3 arange:f32:4
from numba import cuda


@cuda.jit
def k(m, row):
    m[0, :] = row

# ARGS: ptx - -o errors
# -o DIR names each output after its input; standard input has no name.
from numba import cuda

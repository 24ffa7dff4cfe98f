# ARGS: run -:k --target cpu --grid 1 --block 1 zeros:f32:4
# An empty standard input (here /dev/null) holds no kernel named k.
from numba import cuda

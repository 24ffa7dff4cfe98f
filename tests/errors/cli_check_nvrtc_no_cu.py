# ARGS: check %s errors/bad_arch.py -DTILE=16
# NVRTC options go to the .cu files among several inputs; with none, one
# usage error (not one per file).
from numba import cuda

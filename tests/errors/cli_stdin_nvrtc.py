# ARGS: check - -DTILE=16
# Standard input is a Python kernel file: NVRTC options do not apply.
from numba import cuda

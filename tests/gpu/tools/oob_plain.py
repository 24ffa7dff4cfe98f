# As oob.py without lineinfo in the decorator: `kjit run --lineinfo` must
# give compute-sanitizer the line (oob_plain.py:9; scripts/gpu_tools.sh).
from numba import cuda


@cuda.jit("void(float32[::1])")
def oob_plain(a):
    i = cuda.grid(1)
    a[i + 1000000] = 1.0

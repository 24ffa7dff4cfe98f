# ARGS: ptx %s:k --arch sm_90 --max-registers 40 --lineinfo --opt 2
# Command-line options override the decorator's (max_registers=32 here).
import math
from numba import cuda


@cuda.jit("void(float64[:])", max_registers=32)
def k(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = math.exp(a[i])

# CHECK: .target sm_90
# CHECK: .visible .entry k__a1Af64(
# CHECK: .maxnreg 40
# CHECK: .loc

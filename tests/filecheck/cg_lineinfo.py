# ARGS: ptx %s:k --sig "void(float32[:])" --arch sm_80 --lineinfo --emit ptx
# --lineinfo gives .file and .loc directives pointing at the source lines.
# CHECK: .loc [[FILE:[0-9]+]] 12
# CHECK: .file [[FILE]] "{{.*}}cg_lineinfo.py"
from numba import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * 2.0

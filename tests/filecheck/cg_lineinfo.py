# ARGS: ptx %s:k --sig "void(float32[:])" --arch sm_80 --lineinfo --emit ptx
# --lineinfo gives .file and .loc directives pointing at the source lines,
# without marking the module `.target sm_80, debug` (ptxas refuses optimized
# code for such modules, so the kernel would not load through nvJitLink).
# CHECK: .target sm_80{{$}}
# CHECK: .loc [[FILE:[0-9]+]] 14
# CHECK: .file [[FILE]] "{{.*}}cg_lineinfo.py"
from numba import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] = a[i] * 2.0

"""Records: field access on an array element (a[i].x, a[i]['y'], and
assignments to them) is refused by name, with the workaround"""
from numba import cuda

# ARGS: check %s


@cuda.jit
def set_fields(a, v):
    i = cuda.grid(1)
    if i < a.size:
        a[i].x = v
        a[i]['y'] = a[i].x * 2

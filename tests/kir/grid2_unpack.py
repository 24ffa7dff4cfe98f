# ARGS: ptx %s:k --emit kir
# x, y = cuda.grid(2): a tuple unpacked with tuple.get; 2-D indexing;
# .shape[k] with a constant k.
from numba import cuda


@cuda.jit("void(float64[:, :])")
def k(a):
    x, y = cuda.grid(2)
    if x < a.shape[0] and y < a.shape[1]:
        a[x, y] = x * 10 + y

# ARGS: ptx %s:k --emit kir
# Atomics (Numba names: and_, or_...), tuple indices, syncthreads_count,
# syncwarp with its default mask, and the three fences.
from numba import cuda


@cuda.jit("void(int32[:], int32[:, :])")
def k(a, m):
    i = cuda.grid(1)
    cuda.atomic.add(a, 0, 1)
    cuda.atomic.max(a, 1, i)
    cuda.atomic.and_(a, 2, 7)
    old = cuda.atomic.cas(a, 3, 0, 1)
    cuda.atomic.add(m, (0, 1), old)
    n = cuda.syncthreads_count(i > 4)
    cuda.syncwarp()
    cuda.threadfence()
    cuda.threadfence_block()
    cuda.threadfence_system()
    a[4] = n

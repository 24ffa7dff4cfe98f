# ARGS: ptx %s:k --sig "void(int32[::1])" --arch sm_80
# g.sync() without cudadevrt: the grid workspace's address from %envreg1
# (high) and %envreg2 (low), whose counter at offset 4 thread (0,0,0) of
# each block bumps atomically between two bar.sync, spinning on a volatile
# load until bit 31 flips.
# CHECK: .entry k__a1Ci32
# CHECK-DAG: mov.u32 {{%r[0-9]+}}, %envreg1;
# CHECK-DAG: mov.u32 {{%r[0-9]+}}, %envreg2;
# CHECK-DAG: bar.sync 0;
# CHECK-DAG: atom.add.u32
# CHECK-DAG: ld.volatile.u32
# CHECK-DAG: membar.gl;
from numba import cuda


@cuda.jit
def k(a):
    i = cuda.grid(1)
    g = cuda.cg.this_grid()
    a[i] = i
    g.sync()
    a[i] += a[a.size - 1 - i]

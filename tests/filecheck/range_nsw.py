# ARGS: ptx %s:hist --emit ptx --arch sm_90
# A range counter cannot wrap (Python's range does not), so LLVM proves the
# grid-stride index is never negative and drops Numba's negative-index
# wraparound (a shift, an and and an add per access) from the loop.
from numba import cuda, uint32


@cuda.jit("void(uint8[::1], uint32[::1])")
def hist(data, bins):
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, data.size, stride):
        cuda.atomic.add(bins, data[i], 1)
# CHECK: .entry hist
# CHECK: ld.global.u8
# CHECK-NOT: shr.s64
# CHECK: atom.global.add.u32
# CHECK: ret;

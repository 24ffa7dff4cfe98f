"""Matrix transpose through a shared-memory tile with +1 padding (no bank
conflicts), 8192 x 8192 float32: 32 x 32 tiles, blocks of 32 x 8 threads,
each thread moving 4 elements (NVIDIA's "efficient transpose")."""
from numba import cuda, float32

TILE = 32
TILE_PAD = TILE + 1   # a module constant: Numba rejects the expression inside the shape
BLOCK_ROWS = 8


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def transpose(a, b):
    tile = cuda.shared.array(shape=(TILE, TILE_PAD), dtype=float32)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    x = cuda.blockIdx.x * TILE + tx
    y = cuda.blockIdx.y * TILE + ty
    for k in range(0, TILE, BLOCK_ROWS):
        if y + k < a.shape[0] and x < a.shape[1]:
            tile[ty + k, tx] = a[y + k, x]
    cuda.syncthreads()
    x = cuda.blockIdx.y * TILE + tx
    y = cuda.blockIdx.x * TILE + ty
    for k in range(0, TILE, BLOCK_ROWS):
        if y + k < b.shape[0] and x < b.shape[1]:
            b[y + k, x] = tile[tx, ty + k]

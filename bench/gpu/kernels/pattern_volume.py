"""Pattern: a 3-D volume walked by three nested grid-stride loops driven by
cuda.grid(3) and cuda.gridsize(3).  Variants: float32 scale of 256^3 with a
(8, 8, 8) x (32, 4, 2) launch, a 6-neighbour average (interior points) on
the same volume with (16, 16, 4) x (32, 8, 1), and float64 on 160^3."""
# BENCH row=vol_scale_f32 kernel=vol_scale_f32 grid=8,8,8 block=32,4,2 a=in:float32:256x256x256:41:0:1 a=out:float32:256x256x256
# BENCH row=vol_avg6_f32 kernel=vol_avg6_f32 grid=16,16,4 block=32,8,1 a=in:float32:256x256x256:42:0:1 a=out:float32:256x256x256
# BENCH row=vol_scale_f64 kernel=vol_scale_f64 grid=4,20,20 block=32,4,2 a=in:float64:160x160x160:43:-1:1 a=out:float64:160x160x160
from numba import cuda, float32


@cuda.jit("void(float32[:, :, ::1], float32[:, :, ::1])")
def vol_scale_f32(a, out):
    x0, y0, z0 = cuda.grid(3)
    sx, sy, sz = cuda.gridsize(3)
    nz, ny, nx = a.shape
    for z in range(z0, nz, sz):
        for y in range(y0, ny, sy):
            for x in range(x0, nx, sx):
                out[z, y, x] = float32(2.0) * a[z, y, x] + float32(1.0)


@cuda.jit("void(float32[:, :, ::1], float32[:, :, ::1])")
def vol_avg6_f32(a, out):
    x0, y0, z0 = cuda.grid(3)
    sx, sy, sz = cuda.gridsize(3)
    nz, ny, nx = a.shape
    for z in range(z0 + 1, nz - 1, sz):
        for y in range(y0 + 1, ny - 1, sy):
            for x in range(x0 + 1, nx - 1, sx):
                s = (a[z - 1, y, x] + a[z + 1, y, x] + a[z, y - 1, x] + a[z, y + 1, x]
                     + a[z, y, x - 1] + a[z, y, x + 1])
                out[z, y, x] = s * float32(1.0 / 6.0)


@cuda.jit("void(float64[:, :, ::1], float64[:, :, ::1])")
def vol_scale_f64(a, out):
    x0, y0, z0 = cuda.grid(3)
    sx, sy, sz = cuda.gridsize(3)
    for z in range(z0, a.shape[0], sz):
        for y in range(y0, a.shape[1], sy):
            for x in range(x0, a.shape[2], sx):
                v = a[z, y, x]
                out[z, y, x] = v * v + 0.25

"""bench/gpu/kernels/nbody.py (the N-body step of the GPU benchmarks; the code
below the docstring is the same, tests/bench_sync.py checks it) on 256
bodies, two tiles of 128: body i at (4i, 4i+1, 4i+2) with mass 4i+3, every
velocity component 100, dt = 1, eps2 = 0.25.  The expected values are
float64 NumPy (pairwise differences, (|d|^2 + eps2)^-1.5, sums over all
bodies), printed to 6 digits: the acceleration (about 0.353 for body 0)
moves the velocity in the 4th digit, so float32 rounding and rsqrt.approx
(2 ulps) stay far below what is printed (checked: 80x margin); the sums and
crcs are left out for that reason.  The masses pass through unchanged and
vel_out's 4th component is 0."""
# RUN: nbody --grid 2 --block 128 pos=arange:float32:256x4 vel=full:float32:256x4:100 pos_out=zeros:float32:256x4 vel_out=zeros:float32:256x4 dt=float32:1 eps2=float32:0.25
# EXPECT: pos_out: float32[256x4] [100.353, 101.353, 102.353, ..., 1023]
# EXPECT: vel_out: float32[256x4] [100.353, 100.353, 100.353, ..., 0]
#   (computed in Python: p = arange(1024.).reshape(256, 4); d = p[None, :, :3] - p[:, None, :3];
#    a = (d * (p[None, :, 3] * ((d**2).sum(-1) + 0.25) ** -1.5)[:, :, None]).sum(1);
#    vel_out = 100 + a, pos_out = p[:, :3] + vel_out, to 6 digits)
from numba import cuda, float32
from numba.cuda import libdevice

TILE = 128
ZERO = float32(0.0)


@cuda.jit("void(float32[:, ::1], float32[:, ::1], float32[:, ::1], float32[:, ::1], "
          "float32, float32)")
def nbody(pos, vel, pos_out, vel_out, dt, eps2):
    tile = cuda.shared.array((TILE, 4), dtype=float32)
    i = cuda.grid(1)
    t = cuda.threadIdx.x
    n = pos.shape[0]
    px = pos[i, 0] if i < n else ZERO
    py = pos[i, 1] if i < n else ZERO
    pz = pos[i, 2] if i < n else ZERO
    ax = ZERO
    ay = ZERO
    az = ZERO
    for base in range(0, n, TILE):
        j = base + t
        for c in range(4):
            tile[t, c] = pos[j, c] if j < n else ZERO
        cuda.syncthreads()
        for k in range(TILE):
            dx = tile[k, 0] - px
            dy = tile[k, 1] - py
            dz = tile[k, 2] - pz
            r2 = dx * dx + dy * dy + dz * dz + eps2
            inv = libdevice.rsqrtf(r2)
            s = tile[k, 3] * (inv * inv * inv)
            ax += dx * s
            ay += dy * s
            az += dz * s
        cuda.syncthreads()
    if i < n:
        vx = vel[i, 0] + dt * ax
        vy = vel[i, 1] + dt * ay
        vz = vel[i, 2] + dt * az
        vel_out[i, 0] = vx
        vel_out[i, 1] = vy
        vel_out[i, 2] = vz
        vel_out[i, 3] = ZERO
        pos_out[i, 0] = px + dt * vx
        pos_out[i, 1] = py + dt * vy
        pos_out[i, 2] = pz + dt * vz
        pos_out[i, 3] = pos[i, 3]

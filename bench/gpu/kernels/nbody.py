"""One N-body step (32768 bodies, float32): every body's acceleration from
all bodies, with tiles of 128 bodies staged in shared memory, then a
semi-implicit Euler update (velocity, then position with the new velocity)
into new arrays.  pos[i] = (x, y, z, mass); vel[i, 3] is not read and
vel_out[i, 3] is 0; the softening eps2 keeps the self-interaction at zero
force.  The inverse square root is libdevice's rsqrtf: the rsqrt.approx.f32
instruction, as CUDA C's rsqrtf.  `float32(1) / math.sqrt(r2)` would be the
correctly rounded sqrt and division instead (a different, slower
computation; `1.0 / math.sqrt(r2)` is even a float64 division in Numba's
typing).  Blocks of 128 threads."""
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

"""Guard corpus: local arrays, array views (rows, slices, strided), device
functions (chains, tuples, early returns), 2-D and 3-D indexing, integer
types, loops with break and continue."""
# BENCH row=local_prefix16_f32 kernel=local_prefix16_f32 grid=8192 block=256 a=in:float32:2097152x16:141:0:1 a=out:float32:2097152
# BENCH row=local_bins8_i32 kernel=local_bins8_i32 grid=8192 block=256 a=in:int32:2097152x16:142:0:8 a=out:int32:2097152x8
# BENCH row=local_matvec4_f64 kernel=local_matvec4_f64 grid=8192 block=256 a=in:float64:2097152x4:143:-1:1 a=out:float64:2097152x4
# BENCH row=view_row_slice kernel=view_row_slice grid=4096 block=256 a=in:float32:1048576x32:144:0:1 a=out:float32:1048576
# BENCH row=view_strided kernel=view_strided grid=65536 block=256 a=in:float32:33554432:145:0:1 a=out:float32:16777216
# BENCH row=view_2d_block kernel=view_2d_block grid=128,128 block=16,16 a=in:float32:8192x8192:146:0:1 a=out:float32:2048x2048
# BENCH row=device_chain kernel=device_chain grid=131072 block=256 a=in:float32:33554432:147:-2:2 a=out:float32:33554432
# BENCH row=device_early_return kernel=device_early_return grid=16384 block=256 a=in:int64:4194304:148:-1000:1000 a=out:int64:4194304
# BENCH row=loop_break_continue kernel=loop_break_continue grid=8192 block=256 a=in:int32:2097152x32:149:0:100 a=out:int32:2097152
# BENCH row=int_types_u8_i16 kernel=int_types_u8_i16 grid=131072 block=256 a=in:uint8:33554432:150:0:256 a=out:int16:33554432
# BENCH row=index_3d kernel=index_3d grid=8,128,128 block=64,2,2 a=in:float64:256x256x512:151:0:1 a=out:float64:256x256x512
# BENCH row=bool_mask kernel=bool_mask grid=131072 block=256 a=in:float32:33554432:152:-1:1 a=out:bool:33554432 a=out:float32:33554432
from numba import cuda, float32, float64, int16, int32


@cuda.jit("void(float32[:, ::1], float32[::1])")
def local_prefix16_f32(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        v = cuda.local.array(16, float32)
        acc = float32(0.0)
        for k in range(16):
            acc += a[i, k]
            v[k] = acc
        best = v[0]
        for k in range(1, 16):
            best = max(best, v[k] - float32(0.5) * k)
        out[i] = best


@cuda.jit("void(int32[:, ::1], int32[:, ::1])")
def local_bins8_i32(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        bins = cuda.local.array(8, int32)
        for k in range(8):
            bins[k] = 0
        for k in range(a.shape[1]):
            bins[a[i, k] % 8] += 1
        for k in range(8):
            out[i, k] = bins[k]


@cuda.jit("void(float64[:, ::1], float64[:, ::1])")
def local_matvec4_f64(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        m = cuda.local.array((4, 4), float64)
        for r in range(4):
            for c in range(4):
                m[r, c] = 1.0 / (r + c + 1)
        for r in range(4):
            s = 0.0
            for c in range(4):
                s += m[r, c] * a[i, c]
            out[i, r] = s


@cuda.jit("void(float32[:, ::1], float32[::1])")
def view_row_slice(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        mid = a[i][8:24]
        s = float32(0.0)
        for v in mid:
            s += v
        out[i] = s - a[i, 0]


@cuda.jit("void(float32[::1], float32[::1])")
def view_strided(x, out):
    even = x[::2]
    odd = x[1::2]
    i = cuda.grid(1)
    if i < even.size:
        out[i] = even[i] * float32(2.0) - odd[i]


@cuda.jit("void(float32[:, ::1], float32[:, ::1])")
def view_2d_block(a, out):
    c, r = cuda.grid(2)
    if r < out.shape[0] and c < out.shape[1]:
        blk = a[4 * r:4 * r + 4, 4 * c:4 * c + 4]
        s = float32(0.0)
        for y in range(4):
            for x in range(4):
                s += blk[y, x]
        out[r, c] = s


@cuda.jit(device=True)
def sq(x):
    return x * x


@cuda.jit(device=True)
def poly(x):
    return sq(x) * float32(0.5) + sq(x - float32(1.0))


@cuda.jit(device=True)
def clamp(x, lo, hi):
    return min(max(x, lo), hi)


@cuda.jit("void(float32[::1], float32[::1])")
def device_chain(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = clamp(poly(x[i]), float32(0.25), float32(3.0))


@cuda.jit(device=True)
def collatz_steps(n):
    if n <= 0:
        return -n
    steps = 0
    while n != 1 and steps < 64:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@cuda.jit("void(int64[::1], int64[::1])")
def device_early_return(x, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = collatz_steps(x[i])


@cuda.jit("void(int32[:, ::1], int32[::1])")
def loop_break_continue(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        s = 0
        for k in range(a.shape[1]):
            v = a[i, k]
            if v % 3 == 0:
                continue
            if v > 95:
                break
            s += v
        out[i] = s


@cuda.jit("void(uint8[::1], int16[::1])")
def int_types_u8_i16(x, out):
    i = cuda.grid(1)
    if i < x.size:
        b = x[i]
        out[i] = int16(b) * int16(3) - int16(b >> 2) + int16(b ^ 0x5a)


@cuda.jit("void(float64[:, :, ::1], float64[:, :, ::1])")
def index_3d(a, out):
    x, y, z = cuda.grid(3)
    if z < a.shape[0] and y < a.shape[1] and x < a.shape[2]:
        out[z, y, x] = a[z, y, x] + a[z, y, a.shape[2] - 1 - x] * 0.5


@cuda.jit("void(float32[::1], boolean[::1], float32[::1])")
def bool_mask(x, m, out):
    i = cuda.grid(1)
    if i < x.size:
        pos = x[i] > 0
        m[i] = pos
        out[i] = x[i] if pos and not (x[i] > float32(0.9)) else float32(0.0)

"""Guard corpus: atomics of every kind, each on a small table that many
threads hit (global and shared), 2^22 threads."""
# BENCH row=atomic_add_f32 kernel=atomic_add_f32 grid=131072 block=256 a=in:float32:33554432:101:0:1 a=out:float32:1024
# BENCH row=atomic_add_i64_shared kernel=atomic_add_i64_shared grid=16384 block=256 a=in:int64:4194304:102:0:1000 a=out:int64:256
# BENCH row=atomic_sub_i32 kernel=atomic_sub_i32 grid=16384 block=256 a=in:int32:4194304:103:0:100 a=out:int32:512
# BENCH row=atomic_max_min_f32 kernel=atomic_max_min_f32 grid=131072 block=256 a=in:float32:33554432:104:-100:100 a=out:float32:512 a=out:float32:512
# BENCH row=atomic_max_min_i64 kernel=atomic_max_min_i64 grid=16384 block=256 a=in:int64:4194304:105:-100000:100000 a=out:int64:512 a=out:int64:512
# BENCH row=atomic_bits_u32 kernel=atomic_bits_u32 grid=16384 block=256 a=in:uint32:4194304:106:0:4000000000 a=out:uint32:256 a=out:uint32:256 a=out:uint32:256
# BENCH row=atomic_inc_dec_u32 kernel=atomic_inc_dec_u32 grid=16384 block=256 a=out:uint32:256 a=out:uint32:256
# BENCH row=atomic_cas_i32 kernel=atomic_cas_i32 grid=4096 block=256 a=in:int32:1048576:107:0:1000 a=out:int32:1024
# BENCH row=atomic_exch_u32 kernel=atomic_exch_u32 grid=65536 block=256 a=in:uint32:16777216:108:0:1000 a=out:uint32:16777216
from numba import cuda, int32, int64, uint32


@cuda.jit("void(float32[::1], float32[::1])")
def atomic_add_f32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(out, i % out.size, x[i])


@cuda.jit("void(int64[::1], int64[::1])")
def atomic_add_i64_shared(x, out):
    s = cuda.shared.array(256, int64)
    t = cuda.threadIdx.x
    s[t] = 0
    cuda.syncthreads()
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.add(s, x[i] % 256, x[i])
    cuda.syncthreads()
    cuda.atomic.add(out, t, s[t])


@cuda.jit("void(int32[::1], int32[::1])")
def atomic_sub_i32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.sub(out, (i * 7) % out.size, x[i])


@cuda.jit("void(float32[::1], float32[::1], float32[::1])")
def atomic_max_min_f32(x, hi, lo):
    i = cuda.grid(1)
    if i < x.size:
        k = i % hi.size
        cuda.atomic.max(hi, k, x[i])
        cuda.atomic.min(lo, k, x[i])


@cuda.jit("void(int64[::1], int64[::1], int64[::1])")
def atomic_max_min_i64(x, hi, lo):
    i = cuda.grid(1)
    if i < x.size:
        k = i % hi.size
        cuda.atomic.max(hi, k, x[i])
        cuda.atomic.min(lo, k, x[i])


@cuda.jit("void(uint32[::1], uint32[::1], uint32[::1], uint32[::1])")
def atomic_bits_u32(x, a, o, e):
    i = cuda.grid(1)
    if i < x.size:
        k = i % a.size
        cuda.atomic.and_(a, k, x[i] | uint32(0xfff0000f))
        cuda.atomic.or_(o, k, x[i] & uint32(0x0000fff0))
        cuda.atomic.xor(e, k, x[i])


@cuda.jit("void(uint32[::1], uint32[::1])")
def atomic_inc_dec_u32(a, b):
    i = cuda.grid(1)
    k = i % a.size
    cuda.atomic.inc(a, k, uint32(1000))
    cuda.atomic.dec(b, k, uint32(777))


@cuda.jit("void(int32[::1], int32[::1])")
def atomic_cas_i32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        k = x[i] % out.size
        old = out[k]
        while True:
            seen = cuda.atomic.compare_and_swap(out[k:], old, int32(old + 1))
            if seen == old:
                break
            old = seen


@cuda.jit("void(uint32[::1], uint32[::1])")
def atomic_exch_u32(x, out):
    i = cuda.grid(1)
    if i < x.size:
        cuda.atomic.exch(out, i, x[i] * uint32(2))

"""Record Numba's value semantics on the GPU for kjit's reference tests:
floor division and modulo of negatives, conversions on store, rounding,
and the text printed by print() in a kernel.  Run where Numba and a GPU exist."""
import numpy

numpy.row_stack = numpy.vstack
from numba import cuda  # noqa: E402
import numpy as np  # noqa: E402


@cuda.jit
def arith(out_i, out_f, a, b, fa, fb):
    out_i[0] = a // b
    out_i[1] = a % b
    out_i[2] = a // 0
    out_i[3] = a % 0
    out_i[4] = round(2.5)
    out_i[5] = round(-3.5)
    out_i[6] = -a // b
    out_i[7] = -(a % b)
    out_f[0] = fa // fb
    out_f[1] = fa % fb
    out_f[2] = -fa % fb
    out_f[3] = fa // 0.0
    out_f[4] = fa % 0.0
    out_f[5] = round(2.675, 2)
    out_f[6] = a / b
    out_f[7] = a ** -1


@cuda.jit
def stores(u8, i32, i64, u32, src):
    for k in range(src.size):
        u8[k] = src[k]
        i32[k] = src[k]
        i64[k] = src[k]
        u32[k] = src[k]


@cuda.jit
def printer(x, f, b):
    print("tid", cuda.threadIdx.x, x, f, b, np.float32(f), -1, True, 1.5e300)


def main():
    oi = cuda.to_device(np.zeros(8, np.int64))
    of = cuda.to_device(np.zeros(8, np.float64))
    arith[1, 1](oi, of, -7, 2, -7.5, 2.0)
    print("arith int", oi.copy_to_host().tolist())
    print("arith float", of.copy_to_host().tolist())
    src = np.array([300.7, -1.5, 1e10, -1e10, np.nan, np.inf, -np.inf, 255.9], np.float64)
    u8 = cuda.to_device(np.zeros(src.size, np.uint8))
    i32 = cuda.to_device(np.zeros(src.size, np.int32))
    i64 = cuda.to_device(np.zeros(src.size, np.int64))
    u32 = cuda.to_device(np.zeros(src.size, np.uint32))
    stores[1, 1](u8, i32, i64, u32, src)
    for n, a in (("u8", u8), ("i32", i32), ("i64", i64), ("u32", u32)):
        print("store", n, a.copy_to_host().tolist())
    printer[1, 2](7, 2.5, True)
    cuda.synchronize()


if __name__ == "__main__":
    main()

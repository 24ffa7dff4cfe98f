"""Python builtins (min/max/abs/round/int/float/bool/len) and NumPy scalar
constructors."""
from numba import cuda
import numpy as np


@cuda.jit("void(float32[:], int64[:], float64[:])")
def builtins(x, iout, fout):
    i = cuda.grid(1)
    if i >= len(x):
        return
    v = x[i]
    a = abs(v)
    b = abs(-i)
    lo = min(v, 0.5)
    hi = max(i, 3, len(iout))
    r = round(v)
    r2 = round(v * 10.0, 2)
    t = int(v * 3.7)
    f = float(i)
    flag = bool(i % 2)
    h = np.float32(v) * np.float32(2)
    q = np.int32(i) + np.int16(1)
    u = np.uint8(200) + np.uint8(100)
    d = np.float64(h)
    iout[i] = b + hi + r + t + int(flag) + q + u
    fout[i] = a + lo + f + h + d + r2 + min(1, 2.5) + max(f, 1)


if __name__ == "__main__":
    pass

"""Module-level constant arrays that are empty or complex, as Numba freezes
NumPy globals: np.zeros(0) and np.array([], dtype=...) have size 0 (a kernel
reads their size and loops over them zero times), np.array of complex
literals is complex128 (NumPy's default), dtype=np.complex64 rounds each
part to float32."""
import numpy as np
from numba import cuda

EMPTY = np.zeros(0)
EMPTY32 = np.array([], dtype=np.float32)
EMPTY2D = np.zeros((2, 0), dtype=np.int32)
Z = np.array([1 + 2j, 3j, -0.5])
Z64 = np.array([[1 + 2j, 3j], [0.1, -1j]], dtype=np.complex64)


@cuda.jit
def sizes(o):
    s = 0.0
    for i in range(EMPTY.size):
        s += EMPTY[i]
    o[0] = EMPTY.size + len(EMPTY32) + EMPTY2D.shape[0] * 10 + EMPTY2D.shape[1] + s


@cuda.jit
def complex_consts(c, c64):
    i = cuda.grid(1)
    if i < Z.size:
        c[i] = Z[i] * Z[1]
    if i < 4:
        c64[i] = Z64[i // 2, i % 2] * 2


# RUN: sizes --grid 1 --block 1 o=zeros:f64:1
# EXPECT: o: float64[1] [20] sum=20 crc=a8d46d0e
#   (computed in Python from: [20])
# RUN: complex_consts --grid 1 --block 4 c=zeros:c128:3 c64=zeros:c64:4
# EXPECT: c: complex128[3] [(-6+3j), (-9+0j), (-0-1.5j)] sum=-15 crc=a151dba6
#   (computed in Python from: [z * 3j for z in [1 + 2j, 3j, -0.5]])
# EXPECT: c64: complex64[4] [(2+4j), (0+6j), (0.2+0j), (0-2j)] sum=2.200000003 crc=7804f517
#   (computed in Python from: [complex(f32(z.real), f32(z.imag)) * 2 for z in [1 + 2j, 3j, 0.1, -1j]])

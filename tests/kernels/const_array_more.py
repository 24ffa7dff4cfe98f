# Empty and complex module-level constant arrays through ptxas;
# tests/exec/const_array_more.py runs them.
# ARGS: ptx %s:sizes --sig "void(float64[:])"
# ARGS: ptx %s:complex_consts --sig "void(complex128[:], complex64[:])"
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



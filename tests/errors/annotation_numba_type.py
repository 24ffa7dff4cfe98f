# ARGS: ptx %s:k --sig "void(float64[:], int64)"
# Python annotations are ignored (n: int), but one naming a Numba type
# constrains the parameter, and a different argument type is an error.
import numpy as np
from numba import cuda, float32


@cuda.jit
def k(w: float32[:], n: int) -> None:
    w[0] = n

"""A complete Numba script: kernels plus host code that kjit skips."""
from __future__ import annotations

import math
import sys
import numpy as np
from numba import cuda, float32, int32
from numba.cuda.random import (create_xoroshiro128p_states,
                               xoroshiro128p_uniform_float32,)

TPB = 16
N = 1 << 20
ALPHA: float = 2.5
data = np.arange(N, dtype=np.float32)   # host global, parses as an expression
CONFIG = {"a": 1, **extra}
WEIRD = lambda x: x + 1
a = b = 0


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a * x[i] + y[i]


@cuda.jit(device=True)
def clamp(v, lo, hi):
    return min(max(v, lo), hi)


@cuda.jit("void(float32[:, :], float32[:, :], float32[:, :])", fastmath=True)
def matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    tmp = float32(0.)
    for i in range(B.shape[0] // TPB):
        sA[tx, 0] = A[x, i * TPB + tx]
        cuda.syncthreads()
    C[x, y] = tmp


def helper(n):
    """Undecorated and valid: recorded, usable later."""
    return n * 2


def host_main():
    with open("x") as f:
        print(f.read())
    result = [x ** 2 for x in range(10) if x % 2]
    print(f"{result!r:>{20}}", file=sys.stderr)


class Runner:
    def __init__(self):
        self.x = [i for i in range(3)]

    @property
    def y(self):
        return {k: v for k, v in self.x}


@dataclass
class Point:
    x: int
    y: int


for i in range(3):
    print(i)
else:
    pass

try:
    import cupy
except ImportError:
    cupy = None
finally:
    pass

x[0] = 1
assert N > 0, "positive"
match sys.argv:
    case [_, "run"]:
        print("run")
    case _:
        pass

if __name__ == "__main__":
    d_x = cuda.to_device(data)
    saxpy[(N + 255) // 256, 256](2.0, d_x, d_x, d_x)
    print("done", d_x.copy_to_host()[:10])
    async_result = await_it() if False else None

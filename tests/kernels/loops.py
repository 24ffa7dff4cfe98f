"""Loops: while, for with negative steps, break, continue, for-else, while-else."""
from numba import cuda
import numpy as np


@cuda.jit("void(int64[:], int64)")
def loops(out, n):
    i = cuda.grid(1)
    if i >= out.size:
        return
    total = 0
    for k in range(n, 0, -1):
        if k % 3 == 0:
            continue
        if k > 100:
            break
        total += k
    for k in range(10, -10, -3):
        total -= k
    j = 0
    while j < n:
        j += 2
        if j == 7:
            break
    else:
        total += 1000
    for k in range(5):
        if k == i:
            break
    else:
        total += 1
    m = n
    while True:
        m //= 2
        if m <= 1:
            break
    out[i] = total + j + m


@cuda.jit("void(float32[:], int32)")
def nested(out, steps):
    i = cuda.grid(1)
    acc = 0.0
    for a in range(steps):
        for b in range(a, steps, 2):
            if b == 3:
                continue
            acc += a * b
        k = steps
        while k > 0:
            k -= 1
            if k == a:
                break
            acc -= 1
    if i < out.shape[0]:
        out[i] = acc


if __name__ == "__main__":
    out = np.zeros(32, dtype=np.int64)
    loops[1, 32](out, 20)

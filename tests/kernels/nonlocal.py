# nonlocal in nested functions through ptxas; tests/exec/nonlocal.py runs them.
# ARGS: ptx %s:prune --sig "void(float64[::1])"
# ARGS: ptx %s:counter --sig "void(float64[::1], int64)"
# ARGS: ptx %s:fib --sig "void(int64[::1])"
# ARGS: ptx %s:reassigned --sig "void(int64[::1])"
from numba import cuda


@cuda.jit
def prune(res):
    x = 1000

    def closure():
        nonlocal x
        x = 0

    closure()

    if x == 0:
        res[0] = 1.0
    else:
        res[0] = 2.0


@cuda.jit
def counter(out, n):
    i = cuda.grid(1)
    if i >= out.size:
        return
    count = 0
    last = -1.0

    def add(v):
        nonlocal count, last
        count = count + 1
        last = v * 0.5
        if v % 3 == 0:
            return v * 2
        return v

    s = 0
    k = 0
    while k < n:
        s += add(k + i) + count
        k += 1
    out[i] = s * 1000 + count * 10 + last


@cuda.jit
def fib(out):
    a = 1
    b = 2

    def step(k):
        nonlocal a, b
        if k == 3:
            return
        a, b = b, a + b

    for k in range(6):
        step(k)
    out[0] = a
    out[1] = b


@cuda.jit
def reassigned(out):
    i = cuda.grid(1)
    if i >= out.size:
        return
    total = 0

    def acc(v):
        nonlocal total
        if v % 2 == 0:
            total += v
        else:
            total -= 1

    for v in range(i + 5):
        acc(v)
    out[i] = total



# ARGS: ptx %s:k --emit kir
# for over range with 1, 2 and 3 arguments, a negative constant step, a step
# known only at run time, continue/break and for-else.
from numba import cuda


@cuda.jit("void(int64[:], int64)")
def k(a, s):
    acc = 0
    for i in range(4):
        acc += i
    for i in range(2, 6):
        if i == 3:
            continue
        acc += i
    for i in range(10, 0, -3):
        if i < 2:
            break
        acc -= i
    else:
        acc = -acc
    for i in range(0, 8, s):
        acc += 1
    a[0] = acc

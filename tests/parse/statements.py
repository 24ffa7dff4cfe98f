@cuda.jit
def k(a, b: float32[:], *args, c=1, **kw) -> None:
    a = b = 0
    a += 1; b -= 2; a *= 3
    a //= 2
    a **= 2
    a @= b
    a >>= 1
    x: int = 5
    y: float
    if a: b = 1
    elif b: pass
    else: a = 2
    while a > 0:
        a -= 1
        if a == 3:
            break
        continue
    else:
        pass
    for i in range(10, 0, -1):
        pass
    else:
        b = 1
    del a, b[0]
    global G
    nonlocal H
    assert a, "msg"
    raise ValueError("x") from None
    import math
    from numba import cuda
    return
    def inner(z):
        return z

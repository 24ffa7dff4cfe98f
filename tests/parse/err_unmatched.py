@cuda.jit
def k(a):
    b = foo(1))
    c = a[1, 2)
    d = {1: 2]
    return b

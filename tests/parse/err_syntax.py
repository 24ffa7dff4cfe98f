@cuda.jit
def k(a):
    x = 1 2
    y = (1 +)
    z = a[]
    if else:
        pass
    else:
        pass
    w = foo(x=1, 2)
    return lambda

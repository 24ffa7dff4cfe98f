@cuda.jit
def k(a)
    return

@cuda.jit
def j(a):
    if a > 1
        a = 2
    while a
        pass
    for i in a
        pass
    return

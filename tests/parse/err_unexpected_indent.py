@cuda.jit
def k(a):
    b = 1
        c = 2
    return

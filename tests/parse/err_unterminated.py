@cuda.jit
def k(a):
    s = "abc
    t = 'def
    return

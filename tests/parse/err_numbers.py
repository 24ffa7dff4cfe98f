@cuda.jit
def k(a):
    x = 0123
    y = 1__0
    z = 0b102
    w = 12abc
    v = 0x

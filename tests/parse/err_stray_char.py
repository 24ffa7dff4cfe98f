@cuda.jit
def k(a):
    x = a $ 1
    y = a ? 1
    z = `a`
    w = a \ 1
    v = a ! 1
    u = €

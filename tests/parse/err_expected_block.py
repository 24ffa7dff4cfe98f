@cuda.jit
def k(a):
    if a:
    return

@cuda.jit
def j(a):
    for i in a:

@cuda.jit
def m(a):
    pass

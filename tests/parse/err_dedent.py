@cuda.jit
def k(a):
    if a:
        b = 1
      c = 2
    return

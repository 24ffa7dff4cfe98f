@cuda.jit
def k(a):
    x = f"{a"
    y = f"{a:{b}"
    z = 1 +
    w = (1, 2

@cuda.jit
def k(a):
    s = 1
    t = """never
    closed


@cuda.jit
def k(a):
    f(a) = 1
    1 = a
    a + 1 = 2
    x, g() = 1, 2
    (a if a else a) = 1
    f() += 1
    del f()
    None = 1

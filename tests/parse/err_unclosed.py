@cuda.jit
def k(a):
    b = foo(1,
            [2, 3]
    c = 2

@cuda.jit
def k(a):
    x, y = a
    (x, y) = a
    [x, y] = a
    x, *y = a
    a[0], a[1] = a[1], a[0]
    a.b = c = d[1:2] = 0
    for i, (j, k) in a:
        pass
    for x, in a:
        pass
    return a, b,

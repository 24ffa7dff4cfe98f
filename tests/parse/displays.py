@cuda.jit
def k(a):
    l = [1, 2, *a]
    e = []
    t = ()
    t1 = (1,)
    d = {}
    d2 = {'a': 1, **a}
    s = {1, 2}
    lc = [i * 2 for i in a if i if i > 1 for j in a]
    sc = {i for i in a}
    dc = {i: j for i, j in a}
    g = sum(i for i in a)
    g2 = (i for i in a)
    w = (n := 10)
    if (m := a[0]) > 1:
        pass

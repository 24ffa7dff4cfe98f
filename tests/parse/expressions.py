@cuda.jit
def k(a, b, c):
    x = a or b and not c
    x = a if b else c if a else b
    x = a | b ^ c & a << 1 >> 2
    x = a + b - c * a / b // c % a @ b
    x = -a ** -b ** c
    x = ~a + +b
    x = a < b <= c == a != b > c >= a
    x = a in b, a not in b, a is b, a is not b
    x = not a == b
    x = (a + b) * c
    x = a.b.c(1)[2].d
    x = lambda q, *r, s=1, **t: q
    x = (yield)
    x = await a
    x = ...
    x = None, True, False

@cuda.jit
def k():
    a = 0
    b = 123_456
    c = 0x_FF + 0XdeadBEEF
    d = 0o17 + 0O7
    e = 0b1010 + 0B1
    f = 1.5 + 1. + .5 + 1e10 + 1E-3 + 1_0.0_1e+1_0
    g = 3j + 1.5J + 0j
    h = 00 + 0_0
    i = 9223372036854775807
    j = 9223372036854775808
    k = 0xFFFFFFFFFFFFFFFF
    l = 12345678901234567890123
    m = 010.5 + 09e1 + 007j
    n = 1if a else 2

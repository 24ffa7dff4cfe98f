@cuda.jit
def k(x, w):
    a = f"{x}"
    b = f"{x!r:>{w}}"
    c = f'{x["key"]}' + f"{x['key']}"
    d = f"{f"{x}"}"
    e = f"{{literal}} {x:{w}.{w}f} }}"
    g = rf"\d{x}\n" + Rf"{x:\d}"
    h = f"""multi
{x +
 1} line"""
    i = f"{'}'}" + f"{x:{'>'}10}"
    j = F"{x=}" fR"{x}"
    k = f"{ {'a': 1}['a'] }"

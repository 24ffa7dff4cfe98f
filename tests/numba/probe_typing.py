"""Ask Numba for the reference typing of kernel expressions.

Run on a machine with Numba and a GPU (python3 tests/numba/probe_typing.py).
Each probe compiles a device function with explicit argument types through
numba.cuda.compile_ptx and prints the return type Numba inferred, so kjit's
typing rules (ir/type.c, docs/language.md) can be checked against the
reference.  Also runs a few kernels to record value semantics (floor
division, conversions, print formatting).
"""
import math
import sys

import numpy

numpy.row_stack = numpy.vstack  # Numba 0.68 still refers to it
from numba import cuda, types  # noqa: E402

T = {n: getattr(types, n) for n in (
    "boolean int8 int16 int32 int64 uint8 uint16 uint32 uint64 "
    "float16 float32 float64").split()}

BINARY = ["a + b", "a - b", "a * b", "a / b", "a // b", "a % b", "a ** b",
          "a << b", "a >> b", "a & b", "a | b", "a ^ b", "a < b",
          "min(a, b)", "max(a, b)", "math.atan2(a, b)", "math.pow(a, b)",
          "math.copysign(a, b)", "math.fmod(a, b)", "math.hypot(a, b)"]
UNARY = ["-a", "+a", "~a", "not a", "abs(a)", "round(a)", "round(a, 2)",
         "math.floor(a)", "math.ceil(a)", "math.trunc(a)", "math.sqrt(a)",
         "math.exp(a)", "math.fabs(a)", "math.isnan(a)", "cuda.popc(a)",
         "cuda.clz(a)", "cuda.ffs(a)", "cuda.brev(a)", "cuda.cbrt(a)",
         "int(a)", "float(a)", "bool(a)", "a * 2", "a * 2.0", "a + 1",
         "a ** 2", "a ** 2.0", "a / 2", "a // 2", "a % 2",
         "numpy.float32(a) * a"]


def probe(expr, argtypes):
    names = "ab"[:len(argtypes)]
    src = "def f(%s):\n    return %s\n" % (", ".join(names), expr)
    env = {"math": math, "cuda": cuda, "numpy": numpy}
    exec(src, env)
    try:
        _, resty = cuda.compile_ptx(env["f"], tuple(argtypes), device=True)
        return str(resty)
    except Exception as e:  # typing error: print its first line
        return "ERROR " + str(e).strip().splitlines()[0][:80]


def unify_probe(t1, t2):
    src = ("def f(c, a, b):\n    x = a\n    if c:\n        x = b\n"
           "    return x\n")
    env = {}
    exec(src, env)
    try:
        _, resty = cuda.compile_ptx(env["f"], (types.boolean, t1, t2), device=True)
        return str(resty)
    except Exception as e:
        return "ERROR " + str(e).strip().splitlines()[0][:80]


def main():
    names = list(T)
    print("# binary")
    for expr in BINARY:
        for x in names:
            for y in names:
                print("%s | %s | %s | %s" % (expr, x, y, probe(expr, [T[x], T[y]])))
    print("# unary")
    for expr in UNARY:
        for x in names:
            print("%s | %s | %s" % (expr, x, probe(expr, [T[x]])))
    print("# unify")
    for x in names:
        for y in names:
            print("unify | %s | %s | %s" % (x, y, unify_probe(T[x], T[y])))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

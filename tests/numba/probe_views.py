import numpy

numpy.row_stack = numpy.vstack
from numba import cuda, types  # noqa: E402

"""Check kjit's array views and iteration against Numba on a GPU machine:
1. Numba's type of each view expression kjit types (tests/kir/array_views.py,
   tests/unit/test_infer.c test_views), as the return type of a device
   function compiled with cuda.compile_ptx;
2. the exec tests of views and iteration run under Numba, each array's
   summary printed next to the EXPECT line kjit is checked against.
Run from the repository root: python3 tests/numba/probe_views.py"""
import os  # noqa: E402
import re  # noqa: E402
import runpy  # noqa: E402
import sys  # noqa: E402

C1, C2, C3 = types.float32[::1], types.float32[:, ::1], types.float32[:, :, ::1]
A2 = types.float32[:, :]
VIEWS = [  # (argument type, expression of a, kjit's type)
    (C2, "a[0]", "array(float32, 1d, C)"), (C3, "a[0]", "array(float32, 2d, C)"),
    (C3, "a[0, 1]", "array(float32, 1d, C)"), (C1, "a[1:]", "array(float32, 1d, C)"),
    (C1, "a[::1]", "array(float32, 1d, A)"), (C1, "a[::2]", "array(float32, 1d, A)"),
    (C1, "a[::-1]", "array(float32, 1d, A)"), (C2, "a[1:]", "array(float32, 2d, C)"),
    (C2, "a[1:, :]", "array(float32, 2d, A)"), (C2, "a[:, 1]", "array(float32, 1d, A)"),
    (C2, "a[0, :]", "array(float32, 1d, C)"), (C2, "a[0, ::-1]", "array(float32, 1d, A)"),
    (C3, "a[0, 1:]", "array(float32, 2d, C)"), (C2, "a[1:-1, 1:-1]", "array(float32, 2d, A)"),
    (A2, "a[0]", "array(float32, 1d, A)"), (A2, "a[0, :]", "array(float32, 1d, A)"),
    (C2, "a.T", "array(float32, 2d, A) (kjit has no F layout)"),
]


def view_types():
    """Numba's type of v = EXPR inside a kernel (device functions cannot
    return arrays), read from the compiled overload's type map."""
    for argty, expr, kjit in VIEWS:
        ns = {"cuda": cuda}
        exec("def f(a, out):\n    v = %s\n    out[0] = v.size\n" % expr, ns)
        sig = (argty, types.int64[::1])
        try:
            k = cuda.jit(ns["f"])
            k.compile(sig)
            tm = k.overloads[sig].fndesc.typemap
            got = str(next(tm[n] for n in tm if n == "v" or n.startswith("v.")))
        except Exception as e:  # noqa: BLE001
            got = "error: %s" % str(e).splitlines()[0]
        print("%-8s %-16s numba: %-26s kjit: %s" % (argty.layout, expr, got, kjit))


def make_arg(spec):
    """One kjit run argument: zeros/arange/full:DTYPE:SHAPE[:V] or a number."""
    parts = spec.split(":")
    if parts[0] in ("zeros", "arange", "full"):
        shape = tuple(int(x) for x in parts[2].split("x"))
        n = int(numpy.prod(shape))
        if parts[0] == "zeros":
            a = numpy.zeros(n, dtype=parts[1])
        elif parts[0] == "arange":
            a = numpy.arange(n).astype(parts[1])
        else:
            a = numpy.full(n, float(parts[3])).astype(parts[1])
        return a.reshape(shape)
    return int(spec) if re.fullmatch(r"-?\d+", spec) else float(spec)


def run_exec(path, summary):
    mod = runpy.run_path(path)
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("# RUN: "):
            continue
        words = line[len("# RUN: "):].split()
        kernel, opts, args, names = words[0], {}, [], []
        it = iter(words[1:])
        for w in it:
            if w.startswith("--"):
                opts[w[2:]] = int(next(it))
                continue
            name, _, spec = w.rpartition("=") if "=" in w else ("", "", w)
            names.append(name)
            args.append(make_arg(spec))
        k = mod[kernel][opts["grid"], opts["block"], 0, opts.get("shared", 0)]
        dev = [cuda.to_device(a) if isinstance(a, numpy.ndarray) else a for a in args]
        k(*dev)
        expects = [x[len("# EXPECT: "):] for x in lines[i + 1:] if x.startswith("# EXPECT: ")]
        for name, d in zip(names, dev):
            if not isinstance(d, (int, float)):
                h = d.copy_to_host()
                got = summary(name, str(h.dtype), "x".join(map(str, h.shape)), h.ravel().tolist())
                ok = any(e.startswith(name + ":") and e == got for e in expects)
                print("%s %s:%s %s" % ("same" if ok else "DIFF", os.path.basename(path), kernel, got))


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    argv, sys.argv = sys.argv, [sys.argv[0]]
    summary = runpy.run_path(os.path.join(root, "exec_expect.py"))["summary"]
    sys.argv = argv
    view_types()
    for name in ("array_views.py", "iteration.py", "shared_views.py"):
        run_exec(os.path.join(root, "exec", name), summary)


if __name__ == "__main__":
    main()

"""bench_sync.py ROOT - tests/exec/bench_NAME.py runs the kernel of
bench/gpu/kernels/NAME.py at a small size on the cpu target (and, in the GPU
suite, on the GPU).  They must stay the same code: this compares the two
files' syntax trees without the module docstring (comments and the RUN and
EXPECT lines are not part of the tree).  Prints one line per pair; exit 1 on
any difference or a missing kernel file."""
import ast
import glob
import os
import sys


def code(path):
    with open(path) as f:
        mod = ast.parse(f.read(), path)
    body = mod.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    return [ast.dump(node) for node in body]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    tests = sorted(glob.glob(os.path.join(root, "tests", "exec", "bench_*.py")))
    bad = 0
    for t in tests:
        name = os.path.basename(t)[len("bench_"):]
        k = os.path.join(root, "bench", "gpu", "kernels", name)
        if not os.path.exists(k):
            print("bench_sync: %s: no bench/gpu/kernels/%s" % (t, name))
            bad += 1
            continue
        a, b = code(t), code(k)
        if a != b:
            i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            print("bench_sync: %s differs from %s at top-level statement %d" % (t, k, i + 1))
            bad += 1
        else:
            print("bench_sync: ok: %s" % name)
    if not tests:
        print("bench_sync: no tests/exec/bench_*.py")
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

"""Run tests/exec kernel files under Numba and compare with their EXPECT lines.

Run on a machine with Numba and a GPU, from the repository root:
    python3 tests/numba/check_exec.py tests/exec/*.py
Each `# RUN:` line is replayed with Numba (`kernel[grid, block](args)`): the
arguments are made as `kjit run` makes them (zeros/full/arange arrays,
scalars as Python ints/floats, which Numba types int64/float64), and every
array argument is summarised in the format of tests/exec_expect.py.  An
EXPECT line that no summary contains is a mismatch: either kjit's expected
value is not Numba's, or Numba differs on purpose (documented in the file).
Runs using kjit-only inputs (rand, .npy files, xoroshiro states, --debug,
--repeat, -o) are skipped and reported as such.  Runs listed in
tests/numba/known_differences.txt (each explained in docs/language.md) are
reported as KNOWN, not FAIL.  Prints one line per run and a closing
"N passed, N failed, N known, N skipped" count; exits 1 on any other failure.
"""
import importlib.util
import os
import re
import shlex
import sys
import traceback

import numpy

numpy.row_stack = numpy.vstack  # Numba 0.68 still refers to it
from numba import cuda  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from exec_expect import summary  # noqa: E402

DTYPES = {"f4": "float32", "f8": "float64", "f2": "float16", "i4": "int32", "i8": "int64",
          "u4": "uint32", "u8": "uint64", "i1": "int8", "u1": "uint8", "i2": "int16",
          "u2": "uint16", "b1": "bool", "c8": "complex64", "c16": "complex128",
          "f16": "float16", "f32": "float32", "f64": "float64", "i8_": "int8",
          "i16": "int16", "i32": "int32", "i64": "int64", "u16": "uint16", "u32": "uint32",
          "u64": "uint64", "c64": "complex64", "c128": "complex128"}


def dtype_of(name):
    return numpy.dtype(DTYPES.get(name, name))
SKIP_OPTS = {"--debug", "--repeat", "-o", "--target", "--timeout"}


def dims(text):
    parts = [int(p) for p in text.split(",")]
    return tuple(parts) if len(parts) > 1 else parts[0]


def record_value(kind, rest):
    """zeros:DESCR[:SHAPE] / arange:DESCR[:SHAPE]: a structured array as kjit
    makes it (arange: every number field holds its C-order index over the
    element's dimensions and the field's own); without SHAPE one record."""
    import ast
    from numpy.lib import format as npformat
    depth, end = 0, 0
    for end, c in enumerate(rest):
        depth += c in "[{(" and 1 or c in "]})" and -1 or 0
        if depth == 0:
            break
    descr, shape = ast.literal_eval(rest[:end + 1]), rest[end + 2:]
    dt = numpy.dtype(descr) if isinstance(descr, dict) else npformat.descr_to_dtype(descr)
    a = numpy.zeros(tuple(int(s) for s in shape.split("x")) if shape else (), dt)

    def fill(v):
        for name in v.dtype.names:
            f = v[name]
            if f.dtype.names:
                fill(f)
            else:
                f[...] = numpy.arange(f.size).reshape(f.shape)
    if kind == "arange":
        fill(a)
    return a
class Named:
    """A namedtuple VALUE "Point(1.5, y=2.5)": made once the module is loaded."""

    def __init__(self, name, args, kwargs):
        self.name, self.args, self.kwargs = name, args, kwargs

    def has_none(self):
        return any(v is None for v in list(self.args) + list(self.kwargs.values()))


def named_value(spec):
    """Point(1.5, y=zeros:f32:4) as a Named, or None when spec is not one."""
    m = re.match(r"^\s*([A-Za-z_]\w*)\((.*)\)\s*$", spec)
    if not m:
        return None
    args, kwargs = [], {}
    for e in split_elems(m.group(2)):
        k = re.match(r"^([A-Za-z_]\w*)\s*=(?!=)\s*(.*)$", e)
        if k:
            kwargs[k.group(1)] = make_value(k.group(2))
        else:
            args.append(make_value(e))
    return Named(m.group(1), args, kwargs)


def realize(mod, v):
    """Named values (at any depth) as instances of the module's class."""
    if isinstance(v, Named):
        return getattr(mod, v.name)(*[realize(mod, a) for a in v.args],
                                    **{k: realize(mod, a) for k, a in v.kwargs.items()})
    if isinstance(v, tuple):
        return tuple(realize(mod, e) for e in v)
    return v


class Pointer:
    """ptr:VALUE: a device copy of VALUE whose address is the argument, as
    Numba takes a CPointer (an int from __cuda_array_interface__)."""
    def __init__(self, host):
        self.host = host
        self.dev = None

    def address(self):
        self.dev = cuda.to_device(self.host)
        return self.dev.__cuda_array_interface__["data"][0]


def make_value(spec):
    """A kjit run VALUE as a NumPy array or Python scalar; None if kjit-only."""
    if spec.startswith("("):
        return tuple_value(spec)
    named = named_value(spec)
    if named is not None:
        return None if named.has_none() else named
    kind, _, rest = spec.partition(":")
    if kind == "ptr":  # a raw pointer (types.CPointer): the array's address
        inner = make_value(rest)
        return None if inner is None else Pointer(inner)
    if kind in ("zeros", "arange") and rest[:1] in ("[", "{"):
        return record_value(kind, rest)
    if kind in ("zeros", "full", "arange") and rest:
        fields = rest.split(":")
        dtype = dtype_of(fields[0])
        shape = tuple(int(s) for s in fields[1].split("x"))
        if kind == "zeros":
            return numpy.zeros(shape, dtype)
        if kind == "full":
            return numpy.full(shape, numpy.array(fields[2]).astype(float).item()
                              if dtype.kind in "fc" else int(fields[2]), dtype)
        return numpy.arange(numpy.prod(shape)).astype(dtype).reshape(shape)
    if kind in ("rand", "randint", "xoroshiro") or spec.endswith(".npy"):
        return None
    if rest:  # DTYPE:V, a typed scalar
        try:
            dt = dtype_of(kind)
        except TypeError:
            dt = None
        if dt is not None:
            return dt.type(complex(rest) if dt.kind == "c" else
                           float(rest) if dt.kind == "f" else int(rest))
    if spec in ("True", "False"):
        return spec == "True"
    if spec.startswith("("):
        return tuple_value(spec)
    if kind and rest and kind not in ("inf", "nan"):
        return typed_scalar(numpy.dtype(DTYPES.get(kind, kind)), rest)
    try:
        return int(spec)
    except ValueError:
        return float(spec)


def typed_scalar(dtype, text):
    """A DTYPE:V value as a NumPy scalar of that dtype."""
    if dtype.kind == "b":
        return dtype.type(text in ("True", "true", "1"))
    if dtype.kind == "c":
        return dtype.type(complex(text))
    try:
        return dtype.type(int(text, 0))
    except ValueError:
        return dtype.type(float(text))


def split_elems(text):
    """The top-level comma-separated elements of a tuple's inner text."""
    elems, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += c == "("
        depth -= c == ")"
        if c == "," and depth == 0:
            elems.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        elems.append(text[start:].strip())
    return elems


def tuple_value(spec):
    """A tuple VALUE "(1, float32:2.5, (True, 3))" as a Python tuple; as in
    Python, "(x)" without a comma is x itself."""
    inner = spec.strip()[1:-1]
    elems = split_elems(inner)
    if len(elems) == 1 and not inner.rstrip().endswith(","):
        return make_value(elems[0])
    return tuple(make_value(e) for e in elems)


def parse_run(line, globals_out=None):
    """(kernel, grid, block, shared, [(name, value)], why_skipped); the
    --global NAME=VALUE bindings go to globals_out as (name, value)."""
    words = shlex.split(line)
    kernel, args, grid, block, shared = words[0], [], 1, 1, 0
    if "(" in kernel:  # a factory call names the kernel: kjit's CLI spelling
        return kernel, grid, block, shared, args, "a factory call names the kernel (kjit run FILE:'f(2)')"
    if "." in kernel:  # kjit's name of a kernel inside a host function (or another module)
        return kernel, grid, block, shared, args, "a dotted name (FUNCTION.KERNEL: a kernel inside a host function)"
    i = 1
    while i < len(words):
        w = words[i]
        if w in SKIP_OPTS:
            return kernel, grid, block, shared, args, "uses " + w
        if w == "--path":  # a module folder: put on sys.path by load()
            i += 2
            continue
        if w == "--global":  # a global the host computes: set before the launch
            gname, _, gspec = words[i + 1].partition("=")
            gvalue = make_value(gspec)
            if gvalue is None:
                return kernel, grid, block, shared, args, "uses kjit-only input " + gspec
            if globals_out is not None:
                globals_out.append((gname, gvalue))
            i += 2
            continue
        if w in ("--grid", "--block", "--shared"):
            val = words[i + 1]
            if val.startswith("cover:") or val == "auto":  # kjit run computes the launch
                return kernel, grid, block, shared, args, "uses %s %s" % (w, val)
            if w == "--grid":
                grid = dims(val)
            elif w == "--block":
                block = dims(val)
            else:
                shared = int(val)
            i += 2
            continue
        name, eq, spec = w.partition("=")
        if not eq:
            name, spec = None, w
        value = make_value(spec)
        if value is None or (isinstance(value, tuple) and any(e is None for e in value)):
            return kernel, grid, block, shared, args, "uses kjit-only input " + spec
        args.append((name, value))
        i += 1
    return kernel, grid, block, shared, args, None


def load(path):
    # as Python runs a script: its folder, then the RUN lines' --path folders
    # (relative to tests/, like the RUN lines) on sys.path for its imports
    tests = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    dirs = [os.path.dirname(os.path.abspath(path))]
    for line in open(path):
        words = shlex.split(line[len("# RUN:"):]) if line.startswith("# RUN:") else []
        dirs += [os.path.join(tests, words[k + 1]) for k, w in enumerate(words[:-1])
                 if w == "--path"]
    for d in reversed(dirs):
        if d not in sys.path:
            sys.path.insert(0, d)
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def runs_of(path):
    """[(run line, [expect lines])] of a file."""
    runs = []
    for line in open(path):
        if line.startswith("# RUN:"):
            runs.append((line[len("# RUN:"):].strip(), []))
        elif line.startswith("# EXPECT:") and runs:
            runs[-1][1].append(line[len("# EXPECT:"):].strip())
    return runs


def summaries(name, v):
    """Summary lines of an array argument, or of the arrays inside a tuple
    (named t[0], t[1][2] as kjit run prints them)."""
    if isinstance(v, tuple):
        return [ln for k, e in enumerate(v) for ln in summaries("%s[%d]" % (name, k), e)]
    if not isinstance(v, numpy.ndarray):
        return []
    if v.dtype.names:  # a record array: one line per field, as kjit run prints them
        return [ln for f in v.dtype.names for ln in summaries("%s.%s" % (name, f), v[f])]
    if v.dtype.kind in "SU":  # a string field: its characters' codes, as kjit run prints them
        code = numpy.uint32 if v.dtype.kind == "U" else numpy.uint8
        v = numpy.ascontiguousarray(v).view(code).reshape(v.shape + (-1,))
    shape = "x".join(str(s) for s in v.shape)
    return [summary(name, str(v.dtype), shape, v.ravel().tolist())]


def bind_globals(mod, bound):
    """--global NAME=VALUE as the host program would set it: a device array
    global (the module made one) gets a device copy, else the NumPy array.
    Numba reads it when the kernel compiles (at its first launch)."""
    for name, value in bound:
        old = getattr(mod, name, None)
        on_device = getattr(old, "__cuda_array_interface__", None) is not None
        setattr(mod, name, cuda.to_device(value) if on_device else value)


def check_run(mod, run, expects):
    bound = []
    kernel, grid, block, shared, args, why = parse_run(run, bound)
    if why:
        return "skip", why
    bind_globals(mod, bound)
    args = [(name, realize(mod, v)) for name, v in args]
    if not hasattr(getattr(mod, kernel), "__getitem__") or \
            type(getattr(mod, kernel)).__name__ in ("Reduce", "CUDAUFuncDispatcher", "DUFunc"):
        return "skip", "not a kernel launch (@vectorize / @cuda.reduce)"
    launch = getattr(mod, kernel)[grid, block, 0, shared] if shared else \
        getattr(mod, kernel)[grid, block]
    # a 0-d record array stands for one record: Numba takes the record (a
    # view into the array) by reference
    launch(*[v.address() if isinstance(v, Pointer) else
             v[()] if isinstance(v, numpy.ndarray) and v.dtype.names and v.ndim == 0 else v
             for _, v in args])
    cuda.synchronize()
    args = [(name, v.dev.copy_to_host() if isinstance(v, Pointer) else v) for name, v in args]
    lines = []
    try:  # positional arguments are named by the kernel's parameters, as kjit prints them
        import inspect
        params = list(inspect.signature(getattr(mod, kernel).py_func).parameters)
    except (AttributeError, TypeError, ValueError):
        params = []
    for k, (name, v) in enumerate(args):
        name = name or (params[k] if k < len(params) else None)
        lines += summaries(name or "arg%d" % k, v)
    missing = [e for e in expects if not any(e in ln for ln in lines)]
    if missing:
        return "fail", "expected %r; Numba gave %r" % (missing, lines)
    return "pass", "%d expectations" % len(expects)


def known_differences():
    """{(file name, run name)} of tests/numba/known_differences.txt."""
    known = set()
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "known_differences.txt")) as f:
        for line in f:
            words = line.split("#")[0].split()
            if len(words) == 2:
                known.add((words[0], words[1]))
    return known


def main(paths):
    passed = failed = skipped = known_failed = 0
    known = known_differences()
    for path in paths:
        try:
            mod = load(path)
        except Exception as e:  # the file itself does not run under Numba
            why = str(e).splitlines()[0] if str(e) else type(e)
            if (os.path.basename(path), "*") in known:  # "FILE *": the whole file
                print("KNOWN %s: %s" % (path, why))
                known_failed += 1
            else:
                print("FAIL %s: %s" % (path, why))
                failed += 1
            continue
        for run, expects in runs_of(path):
            try:
                verdict, why = check_run(mod, run, expects)
            except Exception as e:
                verdict, why = "fail", "%s: %s" % (type(e).__name__,
                                                   (str(e).strip().splitlines() or [""])[0][:300])
                if os.environ.get("VERBOSE"):
                    traceback.print_exc()
            listed = (os.path.basename(path), run.split()[0]) in known
            if verdict == "fail" and listed:
                verdict = "known"
            elif verdict == "pass" and listed:
                why += " (listed in known_differences.txt, passes here)"
            print("%s %s: %s -- %s" % (verdict.upper(), path, run.split()[0], why))
            passed += verdict == "pass"
            failed += verdict == "fail"
            known_failed += verdict == "known"
            skipped += verdict == "skip"
    print("%d passed, %d failed, %d known, %d skipped" % (passed, failed, known_failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""exec_aot.py KJIT_BIN TARGET OUT_DIR FILE.py... - the tests/exec and
examples kernels through their ahead-of-time launchers, against the JIT.

For every `# RUN: KERNEL --grid G --block B [--shared N] NAME=VALUE...` line
of each FILE (the lines tests/exec.sh runs with `kjit run`):
  1. the library: `kjit aot FILE:KERNEL --sig SIG --target TARGET`, SIG
     derived from the values (an array generated as arange/full/zeros/ones
     is C-contiguous: dtype[:, ::1]; a scalar is int64, float64, bool or the
     dtype written before it, as kjit run types it); a kernel with eager
     signatures keeps them (no --sig); with several the run is skipped
     (the JIT picks one by Numba's dispatch rules, which the harness does
     not repeat);
  2. a C driver (generated here) builds the arrays, calls the launcher,
     and writes every array back; it is compiled with cc against the
     generated files alone;
  3. `kjit run` of the same line (--target TARGET) writes every array with
     -o; the arrays must match (integers and bools exactly, floats within
     1e-5 relative: atomics may sum in another order).
A @cuda.reduce line (ARRAY [init=SCALAR], no --grid) goes through the
reduction's launcher (--sig dtype[::1]) and its value is compared with the
`result:` line of kjit run.
What cannot be done is listed with its reason in OUT_DIR/aot_exec.json
(machine-readable: {"file", "kernel", "run", "status", "reason"}), and
printed; OUT_DIR/aot_not_compiled.tsv has one row per kernel that was not
run through a launcher (columns file, kernel, kind, reason; kind is
"refused" when kjit aot refused it (E505), "skipped" when the harness
cannot repeat what kjit run does, "failed" otherwise), sorted, so the CPU
list (ctest aot/exec_cpu) and the GPU one (scripts/gpu_aot.sh) compare
with diff.  Exit status 1 when a comparison failed or a library that should
build did not; skips are not failures.  Plain Python (no NumPy): arrays
are bytes with a struct format, .npy files are read by hand."""
import json
import os
import re
import shlex
import subprocess
import sys

import math
import struct

SHORT = {"f16": "float16", "f32": "float32", "f64": "float64", "i16": "int16", "i32": "int32",
         "i64": "int64", "u16": "uint16", "u32": "uint32", "u64": "uint64", "c64": "complex64",
         "c128": "complex128", "b": "bool", "bool": "bool", "boolean": "bool"}
NUMBA = {"float16": "float16", "float32": "float32", "float64": "float64", "int8": "int8", "int16": "int16",
         "int32": "int32", "int64": "int64", "uint8": "uint8", "uint16": "uint16", "uint32": "uint32",
         "uint64": "uint64", "bool": "boolean", "complex64": "complex64", "complex128": "complex128"}
CODE = {"float16": "f16", "float32": "f32", "float64": "f64", "int8": "i8", "int16": "i16", "int32": "i32",
        "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64", "bool": "b",
        "complex64": "c64", "complex128": "c128"}


FMT = {"float16": "e", "float32": "f", "float64": "d", "int8": "b", "int16": "h", "int32": "i", "int64": "q",
       "uint8": "B", "uint16": "H", "uint32": "I", "uint64": "Q", "bool": "?", "complex64": "ff",
       "complex128": "dd"}
NPY = {"<f2": "float16", "<f4": "float32", "<f8": "float64", "|i1": "int8", "<i2": "int16", "<i4": "int32",
       "<i8": "int64", "|u1": "uint8", "<u2": "uint16", "<u4": "uint32", "<u8": "uint64", "|b1": "bool",
       "<c8": "complex64", "<c16": "complex128"}


class Skip(Exception):
    pass


class Arr:
    """A C-contiguous array: dtype name, shape, values (a flat list)."""

    def __init__(self, dtype, shape, values):
        self.dtype, self.shape, self.values = dtype, tuple(shape), list(values)
        self.ndim = len(self.shape)
        self.itemsize = struct.calcsize("<" + FMT[dtype])
        self.nbytes = self.itemsize * len(self.values)
        self.strides, acc = [], self.itemsize
        for d in reversed(self.shape):
            self.strides.insert(0, acc)
            acc *= d

    def tobytes(self):
        f = FMT[self.dtype]
        flat = [x for v in self.values for x in ((v.real, v.imag) if len(f) == 2 else (v,))]
        return struct.pack("<%d%s" % (len(self.values), f) if len(f) == 1 else "<%dd" % (2 * len(self.values))
                           if f == "dd" else "<%df" % (2 * len(self.values)), *flat)

    @staticmethod
    def frombytes(dtype, shape, data):
        f = FMT[dtype]
        n = len(data) // struct.calcsize("<" + f)
        if len(f) == 2:
            raw = struct.unpack("<%d%s" % (2 * n, f[0]), data)
            vals = [complex(raw[2 * k], raw[2 * k + 1]) for k in range(n)]
        else:
            vals = list(struct.unpack("<%d%s" % (n, f), data))
        return Arr(dtype, shape, vals)


def cast(dtype, x):
    """x (a Python number) as the dtype stores it (ints wrap, as NumPy's astype)."""
    if dtype == "bool":
        return bool(x)
    if dtype.startswith("complex"):
        return complex(x)
    if dtype.startswith("float"):
        v = float(x.real if isinstance(x, complex) else x)
        return struct.unpack("<" + FMT[dtype], struct.pack("<" + FMT[dtype], v))[0] if math.isfinite(v) else v
    bits = int(dtype.lstrip("uint")) if dtype.startswith("u") else int(dtype[3:])
    v = int(x.real if isinstance(x, complex) else x) % (1 << bits)
    return v - (1 << bits) if not dtype.startswith("u") and v >= 1 << (bits - 1) else v


def load_npy(path):
    data = open(path, "rb").read()
    hlen = struct.unpack("<H", data[8:10])[0] if data[6] == 1 else struct.unpack("<I", data[8:12])[0]
    start = 10 if data[6] == 1 else 12
    header = data[start:start + hlen].decode("latin1")
    descr = re.search(r"'descr': *'([^']+)'", header).group(1)
    shape = tuple(int(x) for x in re.search(r"'shape': *\(([^)]*)\)", header).group(1).split(",") if x.strip())
    if "True" in re.search(r"'fortran_order': *(\w+)", header).group(1):
        raise Skip("a Fortran-order result")
    return Arr.frombytes(NPY[descr], shape, data[start + hlen:])


NPCODE = {"f2": "float16", "f4": "float32", "f8": "float64", "i1": "int8", "i2": "int16", "i4": "int32",
          "i8": "int64", "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64", "c8": "complex64",
          "c16": "complex128", "?": "bool"}


def dtype_of(name):
    name = SHORT.get(name, NPCODE.get(name, name))
    if name not in NUMBA:
        raise Skip("dtype %r" % name)
    return name


def value(spec):
    """A kjit run value -> ("array", ndarray) or ("scalar", dtype, python value)."""
    m = re.fullmatch(r"(arange|full|zeros|ones):([a-z0-9]+):([0-9x]+)(?::(.*))?", spec)
    if m:
        kind, dt, shape, fill = m.groups()
        dt = dtype_of(dt)
        shape = tuple(int(s) for s in shape.split("x"))
        n = math.prod(shape)
        if kind == "arange":
            vals = [cast(dt, k) for k in range(n)]
        elif kind == "full":
            fv = complex(fill.replace("i", "j")) if dt.startswith("complex") else float(fill)
            vals = [cast(dt, fv)] * n
        else:
            vals = [cast(dt, 0 if kind == "zeros" else 1)] * n
        return ("array", Arr(dt, shape, vals))
    if ":" in spec and not spec.startswith("("):
        dt, v = spec.split(":", 1)
        if re.fullmatch(r"[a-z]+[0-9]*", dt) and not re.fullmatch(r"[a-z]+", dt) or dt in SHORT:
            dt = dtype_of(dt)
            if dt.startswith("complex"):
                raise Skip("complex scalars are not launcher parameters")
            if dt == "float16":
                raise Skip("float16 scalars are not launcher parameters")
            return ("scalar", dt, v)
        raise Skip("value %r (random states, .npy files, tuples: not generated here)" % spec)
    if spec in ("True", "False", "true", "false"):
        return ("scalar", "bool", "1" if spec.lower() == "true" else "0")
    if re.fullmatch(r"-?[0-9]+", spec):
        return ("scalar", "int64", spec)
    if re.fullmatch(r"-?[0-9.]+(e-?[0-9]+)?|-?inf|nan", spec):
        return ("scalar", "float64", spec)
    raise Skip("value %r (random states, .npy files, tuples: not generated here)" % spec)


def parse_run(line):
    words = shlex.split(line)
    kernel, geo, args = words[0], {"grid": "1", "block": "1", "shared": "0"}, []
    i = 1
    while i < len(words):
        w = words[i]
        if w in ("--grid", "--block", "--shared"):
            geo[w[2:]] = words[i + 1]
            i += 2
        elif w.startswith("--"):
            raise Skip("option %s" % w)
        else:
            name, _, v = w.partition("=")
            args.append((name, v))
            i += 1
    return kernel, geo, args


def sig_of(vals):
    parts = []
    for v in vals:
        if v[0] == "array":
            a = v[1]
            parts.append("%s[%s]" % (NUMBA[a.dtype], ", ".join([":"] * (a.ndim - 1) + ["::1"])))
        else:
            parts.append(NUMBA[v[1]])
    return "void(%s)" % ", ".join(parts)


def c_name(kernel):
    """The launcher's name for a kernel, as kjit aot makes it (aot/aot.c,
    c_kernel_name): run.k -> run_k, 'run(None, 3).k' -> run_None_3_k."""
    out = re.sub(r"[^\w\x80-\U0010ffff]+", "_", kernel)
    return out.rstrip("_") if not kernel.endswith("_") else out


def launchers(header, lib):
    """name -> [param C types] of each launcher in the header."""
    out = {}
    for m in re.finditer(r"^%s_status %s_(\w+)\(const %s_config \*config((?:, [^,)]+)*)\);" % (lib, lib, lib),
                         header, re.M):
        out[m.group(1)] = [p.strip().rsplit(" ", 1)[0] for p in m.group(2).split(",")[1:]]
    return out


CTYPE = {"bool": "int", "float32": "float", "float64": "double"}


def fits(ctypes, vals, lib, exact):
    """Whether a launcher takes the values: arrays of their dtype and
    rank; scalars of their type (exact) or any scalar."""
    for t, v in zip(ctypes, vals):
        if exact and v[0] == "scalar" and t != CTYPE.get(v[1], v[1] + "_t"):
            return False
        if v[0] == "array" and t != "%s_%s_%dd" % (lib, CODE[v[1].dtype], v[1].ndim):
            return False
        if v[0] == "scalar" and t.startswith(lib + "_"):
            return False
    return len(ctypes) == len(vals)


def c_scalar(dt, v):
    if dt == "bool":
        return v
    if dt.startswith("float"):
        return "(%s)%s" % ("float" if dt == "float32" else "double", repr(float(v)))
    return "(%s_t)%sLL" % (dt, v) if not dt.startswith("uint") else "(%s_t)%sULL" % (dt, v)


def driver(lib, launcher, ctypes, vals, names, geo, target, work):
    g = (geo["grid"].split(",") + ["1", "1"])[:3]
    b = (geo["block"].split(",") + ["1", "1"])[:3]
    lines = ['#include <stdio.h>', '#include <stdlib.h>', '#include "%s.h"' % lib,
             'static void *load(const char *path, size_t n) {',
             '  void *h = malloc(n ? n : 1), *d = NULL; FILE *f = fopen(path, "rb");',
             '  if (!h || !f || fread(h, 1, n, f) != n) exit(3);',
             '  fclose(f);',
             '  if (%s_malloc(&d, n) || %s_copy_to_device(d, h, n)) { fprintf(stderr, "%%s\\n", %s_last_error()); exit(3); }' % (lib, lib, lib),
             '  free(h); return d;', '}',
             'static void save(const char *path, const void *d, size_t n) {',
             '  void *h = malloc(n ? n : 1); FILE *f = fopen(path, "wb");',
             '  if (!h || !f || %s_copy_to_host(h, d, n) || fwrite(h, 1, n, f) != n) exit(4);' % lib,
             '  fclose(f); free(h);', '}',
             'int main(void) {',
             '  if (%s_select_target(%s_TARGET_%s)) { fprintf(stderr, "%%s\\n", %s_last_error()); return 2; }'
             % (lib, lib, target.upper(), lib)]
    args = []
    for i, (t, v, n) in enumerate(zip(ctypes, vals, names)):
        if v[0] == "array":
            a = v[1]
            with open(os.path.join(work, "in_%d.bin" % i), "wb") as f:
                f.write(a.tobytes())
            lines.append('  %s a%d; a%d.data = load("%s/in_%d.bin", %d);' % (t, i, i, work, i, a.nbytes))
            lines[-1] = lines[-1].replace("a%d.data = load" % i, "a%d.data = (__typeof__(a%d.data))load" % (i, i))
            for d in range(a.ndim):
                lines.append("  a%d.shape[%d] = %d; a%d.strides[%d] = %d;" % (i, d, a.shape[d], i, d, a.strides[d]))
            args.append("a%d" % i)
        else:
            args.append(c_scalar(v[1], v[2]))
    lines.append("  %s_config c = {{%s}, {%s}, %s, NULL};" % (lib, ", ".join(g), ", ".join(b), geo["shared"]))
    lines.append("  if (%s_%s(&c%s) || %s_synchronize(NULL)) { fprintf(stderr, \"%%s\\n\", %s_last_error()); return 1; }"
                 % (lib, launcher, "".join(", " + a for a in args), lib, lib))
    for i, v in enumerate(vals):
        if v[0] == "array":
            lines.append('  save("%s/out_%d.bin", a%d.data, %d);' % (work, i, i, v[1].nbytes))
    lines += ["  return 0;", "}"]
    path = os.path.join(work, "driver.c")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def close(x, y):
    if isinstance(x, complex) or isinstance(y, complex):
        return close(complex(x).real, complex(y).real) and close(complex(x).imag, complex(y).imag)
    if isinstance(x, float) or isinstance(y, float):
        if math.isnan(x) or math.isnan(y):
            return math.isnan(x) and math.isnan(y)
        return x == y or abs(x - y) <= 1e-6 + 1e-5 * abs(y)
    return x == y


def first_difference(a, b):
    """The index of the first element that differs, or None."""
    if a.shape != b.shape:
        return "shape %s vs %s" % (a.shape, b.shape)
    for k, (x, y) in enumerate(zip(a.values, b.values)):
        if not close(x, y):
            return "element %d: %r vs %r" % (k, x, y)
    return None


def one_reduce(kjit, target, out, path, line, idx):
    """A @cuda.reduce RUN line (ARRAY [init=SCALAR]): the launcher's value
    against the `result: DTYPE VALUE` line of kjit run."""
    kernel, _, args = parse_run(line)
    arr = [value(v) for n, v in args if n != "init"]
    init = [v for n, v in args if n == "init"]
    if len(arr) != 1 or arr[0][0] != "array" or arr[0][1].ndim != 1:
        raise Skip("a reduction of something other than one 1-d array")
    a = arr[0][1]
    if a.dtype not in CODE or a.dtype in ("float16", "bool") or a.dtype.startswith("complex"):
        raise Skip("a reduction over %s" % a.dtype)
    work = os.path.join(out, "%s_%d" % (os.path.basename(path)[:-3], idx))
    os.makedirs(work, exist_ok=True)
    lib = "k_" + re.sub(r"\W", "_", os.path.basename(path)[:-3])
    r = subprocess.run([kjit, "aot", "%s:%s" % (path, kernel), "--sig", "%s[::1]" % NUMBA[a.dtype], "--target",
                        target, "--name", lib, "-o", work], capture_output=True, text=True)
    if r.returncode != 0:
        return "fail", "kjit aot: " + (r.stderr.strip().splitlines() or ["?"])[0]
    ct = CTYPE.get(a.dtype, a.dtype + "_t")
    iv = init[0] if init else "0"
    float_init = re.fullmatch(r"-?[0-9]*\.[0-9]*(e-?[0-9]+)?|-?[0-9]+e-?[0-9]+", iv) is not None
    with open(os.path.join(work, "in.bin"), "wb") as f:
        f.write(a.tobytes())
    fmt = '"%.17g\\n", (double)' if a.dtype.startswith("float") else '"%lld\\n", (long long)'
    c = "\n".join([
        '#include <stdio.h>', '#include <stdlib.h>', '#include "%s.h"' % lib,
        'int main(void) {',
        '  size_t n = %d; %s *h = (%s *)malloc(n ? n : 1), res = 0; void *d = NULL;' % (a.nbytes, ct, ct),
        '  FILE *f = fopen("%s/in.bin", "rb");' % work,
        '  if (!h || !f || fread(h, 1, n, f) != n) return 3;',
        '  if (%s_select_target(%s_TARGET_%s) || %s_malloc(&d, n) || %s_copy_to_device(d, h, n) ||'
        % (lib, lib, target.upper(), lib, lib),
        '      %s_%s(NULL, %s_%s_1d_c((%s *)d, %d), (%s)(%s%s), &res)) {'
        % (lib, kernel, lib, CODE[a.dtype], ct, a.shape[0], ct, iv, "" if float_init else "LL"),
        '    fprintf(stderr, "%%s\\n", %s_last_error()); return 1;' % lib, '  }',
        '  printf(%sres);' % fmt, '  return 0;', '}']) + "\n"
    with open(os.path.join(work, "driver.c"), "w") as f:
        f.write(c)
    exe = os.path.join(work, "driver")
    r = subprocess.run(["cc", "-std=gnu11", "-O1", "-I" + work, os.path.join(work, "driver.c"),
                        os.path.join(work, lib + ".c"), "-ldl", "-lpthread", "-lm", "-o", exe],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return "fail", "cc: " + r.stderr[:400]
    r = subprocess.run([exe], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        return "fail", "aot reduction (exit %d): %s" % (r.returncode, r.stderr.strip()[:300])
    got = r.stdout.strip()
    j = subprocess.run([kjit, "run", "%s:%s" % (path, kernel), "--target", target] + shlex.split(line)[1:],
                       capture_output=True, text=True, timeout=300)
    m = re.search(r"^result: \S+ (\S+)$", j.stdout, re.M)
    if j.returncode != 0 or not m:
        raise Skip("kjit run failed: " + (j.stderr.strip().splitlines() or ["?"])[0])
    want = m.group(1)
    isf = a.dtype.startswith("float")
    if not close(float(got) if isf else int(got), float(want) if isf else int(want)):
        return "fail", "value %s, the JIT's %s" % (got, want)
    return "ok", "value %s equal to the JIT's" % got


def one(kjit, target, out, path, line, idx):
    kernel0 = line.split()[0]
    if "--grid" not in line.split() and re.search(r"@cuda\.reduce\s*\ndef %s\(" % re.escape(kernel0),
                                                  open(path).read()):
        return one_reduce(kjit, target, out, path, line, idx)
    if "--grid" not in line.split():
        raise Skip("a @vectorize call (kjit run picks its launch and broadcasts; tests/aot.sh checks its "
                   "launcher: check_main.c)")
    kernel, geo, args = parse_run(line)
    if any(g.startswith("cover:") or g == "auto" for g in line.split()):
        raise Skip("--grid cover: / --block auto (kjit run computes the launch)")
    vals = [value(v) for _, v in args]
    names = [n for n, _ in args]
    work = os.path.join(out, "%s_%d" % (os.path.basename(path)[:-3], idx))
    os.makedirs(work, exist_ok=True)
    lib = "k_" + re.sub(r"\W", "_", os.path.basename(path)[:-3])
    src = open(path).read()
    # a kernel named by where it is made ('run(3).k', make_k(2)) is typed by --sig
    eager = re.match(r"\w+$", kernel) and \
        re.search(r"@cuda\.jit\(\s*[\[\"'][^\n]*\n(?:@[^\n]*\n)*def %s\(" % re.escape(kernel), src)
    cmd = [kjit, "aot", "%s:%s" % (path, kernel), "--target", target, "--name", lib, "-o", work]
    if not eager:
        cmd[3:3] = ["--sig", sig_of(vals)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        first = (r.stderr.strip().splitlines() or ["?"])[0]
        code = re.search(r"E(\d{3})", first)
        if code and code.group(1) in ("505",):
            raise Skip("not AOT-compiled: " + first)
        return "fail", "kjit aot: " + first
    header = open(os.path.join(work, lib + ".h")).read()
    cn = c_name(kernel)
    ls = {k: v for k, v in launchers(header, lib).items() if k == cn or k.startswith(cn + "__")}
    if eager and len(ls) > 1:
        raise Skip("%d eager signatures: the JIT picks one by Numba's dispatch rules, a program names its "
                   "launcher (%s)" % (len(ls), ", ".join(sorted(ls))))
    exact = [k for k, t in ls.items() if fits(t, vals, lib, True)]
    fit = exact if len(exact) == 1 else [k for k, t in ls.items() if fits(t, vals, lib, False)]
    if len(fit) != 1:
        raise Skip("%d launchers fit the values (%s)" % (len(fit), ", ".join(sorted(ls))))
    c = driver(lib, fit[0], ls[fit[0]], vals, names, geo, target, work)
    exe = os.path.join(work, "driver")
    r = subprocess.run(["cc", "-std=gnu11", "-O1", "-I" + work, c, os.path.join(work, lib + ".c"), "-ldl",
                        "-lpthread", "-lm", "-o", exe], capture_output=True, text=True)
    if r.returncode != 0:
        return "fail", "cc: " + r.stderr[:400]
    r = subprocess.run([exe], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        return "fail", "aot launch (exit %d): %s" % (r.returncode, r.stderr.strip()[:300])
    jit = [kjit, "run", "%s:%s" % (path, kernel), "--target", target] + shlex.split(line)[1:]
    for i, (n, v) in enumerate(zip(names, vals)):
        if v[0] == "array":
            jit += ["-o", "%s=%s/jit_%d.npy" % (n, work, i)]
    r = subprocess.run(jit, capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise Skip("kjit run failed: " + (r.stderr.strip().splitlines() or ["?"])[0])
    for i, (n, v) in enumerate(zip(names, vals)):
        if v[0] != "array":
            continue
        a = Arr.frombytes(v[1].dtype, v[1].shape, open(os.path.join(work, "out_%d.bin" % i), "rb").read())
        j = load_npy(os.path.join(work, "jit_%d.npy" % i))
        d = first_difference(a, j)
        if d:
            return "fail", "array %s differs from the JIT's at %s" % (n, d)
    return "ok", "%d arrays equal to the JIT's" % sum(v[0] == "array" for v in vals)


def write_tsv(path, results):
    """The kernels not run through a launcher, one row each (a kernel with
    several RUN lines once per distinct reason)."""
    def cell(x):
        return re.sub(r"[\t\r\n]+", " ", x)
    rows = set()
    for r in results:
        if r["status"] == "ok":
            continue
        kind = "failed" if r["status"] == "fail" else "refused" if r["reason"].startswith("not AOT-compiled") else "skipped"
        where = os.path.join(os.path.basename(os.path.dirname(os.path.abspath(r["file"]))), os.path.basename(r["file"]))
        reason = r["reason"].replace(os.path.abspath(r["file"]), where).replace(r["file"], where)
        rows.add((where, r["kernel"], kind, cell(reason)))  # no machine's path: the lists compare
    with open(path, "w") as f:
        f.write("file\tkernel\tkind\treason\n")
        for row in sorted(rows):
            f.write("\t".join(row) + "\n")


def main():
    if len(sys.argv) < 5:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    kjit, target, out, files = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    os.makedirs(out, exist_ok=True)
    results, failed = [], 0
    for path in files:
        runs = [l[len("# RUN:"):].strip() for l in open(path) if l.startswith("# RUN:")]
        for idx, line in enumerate(runs):
            rec = {"file": path, "kernel": line.split()[0], "run": line}
            try:
                rec["status"], rec["reason"] = one(kjit, target, out, path, line, idx)
            except Skip as e:
                rec["status"], rec["reason"] = "skip", str(e)
            except subprocess.TimeoutExpired as e:
                rec["status"], rec["reason"] = "fail", "timeout: %s" % e.cmd[0]
            failed += rec["status"] == "fail"
            results.append(rec)
            print("%-4s %s: %s  (%s)" % (rec["status"], os.path.basename(path), line[:70], rec["reason"][:160]))
    with open(os.path.join(out, "aot_exec.json"), "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    write_tsv(os.path.join(out, "aot_not_compiled.tsv"), results)
    n = {s: sum(r["status"] == s for r in results) for s in ("ok", "skip", "fail")}
    print("aot exec (%s): %d ok, %d skipped, %d failed; lists in %s and %s" % (
        target, n["ok"], n["skip"], n["fail"], os.path.join(out, "aot_exec.json"),
        os.path.join(out, "aot_not_compiled.tsv")))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

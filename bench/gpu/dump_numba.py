#!/usr/bin/env python3
"""dump_numba.py OUTDIR [NAME ...] - Numba's PTX and SASS of the bench kernels.

For every kernel file of bench/gpu/kernels (or the NAMEs given: file names
without .py), imports it under Numba (eager signatures compile there),
compiles its lazily typed kernels for the argument types of its "# BENCH"
rows (or of numba_bench.py's setup for the built-in benchmarks), and writes
for each compiled kernel:
  OUTDIR/FILE/KERNEL[.N].ptx    kernel.inspect_asm()
  OUTDIR/FILE/KERNEL[.N].sass   kernel.inspect_sass() where Numba can (it
                                needs nvdisasm), else `cuobjdump -sass` of
                                the cubin `ptxas -arch=sm_XX` makes of the PTX
  OUTDIR/FILE/KERNEL[.N].ptxas  `ptxas -v` of the PTX (registers, stack,
                                spills)
and OUTDIR/index.txt: one line per kernel (file, kernel, signature, files).
Needs numba with a GPU it can see; ptxas and cuobjdump from CUDA (PATH or
/usr/local/cuda/bin) for the fallback and the -v line.
"""
import os
import shutil
import subprocess
import sys
import tempfile

import numpy
numpy.row_stack = numpy.vstack  # required by the Numba build on the GPU machine
import numpy as np  # noqa: E402
import numba  # noqa: E402
from numba import cuda  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numba_bench as nb  # noqa: E402


def tool(name):
    p = shutil.which(name)
    if p:
        return p
    p = os.path.join("/usr/local/cuda/bin", name)
    return p if os.path.exists(p) else None


def spec_types(fields):
    """The Numba argument types of one "# BENCH" row, with no allocation."""
    out = []
    for a in fields["a"]:
        f = a.split(":")
        t = numba.from_dtype(np.dtype(f[1]))
        if f[0] != "s":
            t = numba.types.Array(t, len(f[2].split("x")), "C")
        out.append(t)
    return tuple(out)


def dispatchers(mod):
    for name in sorted(vars(mod)):
        obj = getattr(mod, name)
        if hasattr(obj, "inspect_asm") and hasattr(obj, "overloads") and \
                not getattr(getattr(obj, "targetoptions", {}), "get", lambda k: None)("device"):
            yield name, obj


def compile_lazy(mod, fname):
    """Compiles mod's kernels for the argument types its rows use."""
    sigs = []
    rows = nb.spec_rows(fname) if fname in nb.spec_files() else []
    for _row, d in rows:
        sigs.append((d["kernel"], spec_types(d)))
    lazy = any(not k.overloads for _n, k in dispatchers(mod))
    for name, setup in nb.BENCHES:
        if name == fname and lazy:  # the setup allocates the full-size inputs
            k, _g, _b, args, _o = setup(mod)
            sigs.append((k.py_func.__name__, tuple(numba.typeof(a) for a in args)))
    for kname, sig in sigs:
        k = getattr(mod, kname)
        if sig not in k.overloads:
            k.compile(sig)


def sass_of(k, sig, ptx, arch, tmp):
    try:
        s = k.inspect_sass(sig)
        if s:
            return s, "inspect_sass"
    except Exception as e:  # nvdisasm missing, or an older Numba
        why = "%s: %s" % (type(e).__name__, e)
    else:
        why = "inspect_sass returned nothing"
    ptxas, cuobjdump = tool("ptxas"), tool("cuobjdump")
    if not ptxas or not cuobjdump:
        return None, why + "; no ptxas/cuobjdump either"
    src = os.path.join(tmp, "k.ptx")
    cub = os.path.join(tmp, "k.cubin")
    with open(src, "w") as f:
        f.write(ptx)
    subprocess.run([ptxas, "-arch=" + arch, "-o", cub, src], check=True)
    r = subprocess.run([cuobjdump, "-sass", cub], check=True, capture_output=True, text=True)
    return r.stdout, "cuobjdump (inspect_sass: %s)" % why


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    names = sys.argv[2:] or sorted(f[:-3] for f in os.listdir(nb.KERNELS) if f.endswith(".py"))
    cc = cuda.get_current_device().compute_capability
    arch = "sm_%d%d" % cc
    ptxas = tool("ptxas")
    index = []
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for fname in names:
            try:
                mod = nb.load(fname)
                compile_lazy(mod, fname)
            except Exception as e:
                bad += 1
                index.append("%s\tERROR\t%s: %s" % (fname, type(e).__name__, str(e).replace("\n", " ")[:300]))
                continue
            d = os.path.join(out, fname)
            os.makedirs(d, exist_ok=True)
            for kname, k in dispatchers(mod):
                for n, args in enumerate(list(k.overloads)):
                    # the dispatcher's inspect_* take the overload's key: the
                    # tuple of argument types
                    sig = args
                    base = os.path.join(d, kname + ("" if n == 0 else ".%d" % n))
                    try:
                        ptx = k.inspect_asm(sig)
                        with open(base + ".ptx", "w") as f:
                            f.write(ptx)
                        if ptxas:
                            r = subprocess.run([ptxas, "-v", "-arch=" + arch, "-o", os.devnull, base + ".ptx"],
                                               capture_output=True, text=True)
                            with open(base + ".ptxas", "w") as f:
                                f.write(r.stdout + r.stderr)
                        sass, how = sass_of(k, sig, ptx, arch, tmp)
                        if sass:
                            with open(base + ".sass", "w") as f:
                                f.write(sass)
                        index.append("%s\t%s\t%s\t%s\tsass: %s" % (fname, kname, sig, os.path.basename(base), how))
                    except Exception as e:
                        bad += 1
                        index.append("%s\t%s\t%s\tERROR\t%s: %s" % (fname, kname, sig, type(e).__name__,
                                                                    str(e).replace("\n", " ")[:300]))
    with open(os.path.join(out, "index.txt"), "w") as f:
        f.write("numba %s, %s, %s\n" % (numba.__version__, arch, cuda.get_current_device().name))
        f.write("\n".join(index) + "\n")
    print("dump_numba: %d kernels, %d errors, in %s" % (len(index) - bad, bad, out))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

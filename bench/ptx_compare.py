#!/usr/bin/env python3
"""ptx_compare.py - the PTX quality of two kjit builds, kernel by kernel.

    python3 bench/ptx_compare.py OLD NEW [--arch sm_90] [--ptxas PATH] [--all] [FILE.py ...]

OLD and NEW are build folders (holding kjit and libkjit.so; the folder is put
first on LD_LIBRARY_PATH, so a copied build works) or kjit binaries.  Without
files: every kernel file of bench/kernels, bench/gpu/kernels and
tests/kernels.  Each file is compiled as tests/ptxas.sh does ("# ARGS:" lines,
else `kjit ptx FILE`), then for every .entry/.func it counts: instructions,
instructions inside loops (between a label and a backward branch to it),
global and shared loads and stores by vector width, fma and branches, and
reads `ptxas -v` (registers, spill bytes).  A row is marked "WORSE" where the
new build has more loop instructions, fewer vector loads, more registers or
more spills; the exit status is 1 if any row is.  Files only one build can
compile are listed, not compared.  --all prints identical rows too.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Files without an eager signature: the command line a benchmark uses.
EXTRA_ARGS = {
    "bench/gpu/kernels/cuda_reduce.py": ['ptx %s:sum_reduce --sig "float32[::1]"'],
    "bench/gpu/kernels/vectorize_add.py": ["ptx %s:add"],
}
SKIP_OPS = (".reg", ".shared", ".local", ".param", ".const", ".global", ".loc", ".file",
            ".pragma", ".maxnreg", ".reqntid", ".maxntid", ".minnctapersm", ".extern")


def kjit_cmd(build):
    """The kjit binary and the environment to run it with."""
    env = dict(os.environ, KJIT_CACHE="0")
    if os.path.isdir(build):
        env["LD_LIBRARY_PATH"] = build + ":" + env.get("LD_LIBRARY_PATH", "")
        return os.path.join(build, "kjit"), env
    return build, env


def arg_lines(path):
    rel = os.path.relpath(path, ROOT)
    if rel in EXTRA_ARGS:
        return EXTRA_ARGS[rel]
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*#\s*ARGS:\s*(.*)", line)
            if m:
                lines.append(m.group(1).strip())
    return lines or ["ptx %s"]


def compile_ptx(build, path, arch, tmp):
    """PTX texts of every compile line of path (None where one fails)."""
    exe, env = kjit_cmd(build)
    out = []
    for i, line in enumerate(arg_lines(path)):
        words = [w.replace("%s", path) for w in shlex.split(line)]
        ptx = os.path.join(tmp, "m%d.ptx" % i)
        r = subprocess.run([exe] + words + ["--arch", arch, "-o", ptx], env=env,
                           stdin=subprocess.DEVNULL, capture_output=True, cwd=os.path.join(ROOT, "tests"))
        if r.returncode != 0 or not os.path.exists(ptx):
            return None
        with open(ptx, encoding="utf-8") as f:
            out.append(f.read())
    return out


def split_functions(ptx):
    """{name: [body lines]} of every .entry/.func with a body."""
    funcs, name, depth, body = {}, None, 0, []
    for raw in ptx.splitlines():
        line = raw.split("//")[0].strip()
        if name is None:
            m = re.match(r"(?:\.visible\s+|\.weak\s+)?\.(?:entry|func)\s+(?:\([^)]*\)\s*)?(\w+)", line)
            if m:
                name, depth, body = m.group(1), 0, []
            continue
        depth += line.count("{") - line.count("}")
        if line == ";" and depth == 0 and not body:
            name = None            # a declaration, no body
            continue
        body.append(line)
        if depth == 0 and "}" in line:
            funcs[name] = body
            name = None
    return funcs


def instructions(body):
    """(label or None, instruction text) in order; labels carry no text."""
    out = []
    for line in body:
        if not line or line in ("{", "}") or line.startswith(SKIP_OPS):
            continue
        if line.endswith(":"):
            out.append((line[:-1], None))
            continue
        for part in line.split(";"):
            part = part.strip().strip("{}").strip()
            if part and not part.startswith(SKIP_OPS):
                out.append((None, part))
    return out


def count(body):
    ins = instructions(body)
    c = {k: 0 for k in ("instr", "loop", "ld.g", "ld.g.v", "st.g", "ld.s", "ld.s.v", "st.s", "fma", "bra")}
    labels, n = {}, 0
    for label, text in ins:
        if label:
            labels[label] = n
            continue
        n += 1
        op = re.sub(r"^@!?%\w+\s+", "", text).split()[0]
        c["instr"] += 1
        parts = op.split(".")
        vec = any(p in ("v2", "v4", "v8") for p in parts)
        for kind, space in (("ld", "global"), ("st", "global"), ("ld", "shared"), ("st", "shared")):
            if parts[0] == kind and space in parts:
                key = "%s.%s" % (kind, space[0])
                c[key] += 1
                if vec and kind == "ld":
                    c[key + ".v"] += 1
        if parts[0] == "fma":
            c["fma"] += 1
        if parts[0] == "bra":
            c["bra"] += 1
            target = text.split()[-1].rstrip(";")
            if target in labels:             # a backward branch closes a loop
                c["loop"] += n - labels[target]
    return c


def ptxas_info(ptxas, arch, ptx, tmp):
    """{function: (registers, spill bytes)} from ptxas -v."""
    src = os.path.join(tmp, "v.ptx")
    with open(src, "w", encoding="utf-8") as f:
        f.write(ptx)
    r = subprocess.run([ptxas, "-v", "-arch=" + arch, src, "-o", "/dev/null"], capture_output=True, text=True)
    info, cur = {}, None
    for line in r.stderr.splitlines():
        m = re.search(r"Compiling (?:entry )?function '(\w+)'|Function properties for (\w+)", line)
        if m:
            cur = m.group(1) or m.group(2)
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and cur:
            regs, _ = info.get(cur, (0, 0))
            info[cur] = (regs, int(m.group(1)) + int(m.group(2)))
        m = re.search(r"Used (\d+) registers", line)
        if m and cur:
            info[cur] = (int(m.group(1)), info.get(cur, (0, 0))[1])
    return info


def measure(build, path, arch, ptxas):
    """{(module index, function): counts} or None if a compile fails."""
    with tempfile.TemporaryDirectory(dir=os.environ.get("TMPDIR")) as tmp:
        texts = compile_ptx(build, path, arch, tmp)
        if texts is None:
            return None
        res = {}
        for i, ptx in enumerate(texts):
            regs = ptxas_info(ptxas, arch, ptx, tmp) if ptxas else {}
            for name, body in split_functions(ptx).items():
                c = count(body)
                c["regs"], c["spill"] = regs.get(name, (0, 0))
                res[(i, name)] = c
        return res


COLS = ("instr", "loop", "ld.g", "ld.g.v", "st.g", "ld.s", "ld.s.v", "st.s", "fma", "bra", "regs", "spill")


def worse(a, b):
    return (b["loop"] > a["loop"] or b["ld.g.v"] < a["ld.g.v"] or b["ld.s.v"] < a["ld.s.v"]
            or b["regs"] > a["regs"] or b["spill"] > a["spill"])


def cell(a, b, k):
    return str(a[k]) if a[k] == b[k] else "%d>%d" % (a[k], b[k])


def main(argv):
    show_all, arch, ptxas, pos = False, "sm_90", os.path.join(os.environ.get("KJIT_CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas"), []
    show_all = "--all" in argv
    argv = [a for a in argv if a != "--all"]
    it = iter(argv)
    for a in it:
        if a == "--arch":
            arch = next(it)
        elif a == "--ptxas":
            ptxas = next(it)
        else:
            pos.append(a)
    if len(pos) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    old, new, files = os.path.abspath(pos[0]), os.path.abspath(pos[1]), pos[2:]
    if not files:
        for d in ("bench/kernels", "bench/gpu/kernels", "tests/kernels"):
            full = os.path.join(ROOT, d)
            files += sorted(os.path.join(full, f) for f in os.listdir(full) if f.endswith(".py"))
    if not os.access(ptxas, os.X_OK):
        print("ptx_compare: %s not found: registers and spills not compared" % ptxas, file=sys.stderr)
        ptxas = None
    print("PTX %s, old -> new (a>b where they differ); loop = instructions inside loops" % arch)
    print("%-44s %s" % ("file / function", " ".join("%7s" % c for c in COLS)))
    nworse = nsame = nfunc = 0
    for path in files:
        path = os.path.abspath(path)
        rel = os.path.relpath(path, ROOT)
        a, b = measure(old, path, arch, ptxas), measure(new, path, arch, ptxas)
        if a is None or b is None:
            print("%-44s %s" % (rel, "not compiled by " + ("either" if a is None and b is None
                                                             else "old" if a is None else "new")))
            continue
        header = rel
        for key in sorted(set(a) | set(b)):
            nfunc += 1
            name = "  " + (key[1] if len(key[1]) <= 42 else key[1][:39] + "...")
            if key not in a or key not in b:
                print("%s\n%-44s only in %s" % (header, name, "new" if key in b else "old"))
                header = None
                continue
            x, y = a[key], b[key]
            if x == y:
                nsame += 1
                if not show_all:
                    continue
            mark = "  WORSE" if worse(x, y) else ""
            nworse += bool(mark)
            if header:
                print(header)
                header = None
            print("%-44s %s%s" % (name, " ".join("%7s" % cell(x, y, c) for c in COLS), mark))
    print("%d functions: %d identical counts, %d differ, %d worse" % (nfunc, nsame, nfunc - nsame, nworse))
    return 1 if nworse else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

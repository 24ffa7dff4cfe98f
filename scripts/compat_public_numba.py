#!/usr/bin/env python3
"""Numba's verdict on the public-code kernels of scripts/compat_public.py.

    python3 scripts/compat_public_numba.py BUNDLE.tar.gz [-o numba.tsv] [-j N] [--timeout S]

Runs where Numba (0.68) and a GPU are, with no network: BUNDLE is what
`compat_public.py bundle SNAPSHOTS BUNDLE.tar.gz` writes (the pinned
repositories' Python files and every unit with the signature kjit was
given).  Each file is loaded in its own subprocess the way an import would
load it, one top-level statement at a time so that host code which fails
there (a missing dataset, a package this machine lacks) leaves the rest
defined; `if __name__ == "__main__":` blocks, bare calls, top-level loops
and `with` blocks are host work and are skipped.  Then each kernel is compiled for its
signature: an eager one was compiled by its decorator, a lazy one by
`dispatcher.compile(sig)` (`cuda.compile_ptx` where no GPU is present).

The output has one line per unit: `ID<TAB>ok`, `ID<TAB>error: <first line>`
(Numba rejects it) or `ID<TAB>limit: <why>` (not judged: a harness limit, a
name whose defining statement failed on this machine, a timeout).  The file
goes to tests/compat_public/numba.tsv; `compat_public.py run --numba` reads it.
"""
import argparse
import ast
import concurrent.futures
import json
import os
import subprocess
import sys
import tarfile
import tempfile

HOST_WORK = (ast.Expr, ast.For, ast.While, ast.AsyncFor, ast.With, ast.AsyncWith)


def first_line(exc):
    text = f"{type(exc).__name__}: {exc}".strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__


def bound_names(stmt):
    out = set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
    return out


def load(path, repo_root):
    """Runs the module's top-level statements one by one, as its package's
    module (relative imports work) from its own folder (data files it
    reads); returns the namespace and {name: error} for the names of the
    statements that failed."""
    sys.path[:0] = [os.path.dirname(path), repo_root]
    sys.argv = [path]                       # argparse at module level sees no options
    os.chdir(os.path.dirname(path))
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    parts = os.path.relpath(path, repo_root)[:-3].split(os.sep)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    ns = {"__name__": ".".join(parts) or "kjit_public_check", "__package__": ".".join(parts[:-1]),
          "__file__": path, "__spec__": None, "__builtins__": __builtins__}
    failed = {}
    for stmt in tree.body:
        if isinstance(stmt, HOST_WORK) and not (isinstance(stmt, ast.Expr) and
                                                isinstance(stmt.value, ast.Constant)):
            continue
        try:
            code = compile(ast.Module(body=[stmt], type_ignores=[]), path, "exec")
            exec(code, ns)  # noqa: S102 - the point: load the module as an import would
        except BaseException as exc:  # noqa: B902 - any failure of host code
            for name in bound_names(stmt):
                failed.setdefault(name, first_line(exc))
    return ns, failed


def nested(ns, path, name):
    """"run.k": kernel k defined at the top level of host function run, made
    as run would make it before its first launch: run's top-level defs and
    assignments, in order, in a copy of the module's namespace (the harness
    names only kernels that read none of run's arguments)."""
    host, _, kname = name.partition(".")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    fn = next((s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == host), None)
    if fn is None:
        return None
    scope = dict(ns)
    for stmt in fn.body:
        if isinstance(stmt, (ast.FunctionDef, ast.Assign)):
            try:
                code = compile(ast.Module(body=[stmt], type_ignores=[]), path, "exec")
                exec(code, scope)  # noqa: S102 - as the host function would
            except BaseException:  # noqa: B902 - a statement that needs the call's values
                pass
    return scope.get(kname)


def judge(unit, ns, failed, cuda, path=None):
    if unit["reason"]:
        return "limit: " + unit["reason"]
    name = unit["name"]
    obj = ns.get(name)
    if obj is None and "." in name and path:
        obj = nested(ns, path, name)
    if obj is None:
        why = failed.get(name)
        cause = next((n for n in failed if n != name and why and f"'{n}'" in why), None)
        if why and cause:
            return f"limit: needs '{cause}', whose statement failed here: {failed[cause]}"
        return ("error: " + why) if why else "limit: not defined after loading the file"
    try:
        if unit["sig"] and not unit["eager"]:
            if cuda.is_available():
                obj.compile(unit["sig"])
            else:
                cuda.compile_ptx(obj.py_func, unit["sig"], cc=(8, 0))
        elif not getattr(obj, "overloads", None) and unit["eager"] and cuda.is_available():
            return "error: the eager signature compiled nothing"
    except BaseException as exc:  # noqa: B902 - Numba's verdict
        msg = first_line(exc)
        hit = next((n for n in failed if f"'{n}'" in msg or f" {n}" in msg), None)
        if hit:
            return f"limit: uses '{hit}', whose statement failed here: {failed[hit]}"
        return "error: " + msg
    return "ok"


def file_worker(root, units_path, out_path):
    import numpy
    numpy.row_stack = numpy.vstack          # numba 0.68 still names it
    from numba import cuda
    with open(units_path, encoding="utf-8") as f:
        units = json.load(f)
    u0 = units[0]
    repo_root = os.path.join(root, "snapshots", u0["repo"].replace("/", "+"))
    path = os.path.join(repo_root, u0["file"])
    try:
        ns, failed = load(path, repo_root)
    except BaseException as exc:  # noqa: B902
        verdicts = {u["id"]: "limit: file does not load: " + first_line(exc) for u in units}
    else:
        verdicts = {u["id"]: judge(u, ns, failed, cuda, path) for u in units}
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(verdicts, f)


def run_file(root, group, timeout, index):
    units_path = os.path.join(root, f"group{index}.json")
    out_path = os.path.join(root, f"verdict{index}.json")
    with open(units_path, "w", encoding="utf-8") as f:
        json.dump(group, f)
    try:
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--file-worker", root,
                               units_path, out_path], capture_output=True, text=True,
                              timeout=timeout, cwd=root)
        why = f"worker exited with {proc.returncode}: " + (proc.stderr.strip().splitlines() or [""])[-1]
    except subprocess.TimeoutExpired:
        why = f"loading and compiling the file took over {timeout} s"
    if os.path.exists(out_path):
        with open(out_path, encoding="utf-8") as f:
            return json.load(f)
    return {u["id"]: "limit: " + why[:300] for u in group}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bundle", nargs="?")
    ap.add_argument("-o", "--out", default="numba.tsv")
    ap.add_argument("-j", "--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--file-worker", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.file_worker:
        file_worker(*args.file_worker)
        return 0
    with tempfile.TemporaryDirectory(prefix="kjit-public-numba-") as root:
        verdicts, units = judge_bundle(args, root)
    import numba
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(f"# Numba {numba.__version__}: verdict per unit of scripts/compat_public.py\n")
        for u in units:
            f.write(f"{u['id']}\t{verdicts.get(u['id'], 'limit: not run')}\n")
    ok = sum(1 for v in verdicts.values() if v == "ok")
    print(f"{ok} of {len(units)} units compile with Numba {numba.__version__}; verdicts in {args.out}")
    return 0


def judge_bundle(args, root):
    with tarfile.open(args.bundle) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(root, filter="data")
        else:
            tar.extractall(root)
    with open(os.path.join(root, "units.json"), encoding="utf-8") as f:
        units = json.load(f)["units"]
    groups = {}
    for u in units:
        groups.setdefault((u["repo"], u["file"]), []).append(u)
    verdicts = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_file, root, g, args.timeout, i) for i, g in enumerate(groups.values())]
        for fut in futures:
            verdicts.update(fut.result())
    return verdicts, units


if __name__ == "__main__":
    sys.exit(main())

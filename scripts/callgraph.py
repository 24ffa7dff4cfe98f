#!/usr/bin/env python3
"""callgraph.py BUILD_DIR [--check MAX] [--edges] - the library's call graph, file by file.

Reads the library's object files (BUILD_DIR/CMakeFiles/kjit_obj.dir/**.o) with
`nm`: a file calls another when it references a symbol the other defines
(static functions stay inside their file, so every cross-file call is seen).
Prints, for each folder, its files and the sizes of its call cycles (strongly
connected components of the in-folder graph, largest first), then the calls
between folders and whether they run one way (docs/internals.md, "Layers").

--check MAX  exit 1 when a folder has a cycle of more than MAX files, when
             two folders call each other, or when a file calls a folder
             above its own in ORDER (ctest lint/callgraph).
--edges      also list every call that runs against the folder order.
--only DIRS  check and print only these folders (comma-separated), e.g.
             --only ir,lower,typing,frontend,common.
"""
import os
import subprocess
import sys
from collections import defaultdict

# The folder order, lowest first: a folder may call only folders before it.
ORDER = ["common", "frontend", "ir", "lower", "typing", "codegen",
         "data", "cache", "runtime", "host", "cuda", "api", "aot"]


SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def objects(build):
    """The object file of each source; one whose source is gone (moved or
    deleted since that build) is stale and left out."""
    root = os.path.join(build, "CMakeFiles", "kjit_obj.dir")
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith(".c.o"):
                path = os.path.join(dirpath, f)
                src = os.path.relpath(path, root)[:-2]
                if os.path.exists(os.path.join(SOURCE, src)):
                    out[src] = path
    return out


def symbols(paths):
    defined, used = {}, defaultdict(set)
    for name, path in sorted(paths.items()):
        res = subprocess.run(["nm", "-P", path], capture_output=True,
                             text=True, check=True)
        for line in res.stdout.splitlines():
            parts = line.split()
            if len(parts) < 2:
                continue
            sym, kind = parts[0], parts[1]
            if kind == "U":
                used[name].add(sym)
            elif kind in "TDBRVW" and kind.isupper():
                defined[sym] = name
    return defined, used


def sccs(nodes, edges):
    """Tarjan's algorithm, iterative; returns the components."""
    index, low, onstack, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        onstack.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    onstack.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    advanced = True
                    break
                if w in onstack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    onstack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def folder(f):
    return f.split("/")[0]


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    build = argv[1]
    check = None
    if "--check" in argv:
        check = int(argv[argv.index("--check") + 1])
    show_edges = "--edges" in argv
    only = None
    if "--only" in argv:
        only = set(argv[argv.index("--only") + 1].split(","))
    paths = objects(build)
    if not paths:
        print(f"callgraph.py: no object files under {build} (build first)",
              file=sys.stderr)
        return 2
    defined, used = symbols(paths)
    calls = defaultdict(set)        # file -> files it calls
    via = defaultdict(set)          # (from, to) -> symbols
    for f, syms in used.items():
        for s in syms:
            g = defined.get(s)
            if g and g != f:
                calls[f].add(g)
                via[(f, g)].add(s)
    folders = sorted({folder(f) for f in paths},
                     key=lambda d: (ORDER.index(d) if d in ORDER else 99, d))
    if only is not None:
        folders = [d for d in folders if d in only]
    fail = False
    print("folder      files  largest call cycles (files)")
    for d in folders:
        files = sorted(f for f in paths if folder(f) == d)
        inner = {f: {g for g in calls[f] if folder(g) == d} for f in files}
        comps = sorted((c for c in sccs(files, inner) if len(c) > 1),
                       key=len, reverse=True)
        sizes = [len(c) for c in comps] or [1]
        print(f"{d + '/':<11} {len(files):>5}  {' '.join(map(str, sizes[:8]))}")
        if check is not None and sizes[0] > check:
            print(f"callgraph.py: {d}/ has a call cycle of {sizes[0]} files "
                  f"(more than {check}): {' '.join(comps[0])}", file=sys.stderr)
            fail = True
    fedges = defaultdict(int)
    for (f, g), syms in via.items():
        if folder(f) != folder(g) and (only is None or
                                       {folder(f), folder(g)} <= only):
            fedges[(folder(f), folder(g))] += len(syms)
    print("\ncalls between folders (functions called):")
    for (a, b), n in sorted(fedges.items()):
        back = (b, a) in fedges
        print(f"  {a:>9} -> {b:<9} {n:>4}{'   BOTH WAYS' if back else ''}")
        if back and check is not None and a < b:
            print(f"callgraph.py: {a}/ and {b}/ call each other",
                  file=sys.stderr)
            fail = True
    rank = {d: i for i, d in enumerate(ORDER)}
    against = []
    for (f, g), syms in sorted(via.items()):
        a, b = folder(f), folder(g)
        if only is not None and not {a, b} <= only:
            continue
        if a != b and rank.get(a, 99) < rank.get(b, 99):
            against.append(f"  {f} -> {g}: {' '.join(sorted(syms))}")
    if show_edges or (check is not None and against):
        print("\ncalls against the folder order:")
        print("\n".join(against) if against else "  (none)")
    if check is not None and against:
        print(f"callgraph.py: {len(against)} file(s) call a folder above their own "
              f"(order: {' < '.join(ORDER)})", file=sys.stderr)
        fail = True
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Compatibility harness: how much of numba-cuda's own test suite kjit compiles.

    python3 scripts/compat.py NUMBA_CUDA_CHECKOUT [--kjit build/kjit] [--keep DIR]
        [--json FILE] [--numba-results FILE] [--out docs/compatibility.md]
        [-j N] [--only PATTERN] [--emit-numba-check DIR]

Stages (standard library only; numba-cuda is read as text with `ast`, never
imported):

1. Discovery: every function compiled by `cuda.jit` in the test modules
   (`tests/cudapy/test_*.py`, `tests/doc_examples/test_*.py`, and the
   `*_usecases.py` modules they import), in decorator form (`@cuda.jit`,
   `@cuda.jit(...)`, `@jit` from numba.cuda, `@numba.cuda.jit`) and call
   form (`k = cuda.jit(sig)(fn)`, `cuda.jit(fn)`), including calls in test
   helpers whose function argument comes from the caller.  `device=True`
   functions are dependencies, not kernels.
2. Extraction: a standalone file per kernel: the imports it needs, the
   module-level and enclosing-function definitions it references
   (transitively), definitions inlined from other test modules, then the
   kernel with its decorator.  A call-form kernel gets a decorator written by
   the harness, with a literal signature when the harness can evaluate it.
3. Argument types: an eager signature is read by kjit itself; a lazy kernel
   gets a `--sig` from a small abstract evaluator over the test's launch
   `kernel[grid, block](args)` / `kernel.forall(n)(args)`.
4. Compilation: `kjit ptx FILE:KERNEL [--sig SIG] --arch sm_80`, then ptxas
   (again with `--global NAME=zeros:DTYPE:SHAPE` for globals the host
   computes, when kjit says one is not bound and the evaluator types it).
5. Classification and report: classes, blocker keys (kjit's messages with
   the varying parts taken out), per-file counts, written as Markdown and
   optionally JSON.

`--emit-numba-check DIR` writes the extracted files plus `numba_check.py`,
which compiles each kernel with Numba on a machine that has it and writes
`{id: "ok" | "error: ..."}`; `--numba-results` reads that file back so the
headline can be given over the kernels Numba itself accepts.
"""

import argparse
import ast
import builtins
import concurrent.futures
import dataclasses
import datetime
import fnmatch
import json
import operator
import os
import re
import shutil
import subprocess
import sys
import tempfile

# ---------------------------------------------------------------------------
# Source model: modules, scopes, bindings
# ---------------------------------------------------------------------------

BUILTIN_NAMES = set(dir(builtins))
TEST_DIRS = ("numba_cuda/numba/cuda/tests/cudapy", "numba_cuda/numba/cuda/tests/doc_examples")
PACKAGE_ROOT = "numba_cuda"          # numba.cuda.x.y lives at numba_cuda/numba/cuda/x/y.py
MACHINERY_MODULES = ("numba.cuda.testing", "numba.cuda.tests.support", "unittest", "pytest")


class HarnessError(Exception):
    """A kernel the harness cannot extract; the message is the reason."""


@dataclasses.dataclass
class Binding:
    kind: str                  # assign, def, class, import, for, param, with, unpack, other
    name: str
    node: ast.AST              # the statement (or arg) that binds it
    scope: "Scope"
    value: ast.AST = None      # assigned expression / for iterable / import alias

    @property
    def lineno(self):
        return getattr(self.node, "lineno", 0)


class Scope:
    """A module or function body with the names it binds (Python scoping,
    class bodies skipped as Python skips them for nested functions)."""

    def __init__(self, module, node, parent, qualname):
        self.module = module
        self.node = node
        self.parent = parent
        self.qualname = qualname
        self.bindings = {}
        self.params = []

    def add(self, binding):
        self.bindings.setdefault(binding.name, []).append(binding)

    def lookup_local(self, name, before_line=None):
        """The binding of `name` here: the last one before `before_line`
        when given and there is one, else the first."""
        found = [b for b in self.bindings.get(name, ()) if b.kind not in ("setshape", "augassign")]
        if not found:
            return None
        if before_line is not None:
            earlier = [b for b in found if b.lineno < before_line]
            if earlier:
                return earlier[-1]
        return found[0]

    def chain(self):
        scope = self
        while scope is not None:
            yield scope
            scope = scope.parent

    def resolve(self, name, before_line=None):
        for scope in self.chain():
            binding = scope.lookup_local(name, before_line if scope is self else None)
            if binding is not None:
                return binding
        return None

    @property
    def is_function(self):
        return isinstance(self.node, (ast.FunctionDef, ast.AsyncFunctionDef))


def _target_names(target):
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _target_names(elt)]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    return []


class _BindingCollector(ast.NodeVisitor):
    """Records the names a scope binds, without entering nested scopes."""

    def __init__(self, scope):
        self.scope = scope

    def _bind(self, kind, name, node, value=None):
        self.scope.add(Binding(kind, name, node, self.scope, value))

    def visit_FunctionDef(self, node):
        self._bind("def", node.name, node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self._bind("class", node.name, node)

    def visit_Lambda(self, node):
        pass

    def visit_Assign(self, node):
        for target in node.targets:
            if isinstance(target, ast.Attribute) and target.attr == "shape" \
                    and isinstance(target.value, ast.Name):
                self._bind("setshape", target.value.id, node, node.value)
            elif isinstance(target, ast.Name):
                self._bind("assign", target.id, node, node.value)
            else:
                for name in _target_names(target):
                    self._bind("unpack", name, node, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        if isinstance(node.target, ast.Name) and node.value is not None:
            self._bind("assign", node.target.id, node, node.value)

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Name):
            self._bind("augassign", node.target.id, node, node.value)

    def visit_NamedExpr(self, node):
        self._bind("other", node.target.id, node, node.value)

    def visit_For(self, node):
        for name in _target_names(node.target):
            self._bind("for", name, node, node.iter)
        self.generic_visit(node)

    def visit_comprehension(self, node):
        pass

    def visit_ListComp(self, node):
        pass

    visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_ListComp

    def visit_With(self, node):
        for item in node.items:
            if item.optional_vars is not None:
                for name in _target_names(item.optional_vars):
                    self._bind("with", name, node, item.context_expr)
        self.generic_visit(node)

    def visit_Import(self, node):
        for alias in node.names:
            name = alias.asname or alias.name.split(".")[0]
            self._bind("import", name, node, alias)

    def visit_ImportFrom(self, node):
        for alias in node.names:
            if alias.name != "*":
                self._bind("import", alias.asname or alias.name, node, alias)

    def visit_ExceptHandler(self, node):
        if node.name:
            self._bind("other", node.name, node)
        self.generic_visit(node)


class Module:
    """One parsed Python file of the checkout."""

    def __init__(self, root, relpath):
        self.root = root
        self.relpath = relpath
        self.basename = os.path.basename(relpath)
        self.dotted = self._dotted_name(relpath)
        with open(os.path.join(root, relpath), encoding="utf-8") as f:
            self.text = f.read()
        self.lines = self.text.splitlines()
        self.tree = ast.parse(self.text, filename=relpath)
        self.parents = {}
        for parent in ast.walk(self.tree):
            for child in ast.iter_child_nodes(parent):
                self.parents[child] = parent
        self.scopes = {}
        self.scope = self._build_scope(self.tree, None, "")
        self.star_imports = [n for n in ast.walk(self.tree)
                             if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)]
        self._classify_aliases()

    @staticmethod
    def _dotted_name(relpath):
        parts = relpath[:-3].split("/")
        if parts and parts[0] == PACKAGE_ROOT:
            parts = parts[1:]
        return ".".join(parts)

    def _build_scope(self, node, parent, qualname):
        scope = Scope(self, node, parent, qualname)
        self.scopes[node] = scope
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            for arg in args.posonlyargs + args.args + args.kwonlyargs:
                scope.params.append(arg.arg)
                scope.add(Binding("param", arg.arg, arg, scope))
            for arg in (args.vararg, args.kwarg):
                if arg is not None:
                    scope.add(Binding("param", arg.arg, arg, scope))
            body = node.body if isinstance(node.body, list) else [node.body]
        else:
            body = node.body
        collector = _BindingCollector(scope)
        for stmt in body:
            collector.visit(stmt)
        self._build_nested(body, scope, qualname)
        return scope

    def _build_nested(self, nodes, scope, qualname):
        """Creates scopes for the functions under `nodes` (class bodies do
        not form a scope for their methods, so methods hang off `scope`)."""
        stack = list(nodes)
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._build_scope(node, scope, f"{qualname}.{node.name}".lstrip("."))
            elif isinstance(node, ast.ClassDef):
                self._build_nested(node.body, scope, f"{qualname}.{node.name}".lstrip("."))
                stack.extend(node.decorator_list)
            elif isinstance(node, ast.Lambda):
                self._build_scope(node, scope, f"{qualname}.<lambda>".lstrip("."))
            else:
                stack.extend(ast.iter_child_nodes(node))

    def _classify_aliases(self):
        """Which names mean numba, numba.cuda and numba.cuda.jit here."""
        self.numba_names, self.cuda_names, self.jit_names = set(), set(), set()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == "numba" or (a.name.startswith("numba.") and not a.asname):
                        self.numba_names.add(a.asname or "numba")
                    if a.name == "numba.cuda" and a.asname:
                        self.cuda_names.add(a.asname)
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                for a in node.names:
                    if node.module == "numba" and a.name == "cuda":
                        self.cuda_names.add(a.asname or "cuda")
                    if node.module == "numba.cuda" and a.name == "jit":
                        self.jit_names.add(a.asname or "jit")

    def is_cuda_jit(self, expr):
        if isinstance(expr, ast.Name):
            return expr.id in self.jit_names
        if isinstance(expr, ast.Attribute) and expr.attr == "jit":
            base = expr.value
            if isinstance(base, ast.Name):
                return base.id in self.cuda_names
            return (isinstance(base, ast.Attribute) and base.attr == "cuda"
                    and isinstance(base.value, ast.Name) and base.value.id in self.numba_names)
        return False

    def scope_of(self, node):
        """The innermost scope whose body contains `node`."""
        cur = self.parents.get(node)
        while cur is not None:
            if cur in self.scopes:
                return self.scopes[cur]
            cur = self.parents.get(cur)
        return self.scope

    def ancestors(self, node):
        cur = self.parents.get(node)
        while cur is not None:
            yield cur
            cur = self.parents.get(cur)

    def statement_of(self, node):
        """The statement that contains `node` (or `node` itself)."""
        cur = node
        while cur is not None and not isinstance(cur, ast.stmt):
            cur = self.parents.get(cur)
        return cur

    def segment(self, node):
        """Source of a statement, decorators included, dedented to column 0."""
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        indent = node.col_offset
        out = []
        for line in self.lines[first - 1:node.end_lineno]:
            out.append(line[indent:] if line[:indent].strip() == "" else line)
        return "\n".join(out)


class ModuleCache:
    """Parses each file of the checkout at most once; maps dotted names to files."""

    def __init__(self, root):
        self.root = root
        self.modules = {}

    def load(self, relpath):
        if relpath not in self.modules:
            try:
                self.modules[relpath] = Module(self.root, relpath)
            except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
                self.modules[relpath] = None
        return self.modules[relpath]

    def resolve_import(self, module, node):
        """The test-tree module an ImportFrom refers to, or None."""
        if node.level:
            base = module.dotted.split(".")[:-node.level]
            dotted = ".".join(base + ([node.module] if node.module else []))
        else:
            dotted = node.module or ""
        return self.by_dotted(dotted)

    def by_dotted(self, dotted):
        if not dotted.startswith("numba.cuda.tests.") or dotted in MACHINERY_MODULES:
            return None
        rel = PACKAGE_ROOT + "/" + dotted.replace(".", "/") + ".py"
        if not os.path.isfile(os.path.join(self.root, rel)):
            return None
        return self.load(rel)


# ---------------------------------------------------------------------------
# Free names
# ---------------------------------------------------------------------------

def free_names(node):
    """Names a function (or expression) reads that it does not bind itself,
    in order of first use.  Nested functions and lambdas are included, with
    their own parameters and locals left out."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        bound = set()
        args = node.args
        for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
            if arg is not None:
                bound.add(arg.arg)
        body = node.body if isinstance(node.body, list) else [node.body]
        for sub in ast.walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
                bound.add(sub.id)
            elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(sub.name)
            elif isinstance(sub, (ast.Import, ast.ImportFrom)):
                bound.update((a.asname or a.name).split(".")[0] for a in sub.names)
            elif isinstance(sub, ast.arg):
                bound.add(sub.arg)
        extra = list(getattr(node, "decorator_list", []))
        extra += [d for d in args.defaults + args.kw_defaults if d is not None]
        names = [n for n in _loaded_names(body) if n not in bound]
        names = _loaded_names(extra) + names
    else:
        names = _loaded_names([node])
    seen, out = set(), []
    for n in names:
        if n not in seen:
            seen.add(n)
            out.append(n)
    return out


def _loaded_names(nodes):
    out = []
    for root in nodes:
        for sub in ast.walk(root):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                out.append(sub.id)
    return out


# ---------------------------------------------------------------------------
# Discovery
# ---------------------------------------------------------------------------

@dataclasses.dataclass(eq=False)
class Env:
    """Values of a helper function's parameters for one call of it."""
    values: dict                 # param name -> (expr, scope, Env of that scope)
    parent_call: ast.AST = None  # the call of the helper
    caller: "Env" = None

    def call_nodes(self):
        env = self
        while env is not None:
            if env.parent_call is not None:
                yield env.parent_call
            env = env.caller


EMPTY_ENV = Env({})


@dataclasses.dataclass
class Kernel:
    id: str
    module: Module
    func: ast.FunctionDef          # the kernel's def
    func_module: Module            # where the def lives (another module for imported functions)
    site_scope: Scope              # scope of the decorator / jit call
    site: ast.AST                  # the decorated def or the jit call
    jit_call: ast.Call = None      # cuda.jit(...) call (None for a bare @cuda.jit)
    form: str = "decorator"        # decorator | call
    launch_names: tuple = ()
    env: Env = EMPTY_ENV
    test_qualname: str = ""
    # filled in by extraction
    sig: str = None
    numba_sig: str = None          # the same signature as Numba spells it
    eager: bool = False
    expects_error: str = None
    source: str = None
    kernel_name: str = None
    unresolved: dict = dataclasses.field(default_factory=dict)
    reason: str = None             # not-extracted reason


def jit_keyword(call, name):
    if call is None:
        return None
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def is_device_call(call):
    value = jit_keyword(call, "device")
    return isinstance(value, ast.Constant) and bool(value.value)


def signature_args(call):
    """The positional signature arguments of a cuda.jit(...) call."""
    return [] if call is None else [a for a in call.args]


def discover(cache, relpath):
    """All kernel sites of one module."""
    module = cache.load(relpath)
    if module is None:
        raise HarnessError("file does not parse")
    kernels = []
    for node in ast.walk(module.tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            kernels.extend(_decorated_kernel(module, node))
        elif isinstance(node, ast.Call):
            kernels.extend(_call_form_kernels(cache, module, node))
    return kernels


def _decorated_kernel(module, func):
    for deco in func.decorator_list:
        call = deco if isinstance(deco, ast.Call) else None
        target = deco.func if call is not None else deco
        if not module.is_cuda_jit(target) or is_device_call(call):
            continue
        if call is not None and call.args and _is_function_ref(module, call.args[0], func):
            continue
        scope = module.scope_of(func)
        instances = [(EMPTY_ENV, scope.qualname)]
        if scope.is_function and not scope.node.name.startswith("test") \
                and _returns_name(scope.node, {func.name}):
            instances = _instances_of(module, scope, 0) or instances
        return [Kernel(id="", module=module, func=func, func_module=module, site_scope=scope,
                       site=func, jit_call=call, form="decorator", launch_names=(func.name,),
                       env=env, test_qualname=qualname)
                for env, qualname in instances]
    return []


def _returns_name(func, names):
    """Whether a function returns one of `names` (a kernel factory)."""
    for node in ast.walk(func):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Name) and node.value.id in names:
            return True
    return False


def _is_function_ref(module, expr, site):
    """Whether `cuda.jit(expr)` names a Python function rather than a signature."""
    if isinstance(expr, ast.Lambda):
        return True
    if not isinstance(expr, ast.Name):
        return False
    binding = module.scope_of(site).resolve(expr.id)
    return binding is not None and binding.kind in ("def", "param", "import")


def _call_form_kernels(cache, module, call):
    """`cuda.jit(sig, ...)(fn)` or `cuda.jit(fn, ...)`."""
    if isinstance(call.func, ast.Call) and module.is_cuda_jit(call.func.func):
        jit_call, fn_expr, sig_call = call.func, (call.args[0] if call.args else None), call.func
    elif module.is_cuda_jit(call.func) and call.args and _is_function_ref(module, call.args[0], call):
        jit_call, fn_expr = call, call.args[0]
        sig_call = ast.Call(func=call.func, args=call.args[1:], keywords=call.keywords)
    else:
        return []
    if fn_expr is None or isinstance(fn_expr, ast.Lambda) or is_device_call(jit_call):
        return []
    # Decorators are handled by _decorated_kernel.
    parent = module.parents.get(call)
    if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef)) and call in parent.decorator_list:
        return []
    scope = module.scope_of(call)
    launch_names = _bound_names(module, call)
    out = []
    for env, qualname in helper_instances(module, scope, fn_expr):
        target = resolve_function(cache, module, scope, fn_expr, env)
        if target is None:
            continue
        func_module, func = target
        out.append(Kernel(id="", module=module, func=func, func_module=func_module,
                          site_scope=scope, site=call, jit_call=sig_call, form="call",
                          launch_names=launch_names, env=env, test_qualname=qualname))
    return out


def _bound_names(module, call):
    """Names the compiled kernel is assigned to (`k = cuda.jit(...)(fn)`)."""
    parent = module.parents.get(call)
    if isinstance(parent, ast.Assign):
        return tuple(n for t in parent.targets for n in _target_names(t))
    return ()


def resolve_function(cache, module, scope, expr, env, depth=0):
    """(module, FunctionDef) that `expr` names, following assignments,
    helper parameters and imports from other test modules."""
    if depth > 6 or not isinstance(expr, ast.Name):
        return None
    binding = scope.resolve(expr.id)
    if binding is None:
        return None
    if binding.kind == "def":
        return module, binding.node
    if binding.kind == "assign":
        return resolve_function(cache, module, binding.scope, binding.value, env, depth + 1)
    if binding.kind == "param" and expr.id in env.values:
        value, vscope, venv = env.values[expr.id]
        return resolve_function(cache, vscope.module, vscope, value, venv, depth + 1)
    if binding.kind == "import" and isinstance(binding.node, ast.ImportFrom):
        other = cache.resolve_import(module, binding.node)
        if other is not None:
            inner = other.scope.lookup_local(binding.value.name)
            if inner is not None and inner.kind == "def":
                return other, inner.node
    return None


def helper_instances(module, scope, fn_expr, depth=0):
    """[(Env, test qualname)] for a jit call in `scope`: one per call of the
    enclosing helper when the compiled function is one of its parameters,
    else one with no bindings."""
    if not (isinstance(fn_expr, ast.Name) and scope.is_function and fn_expr.id in scope.params):
        return [(EMPTY_ENV, scope.qualname)]
    return _instances_of(module, scope, depth) or [(EMPTY_ENV, scope.qualname)]


def _instances_of(module, scope, depth):
    if depth > 3 or not scope.is_function:
        return []
    func = scope.node
    params = scope.params
    method = bool(params) and params[0] in ("self", "cls")
    out = []
    for call in _calls_to(module, func.name):
        caller = module.scope_of(call)
        caller_envs = [(EMPTY_ENV, caller.qualname)]
        if caller.is_function and not caller.node.name.startswith("test"):
            caller_envs = _instances_of(module, caller, depth + 1) or caller_envs
        values = _bind_call(call, func.args, method)
        for cenv, qualname in caller_envs:
            bound = {p: (v, caller, cenv) for p, v in values.items()}
            out.append((Env(bound, call, cenv), qualname))
    return out


def _calls_to(module, name):
    """Calls of `name` / `self.name` in the module, in source order (memoized
    on the module: helpers are looked up once per parameter they bind)."""
    memo = module.__dict__.setdefault("_calls_to_memo", {})
    if name not in memo:
        memo[name] = _find_calls_to(module, name)
    return memo[name]


def _find_calls_to(module, name):
    calls = []
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Attribute) and f.attr == name
                    and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls")) \
                    or (isinstance(f, ast.Name) and f.id == name):
                calls.append(node)
    return sorted(calls, key=lambda c: (c.lineno, c.col_offset))


def _bind_call(call, args, skip_self):
    """{parameter: argument expression} for a call of a def with `args`
    (defaults included; a *args parameter gets a tuple of the rest)."""
    values = {}
    positional_params = [a.arg for a in args.posonlyargs + args.args]
    for arg, default in zip(positional_params[len(positional_params) - len(args.defaults):], args.defaults):
        values[arg] = default
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        if default is not None:
            values[arg.arg] = default
    if skip_self:
        positional_params = positional_params[1:]
    positional = list(call.args)
    starred = any(isinstance(a, ast.Starred) for a in positional)
    for p, a in zip(positional_params, positional):
        if isinstance(a, ast.Starred):
            break
        values[p] = a
    if args.vararg is not None and not starred:
        values[args.vararg.arg] = ast.Tuple(elts=positional[len(positional_params):], ctx=ast.Load())
    for kw in call.keywords:
        if kw.arg:
            values[kw.arg] = kw.value
    return values


def assign_ids(kernels):
    """`file::Class.test::kernel`, with #2, #3 ... for repeats."""
    seen = {}
    for k in kernels:
        parts = [k.module.basename]
        if k.test_qualname:
            parts.append(k.test_qualname)
        parts.append(k.func.name)
        base = "::".join(parts)
        seen[base] = seen.get(base, 0) + 1
        k.id = base if seen[base] == 1 else f"{base}#{seen[base]}"


# ---------------------------------------------------------------------------
# Expected errors
# ---------------------------------------------------------------------------

# Exceptions raised while the kernel runs (the kernel itself compiles).
RUNTIME_EXCEPTIONS = {"IndexError", "ZeroDivisionError", "AssertionError", "OverflowError",
                      "CudaAPIError", "CUDAError", "OSError", "PicklingError", "MemoryError"}


def expected_error(kernel):
    """The exception a test expects around the kernel's definition, jit call
    or launches (`with self.assertRaises(...)`, `pytest.raises`), when that
    is a compile-time error; None otherwise."""
    module = kernel.module
    nodes = [kernel.site] + list(kernel.env.call_nodes())
    nodes += [launch.call for launch in find_launches(kernel)]
    nodes += _compile_calls(kernel)
    for node in nodes:
        owner = kernel.func_module if node is kernel.func and kernel.func_module is not module else module
        for anc in owner.ancestors(node):
            if isinstance(anc, (ast.With, ast.AsyncWith)):
                for item in anc.items:
                    exc = _raises_exception(item.context_expr)
                    if exc is not None and exc.split(".")[-1] not in RUNTIME_EXCEPTIONS:
                        return exc
            if isinstance(anc, (ast.FunctionDef, ast.AsyncFunctionDef)) and anc is not kernel.func:
                if any(_dotted(d).endswith("expectedFailure") for d in anc.decorator_list):
                    return "expectedFailure"
    return None


def _raises_exception(expr):
    if not isinstance(expr, ast.Call):
        return None
    name = _dotted(expr.func)
    if name.split(".")[-1] in ("assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "raises"):
        return _dotted(expr.args[0]) if expr.args else "?"
    return None


def _compile_calls(kernel):
    """`k.compile(...)`, `cuda.compile_ptx(fn, ...)` calls naming the kernel."""
    out = []
    fn_scope = kernel.site_scope.node if kernel.site_scope.is_function else kernel.module.tree
    names = set(kernel.launch_names) | {kernel.func.name}
    for node in ast.walk(fn_scope):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in names:
                out.append(node)
            elif node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in names \
                    and _dotted(f).split(".")[-1].startswith("compile"):
                out.append(node)
    return out


def _is_dotted_name(expr):
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return isinstance(expr, ast.Name)


def _dotted(expr):
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        return _dotted(expr.value) + "." + expr.attr
    if isinstance(expr, ast.Call):
        return _dotted(expr.func)
    return "?"


# ---------------------------------------------------------------------------
# Extraction: the standalone file
# ---------------------------------------------------------------------------

class Extractor:
    """Collects what a kernel needs and writes it as one module."""

    def __init__(self, cache, kernel):
        self.cache = cache
        self.kernel = kernel
        self.imports = []          # (module, ImportFrom/Import node, alias) in order
        self.defs = {}             # (relpath, id(node)) -> (sort key, text)
        self.visited = set()
        self.notes = []

    def run(self):
        k = self.kernel
        self._need_function(k.func_module, k.func, k.func_module.scope_of(k.func), EMPTY_ENV,
                            skip_decorators=(k.form == "call"))
        if k.form == "call":
            for name in free_names(ast.Expression(body=k.jit_call)) if k.jit_call else []:
                self._need_name(name, k.site_scope, k.env, k.site.lineno)
        return self._render()

    # -- walking the dependencies -------------------------------------------

    def _need_function(self, module, func, scope, env, skip_decorators=False):
        key = (module.relpath, id(func))
        if key in self.visited:
            return
        self.visited.add(key)
        names = free_names(func)
        if skip_decorators:
            deco_names = set(_loaded_names(func.decorator_list))
            names = [n for n in names if n not in deco_names or n in _loaded_names(func.body)]
        for name in names:
            self._need_name(name, scope, env, func.lineno)

    def _need_name(self, name, scope, env, before_line):
        binding = scope.resolve(name, before_line)
        if binding is None:
            binding = self._star_import(scope.module, name)
            if binding is None:
                if name not in BUILTIN_NAMES:
                    self.kernel.unresolved[name] = "not found"
                return
        key = (scope.module.relpath, "name", id(binding.node), name)
        if key in self.visited:
            return
        self.visited.add(key)
        module = binding.scope.module
        kind = binding.kind
        if kind == "def":
            if binding.node is self.kernel.func:
                return
            self._add_def(binding, module.segment(binding.node))
            self._need_function(module, binding.node, binding.scope, env)
        elif kind == "class":
            self._add_def(binding, module.segment(binding.node))
            self.kernel.unresolved.setdefault(name, "class")
        elif kind == "assign":
            self._add_assign(binding, name, module)
        elif kind == "import":
            self._need_import(binding, name)
        elif kind == "for":
            self._need_loop_variable(binding, name)
        elif kind == "param":
            self._need_param(binding, name, env)
        else:
            self.kernel.unresolved[name] = f"bound by {kind}"

    def _star_import(self, module, name):
        for node in module.star_imports:
            other = self.cache.resolve_import(module, node)
            if other is not None:
                binding = other.scope.lookup_local(name)
                if binding is not None:
                    return binding
        return None

    def _add_def(self, binding, text):
        scope = binding.scope
        depth = sum(1 for _ in scope.chain())
        key = (scope.module is not self.kernel.module, depth, binding.lineno)
        # keyed by the text too: one `for` statement binds several loop
        # variables (for fp8_type, value in cases), each its own line
        self.defs[(scope.module.relpath, id(binding.node), text)] = ((-key[0], key[1], key[2]), text)

    def _add_assign(self, binding, name, module):
        node = binding.node
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            text = module.segment(node)
        else:
            text = f"{name} = {ast.unparse(binding.value)}"
        self._add_def(binding, text)
        for sub in free_names(binding.value):
            self._need_name(sub, binding.scope, EMPTY_ENV, binding.lineno)

    def _need_import(self, binding, name):
        node, alias = binding.node, binding.value
        module = binding.scope.module
        if isinstance(node, ast.ImportFrom):
            other = self.cache.resolve_import(module, node)
            if other is not None:
                inner = other.scope.lookup_local(alias.name) or self._star_import(other, alias.name)
                if inner is None:
                    self.kernel.unresolved[name] = f"not found in {other.basename}"
                    return
                if alias.asname and alias.asname != alias.name:
                    self.kernel.unresolved[name] = "renamed import from a test module"
                self._need_name(alias.name, other.scope, EMPTY_ENV, None)
                return
            dotted = ("." * node.level) + (node.module or "")
            if node.level or dotted.startswith(MACHINERY_MODULES):
                self.kernel.unresolved[name] = f"imported from {dotted}"
                return
        self.imports.append((node, alias))

    def _need_loop_variable(self, binding, name):
        value = loop_first_value(binding, name)
        if value is None:
            raise HarnessError("closure over a loop variable that is not over a literal")
        self._add_def(binding, f"{name} = {ast.unparse(value)}")
        self.notes.append(f"{name}: first value of its loop")
        for sub in free_names(value):
            self._need_name(sub, binding.scope, EMPTY_ENV, binding.lineno)

    def _need_param(self, binding, name, env):
        if name not in env.values:
            scope = binding.scope
            envs = _instances_of(scope.module, scope, 0)
            if not envs or name not in envs[0][0].values:
                raise HarnessError("closure over a parameter of the enclosing function")
            env = envs[0][0]
            self.notes.append(f"{name}: value of the first call of the helper")
        value, vscope, venv = env.values[name]
        self._add_def(binding, f"{name} = {ast.unparse(value)}")
        for sub in free_names(value):
            self._need_name(sub, vscope, venv, getattr(value, "lineno", None))

    # -- rendering ----------------------------------------------------------

    def _render(self):
        k = self.kernel
        lines = [f"# kjit compatibility harness: {k.id}"]
        seen = set()
        for node, alias in self.imports:
            text = _import_text(node, alias)
            if text not in seen:
                seen.add(text)
                lines.append(text)
        lines.append("")
        for _, text in sorted(self.defs.values(), key=lambda kv: kv[0]):
            lines.append(text)
            lines.append("")
        lines.append(self._kernel_text())
        return "\n".join(lines) + "\n"

    def _kernel_text(self):
        k = self.kernel
        text = k.func_module.segment(k.func)
        if k.form == "decorator":
            return text
        body = k.func_module.segment(ast.FunctionDef(
            name=k.func.name, args=k.func.args, body=k.func.body, decorator_list=[],
            lineno=k.func.lineno, col_offset=k.func.col_offset, end_lineno=k.func.end_lineno))
        return f"@{call_decorator(k)}\n{body}"


def _import_text(node, alias):
    name = alias.name + (f" as {alias.asname}" if alias.asname else "")
    if isinstance(node, ast.Import):
        return f"import {name}"
    return f"from {'.' * node.level}{node.module or ''} import {name}"


def _literal_elements(expr, scope=None, depth=0):
    """The elements of a literal iterable (a tuple, list or set display,
    `range(...)`, `zip`/`itertools.product`/`enumerate` of such), following
    names bound to one; only the first element is reliable for ranges and
    products."""
    if depth > 5:
        return []
    if isinstance(expr, (ast.Tuple, ast.List, ast.Set)):
        return list(expr.elts)
    if isinstance(expr, ast.Name) and scope is not None:
        binding = scope.resolve(expr.id, getattr(expr, "lineno", None))
        if binding is not None and binding.kind == "assign":
            return _literal_elements(binding.value, binding.scope, depth + 1)
        return []
    if not isinstance(expr, ast.Call) or not expr.args:
        return []
    name = _dotted(expr.func).split(".")[-1]
    if name == "range":
        return [expr.args[0] if len(expr.args) > 1 else ast.Constant(0)]
    if name in ("zip", "product"):
        firsts = [_literal_elements(a, scope, depth + 1) for a in expr.args]
        if all(firsts):
            return [ast.Tuple(elts=[f[0] for f in firsts], ctx=ast.Load())]
    if name == "enumerate":
        first = _literal_elements(expr.args[0], scope, depth + 1)
        if first:
            return [ast.Tuple(elts=[ast.Constant(0), first[0]], ctx=ast.Load())]
    if name in ("list", "tuple", "sorted", "reversed"):
        return _literal_elements(expr.args[0], scope, depth + 1)
    return []


def loop_first_value(binding, name):
    """The value `name` takes in the first iteration of the `for` loop that
    binds it, as an expression, or None."""
    elts = _literal_elements(binding.value, binding.scope)
    if not elts:
        return None
    return _match_target(binding.node.target, elts[0], name)


def _match_target(target, value, name):
    if isinstance(target, ast.Name):
        return value if target.id == name else None
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
            and len(target.elts) == len(value.elts):
        for t, v in zip(target.elts, value.elts):
            found = _match_target(t, v, name)
            if found is not None:
                return found
    return None


def call_decorator(kernel):
    """The decorator written for a call-form kernel: the jit call as the
    test made it, with the signature replaced by a literal string when the
    harness can evaluate it."""
    call = kernel.jit_call
    func_src = ast.unparse(call.func)
    args = [ast.unparse(a) for a in call.args]
    if call.args:
        sig = evaluate_signature(kernel, call.args[0])
        if sig is not None:
            args[0] = repr(sig)
    args += [f"{kw.arg}={ast.unparse(kw.value)}" if kw.arg else f"**{ast.unparse(kw.value)}"
             for kw in call.keywords]
    return f"{func_src}({', '.join(args)})" if args else func_src


# ---------------------------------------------------------------------------
# Argument types: a small abstract evaluator
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class Arr:
    dtype: str
    ndim: int
    layout: str = "C"            # C, F or A


@dataclasses.dataclass
class Num:
    dtype: str                   # numba scalar type
    python: bool = False         # a Python number (weak), not a NumPy scalar
    value: object = None


@dataclasses.dataclass
class Tup:
    items: list


@dataclasses.dataclass
class DType:
    name: str


@dataclasses.dataclass
class ArrType:                   # a numba array type object, e.g. float32[::1]
    dtype: str
    ndim: int
    layout: str


@dataclasses.dataclass
class Str:
    value: str


BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
          ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow,
          ast.Div: operator.truediv, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
          ast.BitOr: operator.or_, ast.BitAnd: operator.and_, ast.BitXor: operator.xor}
COMPARES = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
            ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.eq, ast.IsNot: operator.ne}


class Unknown(Exception):
    """Raised by the evaluator; the message says what it could not type."""


NUMPY_DTYPES = {
    "bool_": "bool", "bool": "bool", "bool8": "bool", "boolean": "bool", "b1": "bool", "?": "bool",
    "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64",
    "uint8": "uint8", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
    "float16": "float16", "float32": "float32", "float64": "float64",
    "complex64": "complex64", "complex128": "complex128",
    "i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64",
    "u1": "uint8", "u2": "uint16", "u4": "uint32", "u8": "uint64",
    "f2": "float16", "f4": "float32", "f8": "float64", "c8": "complex64", "c16": "complex128",
    "int_": "int64", "intp": "int64", "uintp": "uint64", "intc": "int32", "uintc": "uint32",
    "byte": "int8", "ubyte": "uint8", "short": "int16", "ushort": "uint16",
    "longlong": "int64", "ulonglong": "uint64", "uint": "uint64", "long": "int64",
    "half": "float16", "single": "float32", "double": "float64", "float_": "float64",
    "csingle": "complex64", "cdouble": "complex128", "complex_": "complex128",
    "float": "float64", "int": "int64", "complex": "complex128",
    "void": "void", "none": "none",
}
PYTHON_TYPES = {"float": "float64", "int": "int64", "bool": "bool", "complex": "complex128"}
NUMPY_ALIASES = {"np", "numpy"}
XOROSHIRO = "xoroshiro128p"      # dtype of create_xoroshiro128p_states' arrays
NUMBA_TYPE_MODULES = {"numba", "types", "nb", "numba_types"}


def numba_type_name(dtype):
    return "boolean" if dtype == "bool" else dtype


def render_type(value, for_numba=False):
    """The type in signature notation; `for_numba` spells the few types
    kjit writes differently (xoroshiro128p state arrays)."""
    if isinstance(value, Arr) and value.dtype == XOROSHIRO:
        return "xoroshiro128p_state[::1]" if for_numba else "uint64[:, ::1]"
    if isinstance(value, (Arr, ArrType)):
        if value.ndim == 0:
            raise Unknown("0-d array argument")
        dims = [":"] * value.ndim
        if value.layout == "C":
            dims[-1] = "::1"
        return f"{numba_type_name(value.dtype)}[{', '.join(dims)}]"
    if isinstance(value, Num):
        return numba_type_name(value.dtype)
    if isinstance(value, Tup):
        items = [render_type(v, for_numba) for v in value.items]
        if items and all(i == items[0] for i in items):
            return f"UniTuple({items[0]}, {len(items)})"
        return f"Tuple(({', '.join(items)}{',' if len(items) == 1 else ''}))"
    if isinstance(value, DType):
        return numba_type_name(value.name)
    raise Unknown(f"argument of kind {type(value).__name__}")


def result_dtype(a, b):
    """NumPy-ish promotion, enough for launch arguments."""
    order = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
             "float16", "float32", "float64", "complex64", "complex128"]
    ia = order.index(a) if a in order else len(order) - 3
    ib = order.index(b) if b in order else len(order) - 3
    return order[max(ia, ib)]


class Evaluator:
    """Evaluates host expressions of a test to types, following local
    assignments (the last one before the use), helper parameters and
    module constants."""

    def __init__(self, cache, module):
        self.cache = cache
        self.module = module
        self.depth = 0

    def eval(self, expr, scope, env, line):
        self.depth += 1
        try:
            if self.depth > 60:
                raise Unknown("expression too deep")
            method = getattr(self, "ev_" + type(expr).__name__, None)
            if method is None:
                raise Unknown(f"expression {type(expr).__name__}")
            return method(expr, scope, env, line)
        finally:
            self.depth -= 1

    # -- leaves --------------------------------------------------------------

    def ev_Constant(self, e, scope, env, line):
        v = e.value
        if isinstance(v, bool):
            return Num("bool", True, v)
        if isinstance(v, int):
            return Num("int64", True, v)
        if isinstance(v, float):
            return Num("float64", True, v)
        if isinstance(v, complex):
            return Num("complex128", True, v)
        if isinstance(v, str):
            return Str(v)
        if v is None:
            return Num("none", True)
        raise Unknown(f"constant {type(v).__name__}")

    def ev_Name(self, e, scope, env, line):
        if e.id in PYTHON_TYPES and scope.resolve(e.id) is None:
            return DType(PYTHON_TYPES[e.id])
        binding = self.lookup(scope, e.id, line, env)
        if binding is None:
            raise Unknown(f"name '{e.id}'")
        return self.eval_binding(binding, e.id, env)

    def lookup(self, scope, name, line, env):
        """The binding of `name` seen at `line`: in the innermost scope that
        binds it, the last reachable one before the line (else the first)."""
        for s in scope.chain():
            found = s.bindings.get(name)
            if not found:
                continue
            if s is scope and line is not None:
                earlier = [b for b in found if b.lineno < line]
                found = earlier or [b for b in found if b.kind not in ("setshape", "augassign")][:1]
            for b in reversed(found):
                if self.reachable(b.node, s, env if s is scope else EMPTY_ENV):
                    return b
            return found[-1] if found else None
        return None

    def reachable(self, node, scope, env):
        """False when `node` sits in a branch of an `if` whose test the
        evaluator finds false (or in the else of one it finds true)."""
        module = scope.module
        child = node
        for anc in module.ancestors(node):
            if anc is scope.node:
                break
            if isinstance(anc, ast.If):
                try:
                    test = self.eval(anc.test, scope, env, anc.lineno)
                except (Unknown, RecursionError, TypeError, ValueError, KeyError, AttributeError, IndexError):
                    test = None
                if isinstance(test, Num) and test.value is not None:
                    if (child in anc.body) != bool(test.value):
                        return False
            child = anc
        return True

    def eval_binding(self, b, name, env):
        kind = b.kind
        if kind == "assign":
            return self.eval(b.value, b.scope, env if b.scope.is_function else EMPTY_ENV, b.lineno)
        if kind == "param":
            return self.eval_param(b, name, env)
        if kind == "for":
            value = loop_first_value(b, name)
            if value is None:
                raise Unknown(f"loop variable '{name}'")
            return self.eval(value, b.scope, env, b.lineno)
        if kind == "import":
            alias = b.value
            full = alias.name if isinstance(b.node, ast.Import) else f"{b.node.module}.{alias.name}"
            return self.named_dtype(full.split(".")[-1], f"imported name '{name}'")
        if kind == "unpack":
            return self.eval_unpack(b, name, env)
        if kind == "augassign":
            before = self.lookup(b.scope, name, b.lineno, env)
            if before is None or before is b:
                raise Unknown(f"'{name}' augmented before assignment")
            left = self.eval_binding(before, name, env)
            right = self.eval(b.value, b.scope, env, b.lineno)
            return self.combine(b.node.op, left, right)
        if kind == "setshape":
            before = self.lookup(b.scope, name, b.lineno, env)
            value = self.eval_binding(before, name, env) if before is not None and before is not b else None
            if isinstance(value, Arr):
                return Arr(value.dtype, self.shape_ndim(b.value, b.scope, env, b.lineno), value.layout)
            raise Unknown(f"'{name}.shape' assignment")
        raise Unknown(f"'{name}' bound by {kind}")

    def eval_param(self, b, name, env):
        if name in env.values:
            value, vscope, venv = env.values[name]
            return self.eval(value, vscope, venv, getattr(value, "lineno", None))
        envs = _instances_of(b.scope.module, b.scope, 0)
        for inst, _ in envs:
            if name in inst.values:
                value, vscope, venv = inst.values[name]
                return self.eval(value, vscope, venv, getattr(value, "lineno", None))
        raise Unknown(f"parameter '{name}' of a helper")

    def eval_unpack(self, b, name, env):
        node = b.node
        for target in node.targets:
            if isinstance(target, (ast.Tuple, ast.List)):
                names = [t.id if isinstance(t, ast.Name) else None for t in target.elts]
                if name in names:
                    value = self.eval(b.value, b.scope, env, b.lineno)
                    if isinstance(value, Tup) and len(value.items) == len(names):
                        return value.items[names.index(name)]
                    if isinstance(b.value, (ast.Tuple, ast.List)) and len(b.value.elts) == len(names):
                        return self.eval(b.value.elts[names.index(name)], b.scope, env, b.lineno)
        raise Unknown(f"unpacked name '{name}'")

    def named_dtype(self, attr, what):
        if attr in NUMPY_DTYPES:
            return DType(NUMPY_DTYPES[attr])
        raise Unknown(what)

    def ev_Attribute(self, e, scope, env, line):
        base = _dotted(e.value)
        if base in NUMPY_ALIASES or base.split(".")[0] in NUMBA_TYPE_MODULES or base in ("cuda.types",):
            if e.attr in NUMPY_DTYPES:
                return DType(NUMPY_DTYPES[e.attr])
            if e.attr in ("pi", "e", "inf", "nan"):
                return Num("float64", True)
            raise Unknown(f"{base}.{e.attr}")
        if base == "math" and e.attr in ("pi", "e", "inf", "nan", "tau"):
            return Num("float64", True)
        if base == "self":
            return self.self_attribute(e.attr, scope)
        value = self.eval(e.value, scope, env, line)
        if isinstance(value, Arr):
            if e.attr in ("T",):
                return Arr(value.dtype, value.ndim, "F" if value.ndim > 1 and value.layout == "C"
                           else ("C" if value.layout == "F" else value.layout))
            if e.attr in ("size", "ndim", "nbytes", "itemsize"):
                return Num("int64", True)
            if e.attr == "shape":
                return Tup([Num("int64", True)] * value.ndim)
            if e.attr == "dtype":
                return DType(value.dtype)
            if e.attr in ("real", "imag") and value.dtype.startswith("complex"):
                return Arr("float32" if value.dtype == "complex64" else "float64", value.ndim, "A")
        if isinstance(value, Num) and e.attr == "dtype" and not value.python:
            return DType(value.dtype)
        if isinstance(value, Num) and e.attr in ("real", "imag"):
            return Num({"complex64": "float32", "complex128": "float64"}.get(value.dtype, value.dtype),
                       value.python)
        if isinstance(value, DType) and e.attr == "type":
            return value
        raise Unknown(f"attribute .{e.attr}")

    def self_attribute(self, attr, scope):
        """`self.X` in a test method: the value a method of the same class
        (setUp first) assigns to it with `self.X = expr`, evaluated there."""
        module = scope.module
        cls = next((a for a in module.ancestors(scope.node) if isinstance(a, ast.ClassDef)), None)
        if cls is None:
            raise Unknown(f"self.{attr}")
        methods = [m for m in cls.body if isinstance(m, ast.FunctionDef)]
        methods.sort(key=lambda m: m.name != "setUp")
        for m in methods:
            for node in ast.walk(m):
                if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                    continue
                t = node.targets[0]
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and \
                        t.value.id == "self" and t.attr == attr and m in module.scopes:
                    return self.eval(node.value, module.scopes[m], EMPTY_ENV, node.lineno)
        raise Unknown(f"self.{attr}")

    # -- compound ------------------------------------------------------------

    def ev_Tuple(self, e, scope, env, line):
        return Tup([self.eval(x, scope, env, line) for x in e.elts])

    ev_List = ev_Tuple

    def ev_UnaryOp(self, e, scope, env, line):
        value = self.eval(e.operand, scope, env, line)
        if isinstance(e.op, ast.Not):
            return Num("bool", True)
        if isinstance(value, Num) and isinstance(e.op, ast.USub) and value.value is not None:
            return Num(value.dtype, value.python, -value.value)
        return value

    def ev_BinOp(self, e, scope, env, line):
        left = self.eval(e.left, scope, env, line)
        right = self.eval(e.right, scope, env, line)
        return self.combine(e.op, left, right)

    def combine(self, op, left, right):
        e = ast.BinOp(left=None, op=op, right=None)
        if isinstance(left, Tup) and isinstance(right, Tup) and isinstance(e.op, ast.Add):
            return Tup(left.items + right.items)
        if isinstance(left, Tup) and isinstance(right, Num) and isinstance(e.op, ast.Mult):
            if isinstance(right.value, int):
                return Tup(left.items * right.value)
        if isinstance(left, Arr) or isinstance(right, Arr):
            arr = left if isinstance(left, Arr) else right
            other = right if arr is left else left
            dtype = arr.dtype
            if isinstance(other, Arr):
                dtype = result_dtype(left.dtype, right.dtype)
            elif isinstance(other, Num) and not other.python:
                dtype = result_dtype(arr.dtype, other.dtype)
            elif isinstance(other, Num) and other.dtype.startswith(("float", "complex")) \
                    and not arr.dtype.startswith(("float", "complex")):
                dtype = other.dtype
            if isinstance(e.op, ast.Div) and not dtype.startswith(("float", "complex")):
                dtype = "float64"
            return Arr(dtype, max(left.ndim if isinstance(left, Arr) else 0,
                                  right.ndim if isinstance(right, Arr) else 0), "C")
        if isinstance(left, Num) and isinstance(right, Num):
            return self.num_binop(e.op, left, right)
        raise Unknown("binary operation")

    @staticmethod
    def num_binop(op, left, right):
        value = None
        fn = BINOPS.get(type(op))
        if fn is not None and isinstance(left.value, (int, float)) and isinstance(right.value, (int, float)):
            try:
                value = fn(left.value, right.value)
            except (ArithmeticError, ValueError, TypeError):
                value = None
        if left.python and right.python:
            dtype = result_dtype(left.dtype, right.dtype)
            if isinstance(op, ast.Div) and not dtype.startswith(("float", "complex")):
                dtype = "float64"
            if dtype == "bool":
                dtype = "int64"
            return Num(dtype, True, value)
        if left.python or right.python:
            typed = right if left.python else left
            return Num(typed.dtype, False, value)
        return Num(result_dtype(left.dtype, right.dtype), False, value)

    def ev_Compare(self, e, scope, env, line):
        if len(e.ops) != 1:
            raise Unknown("chained comparison")
        left = self.eval(e.left, scope, env, line)
        right = self.eval(e.comparators[0], scope, env, line)
        fn = COMPARES.get(type(e.ops[0]))
        lv = left.value if isinstance(left, (Num, Str)) else (left.name if isinstance(left, DType) else None)
        rv = right.value if isinstance(right, (Num, Str)) else (right.name if isinstance(right, DType) else None)
        if fn is None or lv is None or rv is None:
            raise Unknown("comparison")
        return Num("bool", True, bool(fn(lv, rv)))

    def ev_BoolOp(self, e, scope, env, line):
        values = [self.eval(v, scope, env, line) for v in e.values]
        if not all(isinstance(v, Num) and v.value is not None for v in values):
            raise Unknown("boolean operation")
        pick = all if isinstance(e.op, ast.And) else any
        return Num("bool", True, pick(bool(v.value) for v in values))

    def ev_Subscript(self, e, scope, env, line):
        value = self.eval(e.value, scope, env, line)
        index = e.slice
        if isinstance(value, DType):
            return self.array_type(value, index)
        if isinstance(value, Tup):
            if isinstance(index, ast.Constant) and isinstance(index.value, int):
                return value.items[index.value]
            if isinstance(index, ast.Slice):
                return Tup(value.items)
            raise Unknown("tuple index")
        if isinstance(value, Arr):
            return self.array_subscript(value, index)
        raise Unknown("subscript")

    @staticmethod
    def array_type(dtype, index):
        """numba's `float32[::1]` / `float32[:, :]` type objects."""
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        if not all(isinstance(p, ast.Slice) for p in parts):
            raise Unknown("array type expression")
        layout = "A"
        last = parts[-1]
        first = parts[0]
        if isinstance(last.step, ast.Constant) and last.step.value == 1:
            layout = "C"
        elif len(parts) > 1 and isinstance(first.step, ast.Constant) and first.step.value == 1:
            layout = "F"
        return ArrType(dtype.name, len(parts), layout)

    @staticmethod
    def array_subscript(arr, index):
        parts = index.elts if isinstance(index, ast.Tuple) else [index]
        if any(isinstance(p, ast.Constant) and p.value is Ellipsis for p in parts):
            raise Unknown("ellipsis index")
        if any(isinstance(p, (ast.List, ast.Compare)) for p in parts):
            raise Unknown("fancy index")
        ndim, contiguous, partial_seen = 0, arr.layout == "C", False
        for i, p in enumerate(parts):
            if isinstance(p, ast.Slice):
                ndim += 1
                full = p.lower is None and p.upper is None
                unit = p.step is None or (isinstance(p.step, ast.Constant) and p.step.value == 1)
                if not unit or (partial_seen and not full):
                    contiguous = False
                if not full or ndim > 1:
                    partial_seen = True
            elif partial_seen:
                contiguous = False
        ndim += arr.ndim - len(parts)
        if ndim == 0:
            return Num(arr.dtype, False)
        return Arr(arr.dtype, ndim, "C" if contiguous else "A")

    # -- calls ---------------------------------------------------------------

    def ev_Call(self, e, scope, env, line):
        if isinstance(e.func, ast.Attribute) and (not _is_dotted_name(e.func.value) or
                                                  _dotted(e.func.value).startswith("self.")):
            obj = self.eval(e.func.value, scope, env, line)
            kw = {k.arg: k.value for k in e.keywords if k.arg}
            return self.method_call(obj, e.func.attr, e, kw, scope, env, line)
        name = _dotted(e.func)
        parts = name.split(".")
        head, attr = parts[0], parts[-1]
        kw = {k.arg: k.value for k in e.keywords if k.arg}
        if head in NUMPY_ALIASES and len(parts) >= 2:
            return self.numpy_call(".".join(parts[1:]), e, kw, scope, env, line)
        if head == "cuda" or (len(parts) > 2 and parts[-2] == "cuda"):
            return self.cuda_call(attr, e, kw, scope, env, line)
        if isinstance(e.func, ast.Attribute) and not (head in NUMPY_ALIASES):
            if attr in ("from_dtype",) and e.args:
                return self.dtype_of(e.args[0], scope, env, line)
            try:
                obj = self.eval(e.func.value, scope, env, line)
            except Unknown:
                obj = None
            if isinstance(obj, (Arr, DType, Num)):
                return self.method_call(obj, attr, e, kw, scope, env, line)
        if name in ("len", "int", "round", "sum") and e.args:
            return Num("int64", True)
        if name == "float":
            return Num("float64", True)
        if name == "bool":
            return Num("bool", True)
        if name == "complex":
            return Num("complex128", True)
        if name == "tuple" and not e.args:
            return Tup([])
        if name in ("tuple", "list") and e.args:
            value = self.eval(e.args[0], scope, env, line)
            if isinstance(value, Tup):
                return value
        if name in ("min", "max", "abs") and e.args:
            return self.eval(e.args[0], scope, env, line)
        dtype = self.callee_dtype(e.func, scope, env, line)
        if dtype is not None:
            if dtype.name == "void":
                return ArrType("void", 0, "sig")
            return Num(dtype.name, False)
        if name in ("copy.deepcopy", "copy.copy", "deepcopy") and e.args:
            return self.eval(e.args[0], scope, env, line)
        if attr == "create_xoroshiro128p_states":
            return Arr(XOROSHIRO, 1)
        return self.python_call(e, scope, env, line, name)

    def python_call(self, e, scope, env, line, name):
        """A call of a test's own function whose body is one `return expr`:
        the type of expr with the parameters bound to the arguments."""
        target = resolve_function(self.cache, scope.module, scope, e.func, env)
        if target is None:
            raise Unknown(f"call of {name}()")
        module, func = target
        body = [st for st in func.body if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
        if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
            raise Unknown(f"call of {name}()")
        fscope = module.scopes[func]
        values = _bind_call(e, func.args, False)
        fenv = Env({p: (v, scope, env) for p, v in values.items()}, e, env)
        return self.eval(body[0].value, fscope, fenv, None)

    def callee_dtype(self, func, scope, env, line):
        """`np.float32(...)`, `float32(...)`, `numba.int32(...)`: a dtype called."""
        try:
            value = self.eval(func, scope, env, line)
        except Unknown:
            return None
        return value if isinstance(value, DType) else None

    def dtype_of(self, expr, scope, env, line):
        value = self.eval(expr, scope, env, line)
        if isinstance(value, DType):
            return value
        if isinstance(value, Str):
            if value.value.lstrip("<>=|") in NUMPY_DTYPES:
                return DType(NUMPY_DTYPES[value.value.lstrip("<>=|")])
            raise Unknown(f"dtype string '{value.value}'")
        if isinstance(value, (Arr, Num)):
            return DType(value.dtype)
        raise Unknown("dtype")

    def arg(self, e, kw, index, name):
        if name in kw:
            return kw[name]
        if len(e.args) > index and not isinstance(e.args[index], ast.Starred):
            return e.args[index]
        return None

    def shape_ndim(self, expr, scope, env, line):
        value = self.eval(expr, scope, env, line)
        if isinstance(value, Num):
            return 1
        if isinstance(value, Tup):
            return len(value.items)
        raise Unknown("shape")

    def order_layout(self, e, kw, index, scope, env, line):
        order = self.arg(e, kw, index, "order")
        if order is None:
            return "C"
        value = self.eval(order, scope, env, line)
        return "F" if isinstance(value, Str) and value.value == "F" else "C"

    def numpy_call(self, name, e, kw, scope, env, line):
        ev = lambda x: self.eval(x, scope, env, line)
        dt = lambda x, default: self.dtype_of(x, scope, env, line).name if x is not None else default
        if name in ("zeros", "ones", "empty"):
            shape = self.arg(e, kw, 0, "shape")
            return Arr(dt(self.arg(e, kw, 1, "dtype"), "float64"), self.shape_ndim(shape, scope, env, line),
                       self.order_layout(e, kw, 2, scope, env, line))
        if name == "full":
            shape = self.arg(e, kw, 0, "shape")
            fill = ev(self.arg(e, kw, 1, "fill_value"))
            default = fill.dtype if isinstance(fill, Num) else "float64"
            return Arr(dt(self.arg(e, kw, 2, "dtype"), default), self.shape_ndim(shape, scope, env, line))
        if name in ("zeros_like", "ones_like", "empty_like", "full_like"):
            base = ev(self.arg(e, kw, 0, "a"))
            if not isinstance(base, Arr):
                raise Unknown(f"np.{name} of a non-array")
            dtype_expr = kw.get("dtype") or (e.args[2] if name == "full_like" and len(e.args) > 2
                                             else (e.args[1] if name != "full_like" and len(e.args) > 1 else None))
            return Arr(dt(dtype_expr, base.dtype), base.ndim, "F" if base.layout == "F" else "C")
        if name == "arange":
            values = [ev(a) for a in e.args]
            floats = any(isinstance(v, Num) and v.dtype.startswith("float") for v in values)
            default = "float64" if floats else "int64"
            typed = [v.dtype for v in values if isinstance(v, Num) and not v.python]
            if typed:
                default = typed[0]
            return Arr(dt(kw.get("dtype"), default), 1)
        if name in ("linspace", "logspace"):
            return Arr(dt(kw.get("dtype"), "float64"), 1)
        if name in ("array", "asarray", "ascontiguousarray", "asfortranarray", "copy", "require"):
            return self.numpy_array(name, e, kw, scope, env, line)
        if name.startswith("random."):
            return self.numpy_random(name[7:], e, kw, scope, env, line)
        if name in ("transpose",):
            base = ev(e.args[0])
            if isinstance(base, Arr):
                return Arr(base.dtype, base.ndim, "F" if base.ndim > 1 else base.layout)
        if name == "dtype" and e.args and isinstance(e.args[0], (ast.List, ast.Dict)):
            return self.record_dtype(e, kw, scope, env, line)
        if name == "dtype":
            return self.dtype_of(e.args[0], scope, env, line)
        if name == "recarray":
            shape = self.arg(e, kw, 0, "shape")
            return Arr(dt(self.arg(e, kw, 1, "dtype"), "float64"), self.shape_ndim(shape, scope, env, line))
        if name in ("sqrt", "exp", "sin", "cos", "abs", "log") and e.args:
            base = ev(e.args[0])
            if isinstance(base, Arr):
                return Arr(base.dtype if base.dtype.startswith(("float", "complex")) else "float64",
                           base.ndim)
        if name in ("eye", "identity"):
            return Arr(dt(kw.get("dtype"), "float64"), 2)
        if name in ("empty", "zeros"):
            pass
        attr = name.split(".")[-1]
        if attr in NUMPY_DTYPES and "." not in name:
            if attr in ("void",):
                raise Unknown("np.void")
            return Num(NUMPY_DTYPES[attr], False)
        if name.startswith("testing.") or name.startswith("iinfo") or name.startswith("finfo"):
            raise Unknown(f"np.{name}")
        raise Unknown(f"np.{name}()")

    def record_dtype(self, e, kw, scope, env, line):
        """np.dtype([fields...], align=...): a record type, spelled as kjit
        reads it in a signature (the field list as written, field dtypes
        named by their last component)."""
        src = ast.get_source_segment(scope.module.text, e.args[0])
        align = kw.get("align") or (e.args[1] if len(e.args) > 1 else None)
        aligned = False
        if align is not None:
            value = self.eval(align, scope, env, line)
            aligned = isinstance(value, Num) and bool(value.value)
        if src is None:
            raise Unknown("structured dtype")
        return DType(f"np.dtype({' '.join(src.split())}, align={aligned})")

    def numpy_array(self, name, e, kw, scope, env, line):
        src = self.arg(e, kw, 0, "object") or self.arg(e, kw, 0, "a")
        dtype_expr = kw.get("dtype") or (e.args[1] if len(e.args) > 1 else None)
        layout = "F" if name == "asfortranarray" else "C"
        if isinstance(src, (ast.List, ast.Tuple)):
            ndim, dtype = self.literal_shape(src, scope, env, line)
        else:
            base = self.eval(src, scope, env, line)
            if isinstance(base, Arr):
                ndim, dtype = base.ndim, base.dtype
                if name in ("asarray",) and dtype_expr is None:
                    return base
                if base.layout == "F" and name != "ascontiguousarray":
                    layout = "F"
            elif isinstance(base, Tup):
                ndim, dtype = 1, (base.items[0].dtype if base.items and isinstance(base.items[0], Num)
                                  else "float64")
            elif isinstance(base, Num):
                ndim, dtype = 0, base.dtype
            else:
                raise Unknown("np.array of an unknown object")
        if dtype_expr is not None:
            dtype = self.dtype_of(dtype_expr, scope, env, line).name
        return Arr(dtype, ndim, layout)

    def literal_shape(self, node, scope, env, line):
        ndim, items = 0, [node]
        while items and all(isinstance(x, (ast.List, ast.Tuple)) for x in items):
            ndim += 1
            items = [y for x in items for y in x.elts]
        dtypes = []
        for item in items:
            value = self.eval(item, scope, env, line)
            if isinstance(value, Num):
                dtypes.append(value.dtype if not value.python or value.dtype != "bool" else "bool")
            else:
                raise Unknown("np.array literal with non-number elements")
        dtype = "float64"
        if dtypes:
            dtype = dtypes[0]
            for d in dtypes[1:]:
                dtype = result_dtype(dtype, d)
        return ndim, dtype

    def numpy_random(self, name, e, kw, scope, env, line):
        if name in ("random", "random_sample", "sample", "ranf", "uniform", "normal", "standard_normal"):
            size = self.arg(e, kw, 0 if name in ("random", "random_sample", "sample", "ranf",
                                                   "standard_normal") else 2, "size")
            if size is None:
                return Num("float64", True)
            return Arr("float64", self.shape_ndim(size, scope, env, line))
        if name in ("rand", "randn"):
            if not e.args:
                return Num("float64", True)
            return Arr("float64", len(e.args))
        if name in ("randint", "random_integers"):
            size = self.arg(e, kw, 2, "size")
            dtype = self.dtype_of(kw["dtype"], scope, env, line).name if "dtype" in kw else "int64"
            if size is None:
                return Num(dtype, True)
            return Arr(dtype, self.shape_ndim(size, scope, env, line))
        raise Unknown(f"np.random.{name}()")

    def cuda_call(self, attr, e, kw, scope, env, line):
        if attr in ("to_device", "as_cuda_array"):
            return self.eval(e.args[0], scope, env, line)
        if attr in ("device_array", "pinned_array", "mapped_array", "managed_array"):
            shape = self.arg(e, kw, 0, "shape")
            dtype_expr = self.arg(e, kw, 1, "dtype")
            dtype = self.dtype_of(dtype_expr, scope, env, line).name if dtype_expr is not None else "float64"
            return Arr(dtype, self.shape_ndim(shape, scope, env, line),
                       self.order_layout(e, kw, 3 if attr != "device_array" else 3, scope, env, line))
        if attr in ("device_array_like", "pinned_array_like", "mapped_array_like", "managed_array_like"):
            base = self.eval(e.args[0], scope, env, line)
            if isinstance(base, Arr):
                return Arr(base.dtype, base.ndim, "F" if base.layout == "F" else "C")
        if attr == "from_dtype" and e.args:
            return self.dtype_of(e.args[0], scope, env, line)
        raise Unknown(f"cuda.{attr}()")

    def method_call(self, obj, attr, e, kw, scope, env, line):
        if isinstance(obj, Arr):
            if attr == "astype":
                return Arr(self.dtype_of(e.args[0], scope, env, line).name, obj.ndim,
                           "F" if obj.layout == "F" else "C")
            if attr == "reshape":
                if len(e.args) == 1:
                    ndim = self.shape_ndim(e.args[0], scope, env, line)
                else:
                    ndim = len(e.args)
                order = kw.get("order")
                layout = "F" if isinstance(order, ast.Constant) and order.value == "F" else "C"
                return Arr(obj.dtype, ndim, layout if obj.layout != "A" else "A")
            if attr in ("copy", "copy_to_host", "copy_to_device", "ravel", "flatten"):
                ndim = 1 if attr in ("ravel", "flatten") else obj.ndim
                return Arr(obj.dtype, ndim, "C" if attr != "copy_to_device" else obj.layout)
            if attr == "transpose":
                return Arr(obj.dtype, obj.ndim, "F" if obj.ndim > 1 else obj.layout)
            if attr in ("view",) and e.args and _dotted(e.args[0]).endswith("recarray"):
                return obj  # a record array seen as np.recarray: the same type
            if attr in ("view",) and e.args:
                return Arr(self.dtype_of(e.args[0], scope, env, line).name, obj.ndim, obj.layout)
            if attr in ("sum", "max", "min", "item"):
                return Num(obj.dtype, False)
        if isinstance(obj, DType) and attr == "type":
            return Num(obj.name, False)
        if isinstance(obj, Num) and attr in ("item", "copy"):
            return obj
        raise Unknown(f".{attr}()")


def evaluate_signature(kernel, expr):
    """A literal signature string for a call-form jit's first argument
    (a string, `void(...)`, or a tuple of numba types), or None."""
    return _signature_of(None, kernel.module, expr, kernel.site_scope, kernel.env, kernel.site.lineno)


def _signature_of(cache, module, expr, scope, env, line):
    try:
        value = Evaluator(cache, module).eval(expr, scope, env, line)
        if isinstance(value, Str):
            return value.value
        if isinstance(value, Tup):
            return "void(" + ", ".join(render_type(v) for v in value.items) + ")"
    except (Unknown, RecursionError, IndexError, TypeError, ValueError, KeyError, AttributeError):
        return None
    return None


# Dispatcher methods that compile for an explicit signature (first argument).
SIG_METHODS = {"compile", "compile_device", "inspect_llvm", "inspect_asm", "inspect_sass",
               "inspect_sass_cfg", "inspect_lto_ptx", "inspect_types", "get_regs_per_thread",
               "get_shared_mem_per_block", "get_local_mem_per_thread", "get_const_mem_size",
               "get_max_threads_per_block", "_getasm"}


@dataclasses.dataclass
class Launch:
    call: ast.Call               # the launch call; its args are the kernel's
    scope: Scope                 # where it is
    env: Env                     # helper parameter values there
    via_helper: bool = False
    sig_expr: ast.AST = None     # k.compile(sig) and the like: the signature


def find_launches(kernel):
    """Launches `k[grid, block](args)` / `k.forall(n)(args)` of the kernel
    in the scope that defines it (the whole module for a module-level
    kernel), then in helpers the kernel is passed to (`self.check(k, ...)`
    launching its parameter)."""
    module = kernel.module
    scope = kernel.site_scope
    root = scope.node if scope.is_function else module.tree
    out = []
    parent_site = module.parents.get(kernel.site)
    if kernel.form == "call" and isinstance(parent_site, ast.Subscript):
        outer = module.parents.get(parent_site)
        if isinstance(outer, ast.Call) and outer.func is parent_site:
            out.append(Launch(outer, scope, kernel.env))
    names = set(kernel.launch_names) | ({kernel.func.name} if kernel.form == "decorator" else set())
    for call in _launch_calls(root, names):
        out.append(_make_launch(module, call, names, kernel.env if module.scope_of(call) is scope
                                else EMPTY_ENV))
    out += _helper_launches(module, names, root, kernel.env, 0)
    out += _returned_launches(kernel)
    return out


def _returned_launches(kernel):
    """Launches of a kernel that a helper (or kernel factory) returns, in
    the caller that binds the result: `k = self.get_kernel(fn); k[1, 1](...)`."""
    env, module = kernel.env, kernel.module
    if env.parent_call is None:
        return []
    site_parent = module.parents.get(kernel.site)
    names = set(kernel.launch_names)
    if not (isinstance(site_parent, ast.Return) or _returns_name(kernel.site_scope.node, names)):
        return []
    call = env.parent_call
    caller = module.scope_of(call)
    bound = set(_bound_names(module, call))
    root = caller.node if caller.is_function else module.tree
    out = [_make_launch(module, c, bound, env.caller) for c in _launch_calls(root, bound)]
    outer = module.parents.get(call)
    if isinstance(outer, ast.Subscript):
        launch = module.parents.get(outer)
        if isinstance(launch, ast.Call) and launch.func is outer:
            out.append(Launch(launch, caller, env.caller))
    return out + _helper_launches(module, bound, root, env.caller, 0)


def _launch_calls(root, names):
    out = []
    for node in ast.walk(root):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if _sig_site(node, names) is not None:
            out.append(node)
        elif isinstance(f, ast.Subscript) and _launch_target(f.value) in names:
            out.append(node)
        elif isinstance(f, ast.Call) and isinstance(f.func, ast.Attribute) \
                and f.func.attr == "forall" and _launch_target(f.func.value) in names:
            out.append(node)
    return sorted(out, key=lambda c: (c.lineno, c.col_offset))


def _sig_site(call, names):
    """The signature expression of `k.compile(sig)` / `k.inspect_llvm(sig)`
    / `cuda.compile_ptx(k, sig)` / `self._getasm(k, sig=...)` naming a
    kernel in `names`, else None."""
    f = call.func
    if isinstance(f, ast.Attribute) and f.attr in SIG_METHODS \
            and isinstance(f.value, ast.Name) and f.value.id in names:
        args = call.args
    elif isinstance(f, ast.Attribute) and f.attr.startswith(("compile_ptx", "compile", "_getasm")) \
            and call.args and isinstance(call.args[0], ast.Name) and call.args[0].id in names:
        args = call.args[1:]
    else:
        return None
    kw = {k.arg: k.value for k in call.keywords}
    return args[0] if args else kw.get("sig") or kw.get("signature") or kw.get("sigs")


def _make_launch(module, call, names, env):
    return Launch(call, module.scope_of(call), env, sig_expr=_sig_site(call, names))


def _helper_launches(module, names, root, env, depth):
    """Launches inside the helpers that `root` passes a kernel to."""
    if depth > 2:
        return []
    out = []
    for call in _calls_passing(root, names):
        caller = module.scope_of(call)
        helper = _callee_scope(module, call, caller)
        if helper is None:
            continue
        params = helper.params
        method = bool(params) and params[0] in ("self", "cls") and isinstance(call.func, ast.Attribute)
        values = _bind_call(call, helper.node.args, method)
        passed = {p for p, v in values.items() if isinstance(v, ast.Name) and v.id in names}
        if not passed:
            continue
        henv = Env({p: (v, caller, env if caller.node is root else EMPTY_ENV) for p, v in values.items()},
                   call, env)
        for launch in _launch_calls(helper.node, passed):
            out.append(_make_launch(module, launch, passed, henv))
        out += _helper_launches(module, passed, helper.node, henv, depth + 1)
    return out


def _calls_passing(root, names):
    out = []
    for node in ast.walk(root):
        if isinstance(node, ast.Call) and not isinstance(node.func, ast.Subscript):
            args = list(node.args) + [k.value for k in node.keywords]
            if any(isinstance(a, ast.Name) and a.id in names for a in args):
                out.append(node)
    return out


def _callee_scope(module, call, caller):
    """The scope of the function a call calls: `self.m(...)` any function
    named m in the module, `f(...)` the def `f` resolves to."""
    f = call.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("self", "cls"):
        for node, scope in module.scopes.items():
            if isinstance(node, ast.FunctionDef) and node.name == f.attr:
                return scope
        return None
    if isinstance(f, ast.Name):
        binding = caller.resolve(f.id)
        if binding is not None and binding.kind == "def" and binding.scope.module is module:
            return module.scopes.get(binding.node)
    return None


def _launch_target(expr):
    if isinstance(expr, ast.Name):
        return expr.id
    return None


def infer_signature(cache, kernel):
    """The `--sig` of a lazy kernel from the first launch whose arguments
    all evaluate; raises HarnessError with the first reason otherwise."""
    nparams = len(kernel.func.args.args)
    launches = find_launches(kernel)
    if not launches:
        raise HarnessError("no launch found for a lazy kernel")
    reasons = []
    for launch in launches:
        if not Evaluator(cache, kernel.module).reachable(launch.call, launch.scope, launch.env):
            continue
        if launch.sig_expr is not None:
            sig = _signature_of(cache, kernel.module, launch.sig_expr, launch.scope, launch.env,
                                launch.call.lineno)
            if sig is not None:
                return sig, sig
            reasons.append("signature given to a compile call")
            continue
        try:
            values = _launch_values(cache, kernel.module, launch)
            if len(values) != nparams:
                raise Unknown(f"launch passes {len(values)} arguments to {nparams} parameters")
            return tuple("void(" + ", ".join(render_type(v, n) for v in values) + ")"
                         for n in (False, True))
        except Unknown as exc:
            reasons.append(str(exc))
        except (RecursionError, IndexError, TypeError, ValueError, KeyError, AttributeError) as exc:
            reasons.append(f"evaluator: {type(exc).__name__}")
    if not reasons:
        raise HarnessError("no reachable launch found for a lazy kernel")
    raise HarnessError("argument types: " + _generalize_reason(reasons[0]))


def _launch_values(cache, module, launch):
    call = launch.call
    if call.keywords:
        raise Unknown("keyword launch arguments")
    values = []
    for a in call.args:
        ev = Evaluator(cache, module)
        if isinstance(a, ast.Starred):
            value = ev.eval(a.value, launch.scope, launch.env, call.lineno)
            if not isinstance(value, Tup):
                raise Unknown("starred launch arguments")
            values.extend(value.items)
        else:
            values.append(ev.eval(a, launch.scope, launch.env, call.lineno))
    return values


def _generalize_reason(reason):
    reason = re.sub(r"\bself\.\w+", "self.X", reason)
    return re.sub(r"'[^']*'", "X", reason)


# ---------------------------------------------------------------------------
# Per-kernel preparation
# ---------------------------------------------------------------------------

def prepare(cache, kernel):
    """Fills in source, kernel_name, sig / eager, expects_error or reason."""
    try:
        kernel.expects_error = expected_error(kernel)
        kernel.kernel_name = kernel.func.name
        kernel.source = Extractor(cache, kernel).run()
        kernel.eager = bool(kernel.jit_call is not None and kernel.jit_call.args)
        if not kernel.eager:
            kernel.sig, kernel.numba_sig = infer_signature(cache, kernel)
        elif kernel.form == "call":
            kernel.sig = evaluate_signature(kernel, kernel.jit_call.args[0])
    except HarnessError as exc:
        kernel.reason = str(exc)
    except (RecursionError, ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
        kernel.reason = f"harness error: {type(exc).__name__}"


def discover_all(root, only):
    cache = ModuleCache(root)
    files = []
    for d in TEST_DIRS:
        full = os.path.join(root, d)
        if os.path.isdir(full):
            files += sorted(f"{d}/{f}" for f in os.listdir(full)
                            if f.startswith("test_") and f.endswith(".py"))
    files += _usecase_files(cache, files)
    kernels, file_errors = [], {}
    for relpath in files:
        try:
            kernels.extend(discover(cache, relpath))
        except (HarnessError, RecursionError, ValueError, TypeError, AttributeError) as exc:
            file_errors[os.path.basename(relpath)] = str(exc) or type(exc).__name__
    assign_ids(kernels)
    if only:
        kernels = [k for k in kernels if fnmatch.fnmatch(k.id, only) or only in k.id]
    for k in kernels:
        prepare(cache, k)
    return kernels, file_errors


def _usecase_files(cache, test_files):
    out = []
    for relpath in test_files:
        module = cache.load(relpath)
        if module is None:
            continue
        for node in ast.walk(module.tree):
            if isinstance(node, ast.ImportFrom):
                other = cache.resolve_import(module, node)
                if other is not None and other.basename.endswith("_usecases.py") \
                        and other.relpath not in out:
                    out.append(other.relpath)
    return sorted(out)


# ---------------------------------------------------------------------------
# Running kjit and ptxas
# ---------------------------------------------------------------------------

PTXAS = "/usr/local/cuda/bin/ptxas"
ERROR_LINE = re.compile(r"^(?P<loc>[^\s:][^:]*:\d+:\d+|kjit): error(?:\[(?P<code>E\d+)\])?: (?P<msg>.*)$")


@dataclasses.dataclass
class Outcome:
    cls: str
    errors: list = dataclasses.field(default_factory=list)    # kjit's messages
    blockers: list = dataclasses.field(default_factory=list)  # normalised keys
    detail: str = ""
    kjit_ok: bool = None


def file_name(index, kernel):
    stem = re.sub(r"[^A-Za-z0-9]+", "_", kernel.id.replace(".py", ""))[:80].strip("_")
    return f"k{index:04d}_{stem}.py"


UNBOUND = re.compile(r"global '(\w+)' is not a compile-time constant: the host computes it "
                     r".*no array is bound to it")


def host_bindings(path, names):
    """--global options binding each global the host computes (named in
    kjit's "no array is bound" errors) to a zero array of the dtype and
    ndim the harness's evaluator gives its value in the extracted file, as
    the test's host code would bind it; None when one cannot be typed."""
    try:
        module = Module(os.path.dirname(path), os.path.basename(path))
    except (OSError, SyntaxError, ValueError):
        return None
    values = {t.id: node for node in module.tree.body if isinstance(node, ast.Assign)
              for t in node.targets if isinstance(t, ast.Name)}
    opts = []
    for name in names:
        node = values.get(name)
        try:
            value = Evaluator(ModuleCache(os.path.dirname(path)), module).eval(
                node.value, module.scope, EMPTY_ENV, node.lineno) if node else None
        except (Unknown, HarnessError, RecursionError, ValueError, TypeError, KeyError,
                AttributeError, IndexError):
            value = None
        if not isinstance(value, Arr) or not 1 <= value.ndim <= 4:
            return None
        opts += ["--global", f"{name}=zeros:{value.dtype}:{'x'.join(['2'] * value.ndim)}"]
    return opts


def run_kjit(cmd, timeout, env):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                          errors="replace")


def compile_one(kernel, path, kjit, timeout):
    """Runs kjit then ptxas on one extracted kernel.  A kernel reading a
    global the host computes is compiled again with it bound (--global),
    as a host program would (docs/language.md, "Globals the host binds")."""
    out_ptx = path[:-3] + ".ptx"
    cmd = [kjit, "ptx", f"{path}:{kernel.kernel_name}", "--arch", "sm_80", "-o", out_ptx]
    if kernel.sig:
        cmd[3:3] = ["--sig", kernel.sig]
    env = dict(os.environ, KJIT_CACHE="0")
    try:
        proc = run_kjit(cmd, timeout, env)
        unbound = sorted(set(UNBOUND.findall(proc.stderr))) if proc.returncode > 0 else []
        bind = host_bindings(path, unbound) if unbound else None
        if bind:
            cmd = cmd[:3] + bind + cmd[3:]
            proc = run_kjit(cmd, timeout, env)
    except subprocess.TimeoutExpired:
        return Outcome("crash", detail=f"kjit timed out after {timeout} s", blockers=["crash: timeout"])
    output = proc.stderr + proc.stdout
    if proc.returncode < 0:
        return Outcome("crash", detail=f"kjit died by signal {-proc.returncode}",
                       blockers=[f"crash: signal {-proc.returncode}"])
    errors = [m.group("msg") for m in map(ERROR_LINE.match, output.splitlines()) if m]
    if any("internal error" in e or m_code(output) == "E599" for e in errors):
        return Outcome("crash", errors=errors, detail="internal error",
                       blockers=["crash: internal error"])
    if proc.returncode != 0:
        if not errors:
            errors = [output.strip().splitlines()[0] if output.strip() else f"exit status {proc.returncode}"]
        return classify_errors(kernel, errors, output)
    if not os.path.exists(PTXAS):
        return Outcome("compiles", detail="ptxas not found: not assembled", kjit_ok=True)
    with open(out_ptx, errors="replace") as f:
        calls_foreign = ".extern .func" in f.read()
    # A kernel calling CUDA C (declare_device + link=) is linked, not
    # assembled alone: kjit's cubin output runs NVRTC, ptxas and nvJitLink.
    check = (cmd[:-2] + ["--emit", "cubin", "-o", os.devnull] if calls_foreign
             else [PTXAS, "-arch=sm_80", out_ptx, "-o", os.devnull])
    try:
        pp = subprocess.run(check, capture_output=True, text=True, timeout=timeout,
                            errors="replace", env=env)
    except subprocess.TimeoutExpired:
        return Outcome("ptxas-failed", detail="ptxas timed out", kjit_ok=True,
                       blockers=["ptxas: timeout"])
    if pp.returncode != 0:
        first = (pp.stderr or pp.stdout).strip().splitlines()
        return Outcome("ptxas-failed", detail=first[0] if first else "ptxas failed", kjit_ok=True,
                       blockers=["ptxas rejects kjit's PTX"])
    return Outcome("compiles", kjit_ok=True)


def m_code(output):
    m = re.search(r"error\[(E\d+)\]", output)
    return m.group(1) if m else None


def classify_errors(kernel, errors, output):
    """rejected-unsupported / rejected-other, or not-extracted when kjit
    trips over a name the harness could not resolve."""
    for e in errors:
        m = re.match(r"name '([^']+)' is not defined", e)
        if m and m.group(1) in kernel.unresolved and kernel.unresolved[m.group(1)] != "class":
            return Outcome("not-extracted", errors=errors, kjit_ok=False,
                           detail=f"unresolved name ({kernel.unresolved[m.group(1)]})")
    keys = []
    for e in errors:
        key = blocker_key(e, kernel, output)
        if key not in keys:
            keys.append(key)
    unsupported = any(re.search(r"not supported|unsupported|not yet", e) for e in errors) \
        or any(k.startswith(("unsupported", "--sig:")) for k in keys)
    return Outcome("rejected-unsupported" if unsupported else "rejected-other",
                   errors=errors, blockers=keys, kjit_ok=False)


# ---------------------------------------------------------------------------
# Blocker keys
# ---------------------------------------------------------------------------

TYPE_RE = r"(?:readonly )?(?:array\([^()]*\)|UniTuple\([^()]*\)|Tuple\([^()]*\)|[a-z]+\d*)"


def blocker_key(message, kernel, output=""):
    """kjit's message with the parts that vary between kernels (user
    names, types, numbers) taken out, keeping the construct."""
    msg = message.strip()
    for pattern, repl in BLOCKER_RULES:
        m = re.search(pattern, msg)
        if m:
            return repl(m, kernel) if callable(repl) else m.expand(repl)
    return _generic_key(msg)


def _name_kind(m, kernel):
    name = m.group(1)
    kind = kernel.unresolved.get(name)
    if kind == "class":
        return "name not defined: a class (enum, record, namedtuple ...)"
    if "." in name:
        return f"name not defined: {name}"
    return "name not defined: " + (kind or "a module-level name")


def _sig_key(m, kernel):
    sig = kernel.sig or ""
    if "Tuple(" in sig:
        return "--sig: tuple argument types"
    if "none" in sig:
        return "--sig: None argument"
    return "--sig: " + _generic_key(m.group(1))


def _from_numba_cuda(kernel, name):
    return re.search(r"from numba\.cuda import [^\n]*\b" + re.escape(name) + r"\b", kernel.source or "")


NUMBA_CUDA_TYPE_KEY = "numba types imported from numba.cuda (`from numba.cuda import float32`)"


def _attr_key(m, kernel):
    module, attr = m.group(1), m.group(2)
    if module == "?" and _from_numba_cuda(kernel, attr):
        if attr in NUMPY_DTYPES:
            return NUMBA_CUDA_TYPE_KEY
        return f"name imported from numba.cuda: {attr}"
    if module == "cuda.atomic":
        return "cuda.atomic.* used as a value (passed as an argument)"
    return f"unknown attribute: {module}.{attr}"


def _dtype_key(m, kernel):
    name, where = m.group(1), m.group(2)
    if name in NUMPY_DTYPES and _from_numba_cuda(kernel, name):
        return NUMBA_CUDA_TYPE_KEY
    return f"{where} dtype given by a variable or parameter"


def _global_key(m, kernel):
    why = m.group(1)
    if why.startswith("function calls"):
        return "global is not a compile-time constant (a function call: host arrays, objects)"
    return "global is not a compile-time constant (" + _generic_key(why) + ")"


def _generic_key(msg):
    msg = re.sub(r"'(np|numpy|math|cmath|cuda|numba)\.([\w.]+)'", r"\1.\2", msg)
    msg = re.sub(r"\b" + TYPE_RE + r"\b", lambda m: m.group(0) if m.group(0).isalpha() and not
                 re.match(r"(int|uint|float|complex)\d+|bool|array|none|void", m.group(0)) else "T", msg)
    msg = re.sub(r"'[^']*'", "X", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg


BLOCKER_RULES = [
    (r"^--sig: (.*)", _sig_key),
    (r"^'none' is not a parameter type", "None argument (type none)"),
    (r"name '([\w.]+)' is not defined", _name_kind),
    (r"module '([^']*)' has no attribute '(\w+)'", _attr_key),
    (r"^'(cuda\.atomic)' has no attribute '(\w+)'", _attr_key),
    (r"unknown dtype '([^']*)' for (cuda\.\w+\.array)\(\)", _dtype_key),
    (r"^'[^']*' is not a function", "call of a function passed as an argument or held in a variable"),
    (r"^function '[^']*' can only be called", "a function used as a value (passed as an argument)"),
    (r"^global '[^']*' is not a compile-time constant \((.*)\)$", _global_key),
    (r"^(np|numpy|math|cmath|cuda|numba)\.([\w.]+) is not supported yet", r"unsupported: \1.\2"),
    (r"^'?((?:np|numpy|math|cmath|cuda|numba)\.[\w.]+)'? (?:is|are) not supported", r"unsupported: \1"),
    (r"'(\w+)' cannot be used in kernels \(module '([\w.]+)' is not supported\)",
     r"unsupported: module \2"),
    (r"the operator '([^']+)' is not supported", r"unsupported: the operator '\1'"),
    (r"method calls \('\.(\w+)\(\)'\) are not supported", r"unsupported: method call .\1()"),
    (r"attribute '(\w+)' is not supported in kernels", r"unsupported: attribute .\1"),
    (r"array views \(slicing or partial indexing\)", "unsupported: array views (slicing or partial indexing)"),
    (r"array slicing is not supported", "unsupported: array slicing"),
    (r"^(\w+)\(\) over an iterable is not supported", r"unsupported: \1() over an iterable"),
    (r"^only 'for \.\.\. in range\(\.\.\.\)' loops", "unsupported: for loops over anything but range()"),
    (r"^@(\w+) is not supported yet", r"unsupported: @\1"),
    (r"^(.*) (?:is|are) not supported(?: yet)?(?: in kernels)?$",
     lambda m, k: "unsupported: " + _generic_key(m.group(1))),
    (r"is a host function and cannot be called", "call of an undecorated (host) function"),
    (r"shared array shape must be a compile-time constant", "shared array shape must be a compile-time constant"),
    (r"^unknown type '[^']*'", "unknown type name in a signature"),
    (r"^expected a signature, got (.*)", r"decorator signature given as \1"),
    (r"cannot unify", "cannot unify types of a variable"),
    (r"unknown option '(\w+)'", r"unknown decorator option \1"),
    (r"has no eager signature", "no eager signature (harness gave no --sig)"),
]


# ---------------------------------------------------------------------------
# Orchestration
# ---------------------------------------------------------------------------

def write_sources(kernels, directory):
    os.makedirs(directory, exist_ok=True)
    paths = {}
    for i, k in enumerate(kernels):
        if k.source is None:
            continue
        path = os.path.join(directory, file_name(i, k))
        with open(path, "w", encoding="utf-8") as f:
            f.write(k.source)
        paths[k.id] = path
    return paths


def run_all(kernels, paths, kjit, jobs, timeout):
    outcomes = {}

    def task(k):
        if k.reason is not None:
            return k.id, Outcome("not-extracted", detail=k.reason)
        try:
            return k.id, compile_one(k, paths[k.id], kjit, timeout)
        except OSError as exc:
            return k.id, Outcome("crash", detail=f"could not run kjit: {exc}", blockers=["harness: could not run kjit"])

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for kid, outcome in pool.map(task, kernels):
            outcomes[kid] = outcome
    for k in kernels:
        o = outcomes[k.id]
        if k.expects_error and o.cls != "not-extracted":
            o.detail = (o.detail + "; " if o.detail else "") + f"kjit: {o.cls}"
            o.cls = "expects-error"
    return outcomes


# ---------------------------------------------------------------------------
# Numba's ground truth: the check script
# ---------------------------------------------------------------------------

NUMBA_CHECK_TEMPLATE = r'''import numpy; numpy.row_stack = numpy.vstack
"""Compiles each kernel extracted by kjit's compatibility harness with Numba
and writes {id: "ok" | "error: <first line>"} as JSON.

    python3 numba_check.py [-o numba_results.json] [-j N]

Each kernel is compiled for the signature the harness gave kjit: eager
kernels when their module is imported, lazy ones with dispatcher.compile(sig)
(with a GPU) or cuda.compile_ptx (without).  Workers run in subprocesses and
a worker that dies is restarted after the kernel that killed it.
"""
from numba import cuda
import argparse, importlib.util, json, os, subprocess, sys, warnings

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = json.loads(r"""__MANIFEST__""")


def first_line(exc):
    text = f"{type(exc).__name__}: {exc}".strip()
    return text.splitlines()[0][:300]


def numba_signature(sig):
    """The signature string, or a Signature object where it names a type
    only the harness spells (xoroshiro128p state arrays)."""
    if "xoroshiro128p_state" not in sig:
        return sig
    from numba.cuda.random import xoroshiro128p_dtype
    try:
        from numba.cuda import types as T
        from numba.cuda.np.numpy_support import from_dtype
    except ImportError:
        from numba.core import types as T
        from numba.np.numpy_support import from_dtype
    ns = {n: getattr(T, n) for n in dir(T) if not n.startswith("_")}
    ns["xoroshiro128p_state"] = from_dtype(xoroshiro128p_dtype)
    return eval(sig, ns)


def check(entry):
    path = os.path.join(HERE, "kernels", entry["file"])
    name = "kjit_compat_" + entry["file"][:-3]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        spec.loader.exec_module(mod)
        disp = getattr(mod, entry["kernel"])
        if entry["sig"] and not entry["eager"]:
            sig = numba_signature(entry["sig"])
            if cuda.is_available():
                disp.compile(sig)
            else:
                opts = {k: v for k, v in getattr(disp, "targetoptions", {}).items()
                        if k in ("debug", "lineinfo", "fastmath", "opt")}
                cuda.compile_ptx(disp.py_func, sig, cc=(8, 0), **opts)
    return "ok"


def worker(index, count, out_path):
    done = {}
    if os.path.exists(out_path):
        with open(out_path) as f:
            done = json.load(f)
    for i, entry in enumerate(KERNELS):
        if i % count != index or entry["id"] in done:
            continue
        done[entry["id"]] = "error: worker died while compiling"
        with open(out_path, "w") as f:
            json.dump(done, f)
        try:
            done[entry["id"]] = check(entry)
        except BaseException as exc:  # noqa: B902 - any failure is Numba's verdict
            done[entry["id"]] = "error: " + first_line(exc)
        with open(out_path, "w") as f:
            json.dump(done, f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--out", default="numba_results.json")
    ap.add_argument("-j", "--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    ap.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(int(args.worker[0]), int(args.worker[1]), args.worker[2])
        return
    parts = [f"{args.out}.part{i}" for i in range(args.jobs)]
    for _ in range(20):                       # restarts after a worker crash
        procs = [subprocess.Popen([sys.executable, __file__, "--worker", str(i), str(args.jobs), p])
                 for i, p in enumerate(parts)]
        codes = [p.wait() for p in procs]
        if all(c == 0 for c in codes):
            break
    results = {}
    for p in parts:
        if os.path.exists(p):
            with open(p) as f:
                results.update(json.load(f))
            os.remove(p)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    ok = sum(1 for v in results.values() if v == "ok")
    print(f"{ok} of {len(results)} kernels compile with Numba; results in {args.out}")


if __name__ == "__main__":
    main()
'''


def emit_numba_check(kernels, directory):
    """Writes DIR/kernels/*.py and DIR/numba_check.py (manifest embedded)."""
    if os.path.isdir(os.path.join(directory, "kernels")):
        shutil.rmtree(os.path.join(directory, "kernels"))
    paths = write_sources(kernels, os.path.join(directory, "kernels"))
    manifest = [{"id": k.id, "file": os.path.basename(paths[k.id]), "kernel": k.kernel_name,
                 "sig": k.numba_sig or k.sig, "eager": k.eager}
                for k in kernels if k.id in paths and (k.sig or k.eager)]
    text = NUMBA_CHECK_TEMPLATE.replace("__MANIFEST__", json.dumps(manifest, indent=0))
    with open(os.path.join(directory, "numba_check.py"), "w", encoding="utf-8") as f:
        f.write(text)
    return len(manifest)


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

CLASSES = ["compiles", "ptxas-failed", "rejected-unsupported", "rejected-other", "expects-error",
           "not-extracted", "crash"]
CLASS_MEANING = {
    "compiles": "kjit compiles it and ptxas assembles the PTX for sm_80",
    "ptxas-failed": "kjit emits PTX that ptxas rejects (a kjit bug)",
    "rejected-unsupported": "kjit rejects it, naming a construct it does not support",
    "rejected-other": "kjit rejects it with another error (names, typing, signatures)",
    "expects-error": "the test expects a compile-time error from Numba (left out of the headline)",
    "not-extracted": "the harness could not make a standalone file or argument types for it",
    "crash": "kjit died by a signal, timed out or reported an internal error (a kjit bug)",
}


def git_head(path, short=False):
    cmd = ["git", "-C", path, "rev-parse"] + (["--short"] if short else []) + ["HEAD"]
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "n/a"


def summarize(kernels, outcomes, numba):
    counts = {c: 0 for c in CLASSES}
    for k in kernels:
        counts[outcomes[k.id].cls] += 1
    extracted = len(kernels) - counts["not-extracted"]
    base = extracted - counts["expects-error"]
    summary = {"kernels": len(kernels), "counts": counts, "extracted": extracted,
               "headline": (counts["compiles"], base)}
    if numba is not None:
        accepted = [k for k in kernels if numba.get(k.id) == "ok"
                    and outcomes[k.id].cls not in ("expects-error", "not-extracted")]
        ok = sum(1 for k in accepted if outcomes[k.id].cls == "compiles")
        rejected_by_numba = [k for k in kernels if str(numba.get(k.id, "")).startswith("error")
                             and outcomes[k.id].cls not in ("expects-error", "not-extracted")]
        summary["numba"] = {"accepted": len(accepted), "compiles": ok,
                            "numba_rejects": len(rejected_by_numba),
                            "kjit_only": sum(1 for k in rejected_by_numba
                                             if outcomes[k.id].cls == "compiles"),
                            "checked": sum(1 for k in kernels if k.id in numba)}
    return summary


def blocker_table(kernels, outcomes, numba):
    """{key: [kernels blocked, sole blocker]} over rejected kernels (those
    Numba rejects left out when its results are known)."""
    table = {}
    for k in kernels:
        o = outcomes[k.id]
        if o.cls not in ("rejected-unsupported", "rejected-other"):
            continue
        if numba is not None and str(numba.get(k.id, "ok")).startswith("error"):
            continue
        for key in o.blockers:
            row = table.setdefault(key, [0, 0, []])
            row[0] += 1
            if len(o.blockers) == 1:
                row[1] += 1
            if len(row[2]) < 3:
                row[2].append(k.id)
    return sorted(table.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))


def render_markdown(kernels, outcomes, summary, numba, meta, file_errors):
    c = summary["counts"]
    ok, base = summary["headline"]
    lines = [
        "# Compatibility with numba-cuda's test suite",
        "",
        "How many of the kernels in numba-cuda's own tests kjit compiles. Generated by",
        "`scripts/compat.py`; do not edit by hand.",
        "",
        f"- Date (UTC): {meta['date']}",
        f"- numba-cuda commit: `{meta['numba_commit']}`",
        f"- kjit commit: `{meta['kjit_commit']}`",
        f"- ptxas: {meta['ptxas']}",
        "",
        "Re-run (from the repository root, with a numba-cuda checkout):",
        "",
        "```",
        "python3 scripts/compat.py NUMBA_CUDA_CHECKOUT --out docs/compatibility.md"
        + (" --numba-results tests/numba/compat_numba_results.json" if numba is not None else ""),
        "```",
        "",
        "Numba's verdict per kernel (`tests/numba/compat_numba_results.json`) is made on a machine with "
        "Numba and a GPU: `python3 scripts/compat.py NUMBA_CUDA_CHECKOUT --emit-numba-check DIR`, then "
        "`python3 DIR/numba_check.py -o compat_numba_results.json` there (the file in the repository "
        "was recorded with Numba 0.68 on an NVIDIA H100, 2026-11-25).",
        "",
        "## Headline",
        "",
        f"**{ok} of {base} kernels compile ({pct(ok, base)})**: kernels compiled / (kernels extracted "
        f"− kernels whose test expects a compile error); {summary['kernels']} kernels found, "
        f"{summary['extracted']} extracted.",
        "",
    ]
    if "numba" in summary:
        n = summary["numba"]
        lines += [
            f"**Over the kernels Numba itself compiles: {n['compiles']} of {n['accepted']} "
            f"({pct(n['compiles'], n['accepted'])}).** Numba was run on {n['checked']} extracted kernels "
            f"with the same signatures; it rejects {n['numba_rejects']} of those counted above "
            f"(of which kjit compiles {n['kjit_only']}), which are left out of this figure and of the "
            "blocker table.",
            "",
        ]
    else:
        lines += [
            "Numba's own verdict on each extracted kernel is not included yet: the headline is over all",
            "extracted kernels, including some that Numba would reject too (see Method below).",
            "",
        ]
    lines += ["## Classes", "", "| class | kernels | meaning |", "| --- | ---: | --- |"]
    for cls in CLASSES:
        lines.append(f"| {cls} | {c[cls]} | {CLASS_MEANING[cls]} |")
    lines += ["", *render_blockers(kernels, outcomes, numba), "",
              *render_not_extracted(kernels, outcomes, file_errors), "",
              *render_bugs(kernels, outcomes), "",
              *render_files(kernels, outcomes), "", *render_method(meta)]
    return "\n".join(lines) + "\n"


def render_blockers(kernels, outcomes, numba, limit=60):
    rows = blocker_table(kernels, outcomes, numba)
    lines = ["## Blockers", "",
             "Each rejected kernel's kjit errors, normalised (names, types and numbers taken out), ranked",
             "by the number of kernels they block. *Sole* counts the kernels for which it is the only",
             "error, i.e. those that would compile (or show their next error) once it is fixed.",
             "Expected-error tests are left out.", "",
             "| # | blocker | kernels | sole | example |", "| ---: | --- | ---: | ---: | --- |"]
    for i, (key, (n, sole, examples)) in enumerate(rows[:limit], 1):
        lines.append(f"| {i} | {_md(key)} | {n} | {sole} | `{examples[0]}` |")
    if len(rows) > limit:
        rest = sum(r[1][0] for r in rows[limit:])
        lines.append(f"| | {len(rows) - limit} more keys | {rest} | | |")
    return lines


def render_not_extracted(kernels, outcomes, file_errors):
    reasons = {}
    for k in kernels:
        o = outcomes[k.id]
        if o.cls == "not-extracted":
            reasons[o.detail] = reasons.get(o.detail, 0) + 1
    lines = ["## Not extracted", "",
             "Kernels the harness could not turn into a standalone file with argument types; these are",
             "harness limits, not kjit blockers.", "", "| reason | kernels |", "| --- | ---: |"]
    for reason, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
        lines.append(f"| {_md(reason)} | {n} |")
    for name, err in sorted(file_errors.items()):
        lines.append(f"| file {name}: {_md(err)} | ? |")
    return lines


def render_bugs(kernels, outcomes):
    lines = ["## Crashes and ptxas failures", "", "Each of these is a kjit bug.", ""]
    bugs = [k for k in kernels if outcomes[k.id].cls in ("crash", "ptxas-failed")
            or (outcomes[k.id].cls == "expects-error" and any(
                s in outcomes[k.id].detail for s in ("crash", "ptxas-failed")))]
    if not bugs:
        return lines + ["None."]
    for k in bugs:
        o = outcomes[k.id]
        lines.append(f"- `{k.id}` ({o.cls}): {_md(o.detail or '; '.join(o.errors[:1]))}")
    return lines


def render_files(kernels, outcomes):
    short = {"compiles": "ok", "ptxas-failed": "ptxas", "rejected-unsupported": "unsup",
             "rejected-other": "other", "expects-error": "exp-err", "not-extracted": "n/x",
             "crash": "crash"}
    per_file = {}
    for k in kernels:
        row = per_file.setdefault(k.module.basename, {c: 0 for c in CLASSES})
        row[outcomes[k.id].cls] += 1
    lines = ["## Per file", "",
             "| file | kernels | " + " | ".join(short[c] for c in CLASSES) + " |",
             "| --- | ---: | " + " | ".join("---:" for _ in CLASSES) + " |"]
    for name in sorted(per_file):
        row = per_file[name]
        lines.append(f"| {name} | {sum(row.values())} | "
                     + " | ".join(str(row[c]) if row[c] else "" for c in CLASSES) + " |")
    return lines


def render_method(meta):
    return [
        "## Method",
        "",
        "- **Kernels**: every function compiled by `cuda.jit` in `tests/cudapy/test_*.py`,",
        "  `tests/doc_examples/test_*.py` and the `*_usecases.py` modules they import, as a decorator",
        "  (`@cuda.jit`, `@cuda.jit(...)`, `@jit` from numba.cuda, `@numba.cuda.jit`) or a call",
        "  (`cuda.jit(sig)(fn)`, `cuda.jit(fn)`), once per call of a test helper when the function",
        "  compiled is the helper's argument. `device=True` functions are dependencies, not kernels.",
        "  Ids read `test_file.py::Class.test_method::function`, `#N` for repeats.",
        "- **Extraction**: each kernel goes into its own file with the imports it uses, the module-level",
        "  and enclosing-function definitions it references (transitively; a loop variable takes its",
        "  first value, a helper's parameter its first caller's argument) and definitions imported from",
        "  other test modules. Decorated kernels keep their decorator; a call-form kernel gets",
        "  `@cuda.jit(...)` with the test's arguments, its signature written as a string when the",
        "  harness can evaluate it.",
        "- **Argument types**: kernels with an eager signature are compiled for it; lazy ones get a",
        "  `--sig` from the first launch (`k[grid, block](...)`, `k.forall(n)(...)`) whose arguments a",
        "  small evaluator can type (NumPy constructors, `cuda.to_device`, `device_array`, slices,",
        "  `astype`, `reshape`, literals), with Numba's layouts: a C-contiguous array is `[::1]`, a",
        "  strided or transposed one `[:]`.",
        f"- **Compilation**: `kjit ptx FILE:KERNEL [--sig SIG] --arch sm_80` with `KJIT_CACHE=0` and a "
        f"{meta['timeout']} s timeout, then `ptxas -arch=sm_80`.",
        "  A kernel that reads a global the host computes (`A = make_array(host_data)`, which Numba",
        "  reads when it compiles) and fails with kjit's \"no array is bound to it\" is compiled again",
        "  with each such global bound to a zero array of the dtype and ndim the evaluator gives its",
        "  value (`--global A=zeros:DTYPE:2`), as the host program would bind it (docs/language.md,",
        "  \"Globals the host binds\").",
        "- **Expected errors**: a kernel whose definition, jit call, launch or compile call sits in",
        "  `with self.assertRaises(...)` / `assertRaisesRegex` / `pytest.raises` of a compile-time",
        "  exception (typing, lowering, `TypeError`, `ValueError`, `NotImplementedError`, ...; not",
        "  `IndexError`, `ZeroDivisionError`, `AssertionError` and other run-time errors), or in a test",
        "  marked `expectedFailure`, is `expects-error`; kjit's own verdict is kept in the JSON.",
        "- **Numba's verdict**: `--emit-numba-check DIR` writes the extracted files and `numba_check.py`,",
        "  which compiles each with Numba for the same signature; `--numba-results FILE` folds its JSON",
        "  in here.",
    ]


def _md(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def write_json(path, kernels, outcomes, summary, meta):
    data = {"meta": meta, "summary": summary, "kernels": []}
    for k in kernels:
        o = outcomes[k.id]
        data["kernels"].append({"id": k.id, "class": o.cls, "sig": k.sig, "eager": k.eager,
                                "errors": o.errors, "blockers": o.blockers, "detail": o.detail,
                                "expects_error": k.expects_error})
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

# Sections of the same page that other harnesses write (scripts/compat_public.py
# starts its own with this marker); rewriting the test-suite part keeps them.
OTHER_SECTIONS = "<!-- public repositories:"


def kept_sections(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return ""
    at = text.find(OTHER_SECTIONS)
    return text[at:] if at >= 0 else ""


def parse_args(argv):
    ap = argparse.ArgumentParser(description="Compile numba-cuda's test kernels with kjit.")
    ap.add_argument("checkout", help="numba-cuda checkout")
    ap.add_argument("--kjit", default="build/kjit")
    ap.add_argument("--keep", metavar="DIR", help="write the extracted kernels here and keep them")
    ap.add_argument("--json", metavar="FILE", help="per-kernel results as JSON")
    ap.add_argument("--numba-results", metavar="FILE", help="JSON written by numba_check.py")
    ap.add_argument("--out", default="docs/compatibility.md")
    ap.add_argument("--emit-numba-check", metavar="DIR",
                    help="write the extracted kernels and numba_check.py to DIR, then stop")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--only", metavar="PATTERN", help="kernel ids matching this glob or substring")
    ap.add_argument("--timeout", type=int, default=30)
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    root = os.path.abspath(args.checkout)
    sys.setrecursionlimit(10000)
    kernels, file_errors = discover_all(root, args.only)
    if args.emit_numba_check:
        n = emit_numba_check(kernels, args.emit_numba_check)
        print(f"wrote {n} kernels and numba_check.py to {args.emit_numba_check}")
        return 0
    numba = None
    if args.numba_results:
        with open(args.numba_results, encoding="utf-8") as f:
            numba = json.load(f)
    workdir = args.keep or tempfile.mkdtemp(prefix="kjit-compat-")
    try:
        paths = write_sources(kernels, workdir)
        outcomes = run_all(kernels, paths, os.path.abspath(args.kjit), args.jobs, args.timeout)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
            "numba_commit": git_head(root), "kjit_commit": git_head(repo, short=True),
            "ptxas": "sm_80" if os.path.exists(PTXAS) else "not found: PTX not assembled",
            "timeout": args.timeout}
    summary = summarize(kernels, outcomes, numba)
    if args.json:
        write_json(args.json, kernels, outcomes, summary, meta)
    if not args.only:
        tail = kept_sections(args.out)
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(render_markdown(kernels, outcomes, summary, numba, meta, file_errors))
            f.write(("\n" + tail) if tail else "")
    ok, base = summary["headline"]
    print(f"{len(kernels)} kernels: " + ", ".join(f"{c} {n}" for c, n in summary["counts"].items()))
    print(f"headline: {ok} / {base} = {pct(ok, base)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

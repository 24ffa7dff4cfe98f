"""Readings of host code that public repositories use to make the arrays
they launch kernels with, beyond scripts/compat.py's evaluator: PyTorch
tensors handed over with `cuda.as_cuda_array` (or a repository's own
bridge helper around it), NumPy constructors with a visible dtype and
shape (`np.fromfunction`, `np.where`, `np.random.choice`), a shape that is
a scalar expression, and an array whose dimensions the host code unpacks
(`ny, nx = image.shape`).  Used as a mixin by scripts/compat_public.py's
evaluator; each reading states the rule it follows, and anything else
stays unknown (a harness limit), never guessed.
"""

import ast

import compat

# torch dtype attributes, as `torch.zeros(..., dtype=torch.float32)` names them.
TORCH_DTYPES = {
    "float32": "float32", "float": "float32", "float64": "float64", "double": "float64",
    "float16": "float16", "half": "float16", "int8": "int8", "uint8": "uint8", "int16": "int16",
    "short": "int16", "int32": "int32", "int": "int32", "int64": "int64", "long": "int64",
    "bool": "bool", "complex64": "complex64", "cfloat": "complex64", "complex128": "complex128",
    "cdouble": "complex128", "uint16": "uint16", "uint32": "uint32", "uint64": "uint64",
}

# torch tensor constructors: the shape is the leading positional arguments
# (or one tuple / list), the dtype keyword defaults to float32 (torch's
# default dtype) except where the values decide it.
TORCH_MAKERS = {"zeros", "ones", "empty", "rand", "randn", "full"}
TORCH_LIKE = {"zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like"}

# Tensor methods that return a tensor of the same dtype and dimensions.
TORCH_SAME = {"contiguous", "detach", "cuda", "clone", "cpu", "requires_grad_"}
# Tensor methods that convert to one dtype.
TORCH_CAST = {"float": "float32", "double": "float64", "half": "float16", "int": "int32",
              "long": "int64", "bool": "bool", "short": "int16"}

# np.sum / np.prod of these integer dtypes give the platform's integer.
SMALL_INTS = {"bool": "int64", "int8": "int64", "int16": "int64", "int32": "int64",
              "uint8": "uint64", "uint16": "uint64", "uint32": "uint64"}

# Binary operators of which a tuple cannot be an operand (tuple + int,
# tuple ** n raise): such an expression used as a shape is one extent.
SCALAR_OPS = (ast.Sub, ast.Pow, ast.FloorDiv, ast.Div, ast.Mod, ast.LShift, ast.RShift,
              ast.BitAnd, ast.BitOr, ast.BitXor)
# Calls that return one number.
SCALAR_CALLS = {"int", "len", "round", "math.ceil", "math.floor", "math.prod", "np.prod",
                "numpy.prod", "abs", "min", "max", "sum"}


class DictOf:
    """A dict literal, its values kept unevaluated until a constant key
    reads one (`state["pos_x"]`)."""

    def __init__(self, node, scope, env, line):
        self.node, self.scope, self.env, self.line = node, scope, env, line

    def item(self, key):
        for k, v in zip(self.node.keys, self.node.values):
            if isinstance(k, ast.Constant) and k.value == key:
                return v
        return None


class DtypeOnly:
    """An array whose dtype the source names and whose dimensions it does
    not (`np.zeros(shape, dtype=np.float32)` with a shape computed by a
    call): never a launch argument itself (no signature renders it), it
    becomes one through what fixes the dimensions, `.ravel()`,
    `.flatten()`, `.reshape(m, n)`."""

    def __init__(self, dtype):
        self.dtype = dtype

    def __repr__(self):
        return f"DtypeOnly({self.dtype})"


def weak_result(a, b):
    """The dtype NumPy gives an operation of a and b, a Python number
    taking the array's dtype where its kind fits (NEP 50)."""
    kind = lambda d: "f" if d.startswith(("float", "complex")) else "i"
    for x, y in ((a, b), (b, a)):
        if isinstance(x, compat.Num) and x.python and not (isinstance(y, compat.Num) and y.python):
            if kind(x.dtype) == "i" or kind(y.dtype) == "f":
                return y.dtype
            return "float64"
    return compat.result_dtype(a.dtype, b.dtype)


def _is_number(node):
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and \
        not isinstance(node.value, bool)


def scalar_extent(expr):
    """True when `expr`, written as an array shape, is certainly one
    number by its form alone: `2 ** n`, `n - 1`, `n * 4 + 1`, `int(x)`,
    `len(v)`, `math.ceil(...)`; a tuple cannot be the operand of these."""
    if _is_number(expr):
        return True
    if isinstance(expr, ast.BinOp):
        if isinstance(expr.op, SCALAR_OPS):
            return True
        if isinstance(expr.op, ast.Add):       # tuple + number raises
            return _is_number(expr.left) or _is_number(expr.right) or \
                scalar_extent(expr.left) or scalar_extent(expr.right)
        if isinstance(expr.op, ast.Mult):      # tuple * int repeats: both sides must be numbers
            return scalar_extent(expr.left) and scalar_extent(expr.right)
    if isinstance(expr, ast.Call):
        return compat._dotted(expr.func) in SCALAR_CALLS
    return False


def type_key(value):
    """What a signature would say of `value` (its repr where none would)."""
    try:
        return compat.render_type(value)
    except compat.Unknown:
        return repr(value)


def walk_own(func):
    """The nodes of def `func`, not looking into the defs and lambdas it holds."""
    todo = list(func.body)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))


class PublicReadings:
    """Mixin over compat.Evaluator (see the module docstring)."""

    # -- numbers -------------------------------------------------------------

    @staticmethod
    def num_binop(op, left, right):
        """compat's rule, with what NumPy does where a NumPy scalar meets a
        Python number or `/` divides integers: `np.int64(6) / 4` and
        `np.int64(6) * 0.5` are float64 (true division and a float operand
        make a float; NEP 50 keeps the NumPy scalar's dtype only where the
        Python number's kind fits)."""
        out = compat.Evaluator.num_binop(op, left, right)
        if out.python:
            return out
        dtype = out.dtype
        floats = ("float", "complex")
        if isinstance(op, ast.Div) and not dtype.startswith(floats):
            dtype = "float64"
        for x, y in ((left, right), (right, left)):
            if x.python and x.dtype.startswith(floats) and not y.dtype.startswith(floats):
                dtype = x.dtype
        return compat.Num(dtype, False, out.value)

    # -- shapes --------------------------------------------------------------

    def shape_ndim(self, expr, scope, env, line):
        try:
            return super().shape_ndim(expr, scope, env, line)
        except compat.Unknown:
            for _ in range(8):          # a name bound to such an expression (`n = 2 ** q`)
                if not isinstance(expr, ast.Name):
                    break
                binding = self.lookup(scope, expr.id, line, env)
                if binding is None or binding.kind != "assign":
                    break
                expr, scope, line = binding.value, binding.scope, binding.lineno
            if scalar_extent(expr):
                return 1
            raise

    def ev_Attribute(self, e, scope, env, line):
        if isinstance(e.value, ast.Name) and self.is_torch(e.value.id, scope) and e.attr in TORCH_DTYPES:
            return compat.DType(TORCH_DTYPES[e.attr])
        return super().ev_Attribute(e, scope, env, line)

    def ev_Dict(self, e, scope, env, line):
        return DictOf(e, scope, env, line)

    def ev_Subscript(self, e, scope, env, line):
        if isinstance(e.slice, ast.Constant) and isinstance(e.slice.value, str):
            value = self.eval(e.value, scope, env, line)
            if isinstance(value, DictOf):
                item = value.item(e.slice.value)
                if item is None:
                    raise compat.Unknown(f"key '{e.slice.value}' of a dict literal")
                return self.eval(item, value.scope, value.env, value.line)
        return super().ev_Subscript(e, scope, env, line)

    # -- calls ---------------------------------------------------------------

    def ev_Call(self, e, scope, env, line):
        name = compat._dotted(e.func) if compat._is_dotted_name(e.func) else ""
        parts = name.split(".")
        if len(parts) == 2 and self.is_torch(parts[0], scope):
            return self.torch_call(parts[1], e, scope, env, line)
        if isinstance(e.func, ast.Attribute) and e.func.attr in TORCH_SAME | set(TORCH_CAST) | {"to"}:
            found = self.tensor_method(e, scope, env, line)
            if found is not None:
                return found
        try:
            return super().ev_Call(e, scope, env, line)
        except compat.Unknown as exc:
            first = exc
        if isinstance(e.func, ast.Attribute):
            try:
                obj = self.eval(e.func.value, scope, env, line)
            except compat.Unknown:
                obj = None
            if isinstance(obj, DtypeOnly):
                return self.dtype_only_method(obj, e, scope, env, line, first)
        conv = e
        while isinstance(conv, ast.Call) and isinstance(conv.func, ast.Attribute) and \
                conv.func.attr in TORCH_SAME:     # x.to(dtype=...).contiguous()
            conv = conv.func.value
        if isinstance(conv, ast.Call) and isinstance(conv.func, ast.Attribute) and \
                conv.func.attr in ("astype", "to") and isinstance(conv.func.value, ast.Name):
            found = self.unpacked_array(conv, scope, env, line)
            if found is not None:
                return found
        found = self.guarded_return(e, scope, env, line)
        if found is not None:
            return found
        raise first

    def method_call(self, obj, attr, e, kw, scope, env, line):
        if isinstance(obj, DtypeOnly):
            return self.dtype_only_method(obj, e, scope, env, line, compat.Unknown(f".{attr}()"))
        return super().method_call(obj, attr, e, kw, scope, env, line)

    def dtype_only_method(self, obj, e, scope, env, line, first):
        attr = e.func.attr
        if attr in ("ravel", "flatten") and not e.args:
            return compat.Arr(obj.dtype, 1)
        if attr == "reshape" and e.args:
            if len(e.args) > 1:
                if any(isinstance(a, ast.Starred) for a in e.args):
                    raise first
                return compat.Arr(obj.dtype, len(e.args))
            return compat.Arr(obj.dtype, self.shape_ndim(e.args[0], scope, env, line))
        if attr in ("copy", "copy_to_host") and not e.args:
            return obj
        if attr == "astype" and e.args:
            return DtypeOnly(self.dtype_of(e.args[0], scope, env, line).name)
        raise first

    def cuda_call(self, attr, e, kw, scope, env, line):
        try:
            return super().cuda_call(attr, e, kw, scope, env, line)
        except compat.Unknown:
            if attr in ("device_array", "pinned_array", "mapped_array", "managed_array"):
                dtype_expr = self.arg(e, kw, 1, "dtype")
                if dtype_expr is not None:
                    return DtypeOnly(self.dtype_of(dtype_expr, scope, env, line).name)
            raise

    def is_torch(self, head, scope):
        if head != "torch":
            return False
        binding = scope.resolve(head)
        return binding is not None and binding.kind == "import"

    def torch_dtype(self, expr, scope, env, line, default):
        if expr is None:
            return default
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and \
                self.is_torch(expr.value.id, scope) and expr.attr in TORCH_DTYPES:
            return TORCH_DTYPES[expr.attr]
        return self.dtype_of(expr, scope, env, line).name

    def torch_call(self, attr, e, scope, env, line):
        """torch.zeros((m, n), dtype=torch.float32) and the like: a tensor
        of that dtype (torch's default float32) and as many dimensions as
        the shape has extents."""
        kw = {k.arg: k.value for k in e.keywords if k.arg}
        if attr in TORCH_MAKERS:
            args = list(e.args) if attr != "full" else list(e.args[:1])
            if "size" in kw:
                args = [kw["size"]]
            if not args:
                raise compat.Unknown(f"torch.{attr}() without a shape")
            if len(args) == 1:
                ndim = self.shape_ndim(args[0], scope, env, line)
            else:
                if any(isinstance(a, ast.Starred) for a in args):
                    raise compat.Unknown(f"torch.{attr}(*shape)")
                ndim = len(args)
            default = "float32"
            if attr == "full" and len(e.args) > 1:
                fill = self.eval(e.args[1], scope, env, line)
                if isinstance(fill, compat.Num) and fill.dtype in ("int64", "bool"):
                    default = fill.dtype
            return compat.Arr(self.torch_dtype(kw.get("dtype"), scope, env, line, default), ndim)
        if attr in TORCH_LIKE and e.args:
            base = self.eval(e.args[0], scope, env, line)
            if isinstance(base, compat.Arr):
                return compat.Arr(self.torch_dtype(kw.get("dtype"), scope, env, line, base.dtype),
                                  base.ndim)
        if attr in ("from_numpy", "as_tensor", "tensor") and e.args:
            base = self.eval(e.args[0], scope, env, line)
            if isinstance(base, compat.Arr):
                return compat.Arr(self.torch_dtype(kw.get("dtype"), scope, env, line, base.dtype),
                                  base.ndim)
        raise compat.Unknown(f"torch.{attr}()")

    def tensor_method(self, e, scope, env, line):
        """t.contiguous(), t.detach(), t.float(), t.to(dtype=...), t.to(device):
        the same dimensions, the dtype converted where one is named.  None
        when the object is not an array the evaluator knows."""
        try:
            obj = self.eval(e.func.value, scope, env, line)
        except compat.Unknown:
            return None
        if not isinstance(obj, compat.Arr):
            return None
        attr = e.func.attr
        if attr in TORCH_CAST:
            if e.args or e.keywords:
                return None
            return compat.Arr(TORCH_CAST[attr], obj.ndim, "C")
        if attr == "to":
            dtype = self.to_dtype(e, scope, env, line)
            return compat.Arr(dtype or obj.dtype, obj.ndim, "C" if dtype else obj.layout)
        return compat.Arr(obj.dtype, obj.ndim, "C" if attr == "contiguous" else obj.layout)

    def to_dtype(self, e, scope, env, line):
        """The dtype `t.to(...)` converts to, or None (a device only)."""
        kw = {k.arg: k.value for k in e.keywords if k.arg}
        if "dtype" in kw:
            return self.torch_dtype(kw["dtype"], scope, env, line, None)
        for a in e.args:
            if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and \
                    self.is_torch(a.value.id, scope) and a.attr in TORCH_DTYPES:
                return TORCH_DTYPES[a.attr]
        return None

    def unpacked_array(self, e, scope, env, line):
        """`x.astype(np.float32)` / `x.to(dtype=torch.float32)` of an `x`
        the evaluator cannot follow, in a function that unpacks its shape
        (`ny, nx = x.shape`): an array of the named dtype and as many
        dimensions as names unpacked (Python raises on any other count)."""
        if e.func.attr == "astype":
            if not e.args:
                return None
            dtype = self.dtype_of(e.args[0], scope, env, line).name
        else:
            dtype = self.to_dtype(e, scope, env, line)
            if dtype is None:
                return None
        base = e.func.value.id
        node = scope.node
        counts = set()
        for sub in ast.walk(node):
            if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and \
                    isinstance(sub.targets[0], (ast.Tuple, ast.List)) and \
                    isinstance(sub.value, ast.Attribute) and sub.value.attr == "shape" and \
                    isinstance(sub.value.value, ast.Name) and sub.value.value.id == base and \
                    not any(isinstance(t, ast.Starred) for t in sub.targets[0].elts):
                counts.add(len(sub.targets[0].elts))
        if len(counts) != 1:
            return None
        return compat.Arr(dtype, counts.pop(), "C")

    def guarded_return(self, e, scope, env, line):
        """A repository's helper whose `return expr` statements all give one
        type (a bridge such as `if not t.is_cuda: raise ...` then `return
        cuda.as_cuda_array(t.detach())`, a set-up function building a dict
        of arrays, a `match` over set-ups returning the same arrays in each
        case): that type, with the parameters bound and the locals read as
        everywhere (the last assignment before each return).  Returns that
        disagree, a bare `return`, or a body whose last statement is not a
        `return`, `raise`, `if` or `match` (those hold the returns) leave
        the call unknown.  A static method is looked up in its class."""
        target = self.bridge_function(e, scope, env)
        if target is None:
            return None
        module, func = target
        body = func.body
        returns = [n for n in walk_own(func) if isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom))]
        if not returns or any(not isinstance(r, ast.Return) or r.value is None for r in returns):
            return None
        if returns != [body[-1]] and not isinstance(body[-1], (ast.Return, ast.Raise, ast.Match, ast.If)):
            return None                 # may fall off the end: None
        values = compat._bind_call(e, func.args, False)
        fenv = compat.Env({p: (v, scope, env) for p, v in values.items()}, e, env)
        found = [self.eval(r.value, module.scopes[func], fenv, r.lineno) for r in returns]
        if len({type_key(v) for v in found}) != 1:
            raise compat.Unknown(f"the returns of {func.name}() disagree")
        return found[0]

    def function_named(self, expr, scope, env):
        """(module, def) a name calls: compat's resolution, then a def
        imported from another file of the repository (`from utils.f import g`)."""
        if not isinstance(expr, ast.Name):
            return None
        found = compat.resolve_function(self.cache, scope.module, scope, expr, env)
        if found is not None:
            return found
        binding = scope.resolve(expr.id)
        if binding is None or binding.kind != "import" or not isinstance(binding.node, ast.ImportFrom):
            return None
        other = self.import_target(scope.module, binding.node)
        inner = other.scope.lookup_local(binding.value.name) if other is not None else None
        return (other, inner.node) if inner is not None and inner.kind == "def" else None

    def import_target(self, module, node):
        return None

    def bridge_function(self, e, scope, env):
        if isinstance(e.func, ast.Name):
            return self.function_named(e.func, scope, env)
        if isinstance(e.func, ast.Attribute) and isinstance(e.func.value, ast.Name):
            binding = scope.resolve(e.func.value.id)
            if binding is not None and binding.kind == "import" and isinstance(binding.node, ast.Import):
                # `import cnn` then `cnn.init_network(...)`: the repository's module
                alias = binding.value
                other = self.import_target(scope.module, ast.ImportFrom(module=alias.name, names=[], level=0))
                inner = other.scope.lookup_local(e.func.attr) if other is not None else None
                return (other, inner.node) if inner is not None and inner.kind == "def" else None
            module = scope.module
            for node in module.tree.body:
                if isinstance(node, ast.ClassDef) and node.name == e.func.value.id:
                    for sub in node.body:
                        if isinstance(sub, ast.FunctionDef) and sub.name == e.func.attr and \
                                any(compat._dotted(d) == "staticmethod" for d in sub.decorator_list):
                            return module, sub
        return None

    # -- NumPy ---------------------------------------------------------------

    def numpy_call(self, name, e, kw, scope, env, line):
        if name in ("random.rand", "random.randn") and any(isinstance(a, ast.Starred) for a in e.args):
            # np.random.randn(*shape, n): as many dimensions as the arguments unpack to
            ndim = 0
            for a in e.args:
                if isinstance(a, ast.Starred):
                    value = self.eval(a.value, scope, env, line)
                    if not isinstance(value, compat.Tup):
                        raise compat.Unknown(f"np.{name}(*shape)")
                    ndim += len(value.items)
                else:
                    ndim += 1
            return compat.Arr("float64", ndim)
        src = e.args[0] if e.args else None
        if name in ("array", "asarray") and isinstance(src, ast.ListComp) and len(src.generators) == 1:
            # np.array([int(s) for s in parts]): one dimension of the element's
            # type, when the element types without the loop variable.
            item = self.eval(src.elt, scope, env, line)
            if isinstance(item, compat.Num):
                dtype_expr = kw.get("dtype") or (e.args[1] if len(e.args) > 1 else None)
                dtype = self.dtype_of(dtype_expr, scope, env, line).name if dtype_expr is not None \
                    else item.dtype
                return compat.Arr(dtype, 1)
        try:
            return super().numpy_call(name, e, kw, scope, env, line)
        except compat.Unknown as exc:
            first = exc
        if name == "fromfunction" and len(e.args) >= 2:
            return compat.Arr(self.fromfunction_dtype(e, kw, scope, env, first),
                              self.shape_ndim(e.args[1], scope, env, line))
        if name == "where" and len(e.args) == 3:
            # np.where(cond, x, y): the broadcast of the three, x and y's promoted dtype.
            values = [self.condition(e.args[0], scope, env, line)] + \
                [self.eval(a, scope, env, line) for a in e.args[1:]]
            arrays = [v for v in values if isinstance(v, compat.Arr)]
            if not arrays or not all(isinstance(v, (compat.Arr, compat.Num)) for v in values[1:]):
                raise first
            return compat.Arr(weak_result(values[1], values[2]), max(a.ndim for a in arrays))
        if name == "random.choice" and e.args:
            # np.random.choice(a, size): elements of a; an int a draws from arange(a).
            size = self.arg(e, kw, 1, "size")
            if size is None:
                raise first
            src = e.args[0]
            if isinstance(src, (ast.List, ast.Tuple)):
                _ndim, dtype = self.literal_shape(src, scope, env, line)
            else:
                base = self.eval(src, scope, env, line)
                dtype = base.dtype if isinstance(base, (compat.Arr, compat.Num)) else None
                if dtype is None:
                    raise first
            return compat.Arr(dtype, self.shape_ndim(size, scope, env, line))
        if name in ("sum", "prod", "max", "min", "amax", "amin", "nanmax", "nanmin") and \
                len(e.args) == 1 and not kw:
            # a reduction over the whole array: one NumPy scalar; sum and prod
            # widen integers to the platform's (int64 / uint64).
            base = self.eval(e.args[0], scope, env, line)
            if not isinstance(base, compat.Arr):
                raise first
            dtype = base.dtype
            if name in ("sum", "prod") and dtype in SMALL_INTS:
                dtype = SMALL_INTS[dtype]
            return compat.Num(dtype, False)
        if name in ("zeros", "ones", "empty", "full") and \
                self.arg(e, kw, 2 if name == "full" else 1, "dtype") is not None:
            return DtypeOnly(self.dtype_of(self.arg(e, kw, 2 if name == "full" else 1, "dtype"),
                                           scope, env, line).name)
        if name == "append" and len(e.args) == 2 and "axis" not in kw:
            # np.append(a, b) without an axis flattens both: one dimension.
            a, b = (self.eval(x, scope, env, line) for x in e.args)
            if not all(isinstance(v, (compat.Arr, compat.Num)) for v in (a, b)):
                raise first
            return compat.Arr(compat.result_dtype(a.dtype, b.dtype), 1)
        raise first

    def condition(self, expr, scope, env, line):
        """A comparison of arrays (`grid > 0`) as a bool array of the
        operands' broadcast dimensions."""
        if isinstance(expr, ast.Compare):
            values = [self.eval(x, scope, env, line) for x in [expr.left] + expr.comparators]
            arrays = [v for v in values if isinstance(v, compat.Arr)]
            if arrays:
                return compat.Arr("bool", max(a.ndim for a in arrays))
        return self.eval(expr, scope, env, line)

    def fromfunction_dtype(self, e, kw, scope, env, first):
        """np.fromfunction(f, shape, dtype=float) calls f once with index
        arrays of that dtype; the result is what f returns.  Read where f
        (or `functools.partial(f, ...)`) is one `return expr`: a comparison
        is bool; arithmetic of the float64 index arrays (and numbers,
        `np.sin` ...) is float64.  Anything else is not guessed."""
        dtype = self.dtype_of(kw["dtype"], scope, env, None).name if "dtype" in kw else "float64"
        fn = e.args[0]
        if isinstance(fn, ast.Call) and compat._dotted(fn.func) in ("partial", "functools.partial") \
                and fn.args:
            fn = fn.args[0]
        target = self.function_named(fn, scope, env)
        if target is None:
            raise first
        body = [st for st in target[1].body
                if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]
        if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
            raise first
        value = body[0].value
        if isinstance(value, ast.Compare) or isinstance(value, ast.BoolOp) and \
                all(isinstance(v, ast.Compare) for v in value.values):
            return "bool"
        if dtype == "float64" and isinstance(value, (ast.BinOp, ast.UnaryOp)):
            return "float64"
        raise first

/* lower_isinstance.c - isinstance(x, classes) in kernels, as Numba's
 * overload of it (numba/cuda/cpython/builtins.py, ol_isinstance) decides
 * it: from x's type alone, at compile time.
 *
 * The classes are resolved here, once, into types: Python's int, float,
 * complex and bool are Numba's int64, float64, complex128 and boolean
 * (as_numba_type), str is unicode_type, a NumPy or Numba scalar type
 * (np.float32, numba.int16, nv_bfloat16) is itself; bytes and tuple match
 * any value of their kind; list, dict, set and range match nothing a kernel
 * holds.  The result is OP_ISINSTANCE with the class (or a tuple of them)
 * in tyimm; typing/infer_is.c prunes on it where x's type is known before
 * typing and folds it into a const.bool after. */
#include "lower/lower_internal.h"

/* A builtin class by name (not shadowed by a local or global), or NULL. */
static const Type *builtin_class(Lower *L, const Node *n) {
  static const char *const never[] = {"list", "dict", "set", "frozenset", "range", NULL};
  if (n->kind != ND_NAME || ir_local_find(L->f, n->name) >= 0 || ir_global_find(L->p, n->name))
    return NULL;
  const char *s = n->name;
  if (!strcmp(s, "int")) return TY_I64_T;
  if (!strcmp(s, "float")) return TY_F64_T;
  if (!strcmp(s, "complex")) return TY_C128_T;
  if (!strcmp(s, "bool")) return TY_BOOL_T;
  if (!strcmp(s, "str")) return TY_STR_T;
  if (!strcmp(s, "bytes")) return TY_BYTES_T;
  if (!strcmp(s, "tuple")) return ty_tuple(L->p->types, NULL, 0);
  for (int i = 0; never[i]; i++)
    if (!strcmp(s, never[i]))
      return TY_VOID_T;
  return NULL;
}

static const Type *class_of(Lower *L, const Node *n) {
  const Type *t = builtin_class(L, n);
  if (t)
    return t;
  const char *path = n->kind == ND_NAME || n->kind == ND_ATTR ? ir_resolve_path(L->lp, L->f, n) : NULL;
  if (path && lower_bf16_is_type(path))
    return TY_BF16_T;
  t = ir_dtype_of(L->lp, L->f, n);
  if (t && ty_is_scalar(t))
    return t;
  diag_error(L->d, E_UNSUPPORTED, n->loc,
             "use int, float, complex, bool, str, bytes, tuple, a NumPy or Numba scalar type "
             "(np.float32, numba.int32, nv_bfloat16) or a tuple of them",
             "isinstance() with class '%s' is not supported in kernels", ir_dotted(L->a, n));
  return NULL;
}

int lower_isinstance(Lower *L, const Node *call) {
  if (call->args.len != 2 || call->args2.len) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "isinstance() takes exactly 2 arguments (%d given)",
               call->args.len + call->args2.len);
    return -1;
  }
  const Node *c = call->args.data[1];
  const Type *cls = NULL;
  if (c->kind == ND_TUPLE) { /* isinstance(x, (int, float)) */
    const Type *el[16];
    if (c->args.len > 16) {
      diag_error(L->d, E_UNSUPPORTED, c->loc, NULL, "isinstance() takes at most 16 classes");
      return -1;
    }
    for (int i = 0; i < c->args.len; i++)
      if (!(el[i] = class_of(L, c->args.data[i])))
        return -1;
    cls = ty_tuple(L->p->types, el, c->args.len);
    if (c->args.len == 0)
      cls = TY_VOID_T; /* isinstance(x, ()) is False */
  } else if (!(cls = class_of(L, c))) {
    return -1;
  }
  int x = lower_expr(L, call->args.data[0]);
  if (x < 0)
    return -1;
  int id = lower_emit1(L, OP_ISINSTANCE, call->loc, x);
  lower_inst(L, id)->tyimm = cls;
  return id;
}

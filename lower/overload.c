/* overload.c - `@numba.extending.overload(f)` of a module-level Python
 * function f, in the simple form real code uses: the implementation's body
 * defines one nested function and returns it,
 *
 *     @overload(myabs)
 *     def ov_myabs(x):
 *         def impl(x):
 *             return x if x >= 0 else -x
 *         return impl
 *
 * numba-cuda compiles `impl` when a kernel calls `myabs`; kjit makes that
 * nested def the device function `myabs`.  An implementation that runs
 * Python while compiling (inspecting the argument types, choosing among
 * several impls, returning a lambda) is refused by name, as are
 * @intrinsic (llvmlite IR builders) and the other extension APIs, at the
 * call that would need them (lower_expr.c calls ir_extension_error), so a
 * file whose kernels do not use them still compiles. */
#include "lower/lower_internal.h"

static const char *const overloads[] = {"numba.extending.overload", "numba.core.extending.overload",
                                        "numba.cuda.extending.overload"};
static const char *const refused[] = {
    "numba.extending.intrinsic",          "numba.core.extending.intrinsic",
    "numba.cuda.extending.intrinsic",     "numba.extending.overload_method",
    "numba.core.extending.overload_method", "numba.extending.overload_attribute",
    "numba.core.extending.overload_attribute", "numba.extending.lower_builtin",
    "numba.core.imputils.lower_builtin",  "numba.extending.type_callable",
    "numba.core.extending.type_callable", "numba.core.typing.templates.infer_global",
};

static const char *decorator_path(LowerProg *lp, const Node *d) {
  return d ? ir_resolve_path(lp, NULL, d->kind == ND_CALL ? d->lhs : d) : NULL;
}

static bool in_list(const char *path, const char *const *list, size_t n) {
  for (size_t i = 0; path && i < n; i++)
    if (strcmp(path, list[i]) == 0)
      return true;
  return false;
}

/* The extension decorator of module def `name` that needs a Python
 * interpreter while compiling ("intrinsic", "overload_method", ...), or
 * NULL. */
static const char *extension_kind(LowerProg *lp, const char *name) {
  const Module *m = lp->p->ast;
  for (int i = 0; i < m->funcs.len; i++) {
    const Func *fn = m->funcs.data[i];
    if (strcmp(fn->name, name) != 0)
      continue;
    for (int k = 0; k < fn->decorators.len; k++) {
      const char *path = decorator_path(lp, fn->decorators.data[k]);
      if (in_list(path, refused, sizeof refused / sizeof *refused))
        return strrchr(path, '.') + 1;
    }
  }
  return NULL;
}

/* The @overload def whose target is `name` (the last one), or NULL. */
static const Func *overload_of(LowerProg *lp, const char *name) {
  const Module *m = lp->p->ast;
  const Func *found = NULL;
  for (int i = 0; i < m->funcs.len; i++)
    for (int k = 0; k < m->funcs.data[i]->decorators.len; k++) {
      const Node *d = m->funcs.data[i]->decorators.data[k];
      const Node *t = d && d->kind == ND_CALL && d->args.len ? d->args.data[0] : NULL;
      if (t && t->kind == ND_NAME && strcmp(t->name, name) == 0 &&
          in_list(decorator_path(lp, d), overloads, sizeof overloads / sizeof *overloads))
        found = m->funcs.data[i];
    }
  return found;
}

bool ir_extension_error(LowerProg *lp, const char *name, SrcLoc call) {
  const char *kind = extension_kind(lp, name);
  const Func *ov = kind ? NULL : overload_of(lp, name);
  if (kind)
    diag_error(lp->d, E_UNSUPPORTED, call, "write it as a device function: @cuda.jit(device=True)",
               "'%s' is an @%s, which needs a Python interpreter while compiling: not supported",
               name, kind);
  else if (ov)
    diag_error(lp->d, E_UNSUPPORTED, call,
               "write the implementation as one nested def returned as it is: "
               "def impl(x): ...; return impl",
               "'%s' is overloaded by '%s', whose implementation runs Python while compiling "
               "(it inspects the types or chooses among implementations): not supported",
               name, ov->name);
  return kind || ov;
}

/* The nested def the implementation returns: its body is the def (after an
 * optional docstring) and `return NAME` of it; NULL otherwise. */
static const Func *returned_impl(const Func *ov) {
  const Func *impl = NULL;
  const NodeList *b = &ov->body;
  int i = 0;
  if (i < b->len && b->data[i] && b->data[i]->kind == ND_EXPR_STMT && b->data[i]->lhs &&
      b->data[i]->lhs->kind == ND_STR)
    i++; /* the docstring */
  if (i + 2 != b->len || !b->data[i] || b->data[i]->kind != ND_FUNCDEF)
    return NULL;
  impl = b->data[i]->func;
  const Node *r = b->data[i + 1];
  if (!impl || !r || r->kind != ND_RETURN || !r->lhs || r->lhs->kind != ND_NAME ||
      strcmp(r->lhs->name, impl->name) != 0)
    return NULL;
  return impl;
}

static bool is_module_func(const Module *m, const char *name) {
  for (int i = 0; i < m->funcs.len; i++)
    if (strcmp(m->funcs.data[i]->name, name) == 0)
      return true;
  return false;
}

/* The device function an @overload def gives, or NULL (reported when the
 * form is not the simple one). */
static Func *overload_impl(LowerProg *lp, const Func *ov, const Node *d) {
  const Node *target = d->kind == ND_CALL && d->args.len >= 1 ? d->args.data[0] : NULL;
  if (!target || target->kind != ND_NAME || !is_module_func(lp->p->ast, target->name))
    return NULL; /* np.foo, math.foo: kjit's own implementation stays */
  const Func *impl = returned_impl(ov);
  if (!impl)
    return NULL; /* reported where a kernel calls the target */
  Func *g = arena_alloc(lp->a, sizeof *g);
  *g = *impl;
  g->name = target->name; /* calls of the overloaded function reach it */
  g->decorators = (NodeList){0};
  return g;
}

int ir_lower_overloads(LowerProg *lp, Func **out, int max) {
  const Module *m = lp->p->ast;
  int n = 0;
  for (int i = 0; i < m->funcs.len; i++) {
    const Func *fn = m->funcs.data[i];
    for (int k = 0; k < fn->decorators.len && n < max; k++) {
      const Node *d = fn->decorators.data[k];
      if (!in_list(decorator_path(lp, d), overloads, sizeof overloads / sizeof *overloads))
        continue;
      Func *g = overload_impl(lp, fn, d);
      if (g)
        out[n++] = g;
    }
  }
  return n;
}

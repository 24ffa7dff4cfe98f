/* lower_varargs.c - `*args` parameters of device functions.
 *
 * Numba types *args as a tuple of the extra positional arguments, one
 * specialization per count and types.  kjit does the same: the star
 * parameter is an ordinary parameter local, and each call site packs its
 * extra arguments into one TUPLE for it, so `len(args)`, `args[0]` and
 * `for v in args` are the tuple operations that already exist.  A bare `*`
 * (keyword-only parameters after it) is dropped from the def, remembering
 * where it was, so calls fill those parameters by keyword or default only.
 * Kernels with *args, **kwargs and parameters after *args are rejected by
 * name. */
#include <limits.h>

#include "lower/lower_internal.h"

int ir_vararg_index(const Func *fn) {
  if (!fn || fn->params.len == 0)
    return -1;
  const Param *last = &fn->params.data[fn->params.len - 1];
  return last->star && !last->dstar && strcmp(last->name, "*") != 0 ? fn->params.len - 1 : -1;
}

bool ir_check_star_param(LowerProg *lp, const IrFunc *f, const Func *fn, int i) {
  const Param *pm = &fn->params.data[i];
  if (!f->is_device || f->is_ufunc)
    diag_error(lp->d, E_UNSUPPORTED, pm->loc,
               "declare each parameter by name (device functions may take *args)",
               "*args and **kwargs are not supported in kernels");
  else if (pm->dstar)
    diag_error(lp->d, E_UNSUPPORTED, pm->loc, "declare each parameter by name",
               "**kwargs is not supported");
  else if (i != fn->params.len - 1)
    diag_error(lp->d, E_UNSUPPORTED, pm->loc, "declare the parameters after it as ordinary ones",
               "keyword-only parameters after *args are not supported");
  else
    return true;
  return false;
}

const Func *ir_strip_kwonly(LowerProg *lp, const Func *fn) {
  int at = -1;
  for (int i = 0; i < fn->params.len && at < 0; i++)
    if (fn->params.data[i].star && strcmp(fn->params.data[i].name, "*") == 0)
      at = i;
  if (at < 0)
    return fn;
  Func *g = arena_alloc(lp->a, sizeof *g);
  *g = *fn;
  g->params.data = NULL;
  g->params.len = g->params.cap = 0;
  for (int i = 0; i < fn->params.len; i++)
    if (i != at)
      vec_push(lp->a, &g->params, fn->params.data[i]);
  g->has_kwonly = true;
  g->kwonly = at;
  return g;
}

int ir_npositional(const Func *fn, int np) {
  if (ir_vararg_index(fn) >= 0)
    return INT_MAX;
  return fn && fn->has_kwonly && fn->kwonly < np ? fn->kwonly : np;
}

int lower_varargs(Lower *L, const Node *call, int va) {
  int n = call->args.len > va ? call->args.len - va : 0;
  int *elems = arena_alloc(L->a, sizeof(int) * (size_t)(n + 1));
  for (int k = 0; k < n; k++)
    elems[k] = lower_expr(L, call->args.data[va + k]);
  return lower_emit(L, OP_TUPLE, call->loc, elems, n);
}

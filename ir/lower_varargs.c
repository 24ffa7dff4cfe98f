/* lower_varargs.c - `*args` parameters of device functions.
 *
 * Numba types *args as a tuple of the extra positional arguments, one
 * specialization per count and types.  kjit does the same: the star
 * parameter is an ordinary parameter local, and each call site packs its
 * extra arguments into one TUPLE for it, so `len(args)`, `args[0]` and
 * `for v in args` are the tuple operations that already exist.  Kernels
 * (whose parameters come from a signature or a launch), **kwargs and
 * keyword-only parameters are rejected by name. */
#include "ir/lower_internal.h"

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
  else if (strcmp(pm->name, "*") == 0 || i != fn->params.len - 1)
    diag_error(lp->d, E_UNSUPPORTED, pm->loc, "declare the parameters after it as ordinary ones",
               "keyword-only parameters are not supported");
  else
    return true;
  return false;
}

int lower_varargs(Lower *L, const Node *call, int va) {
  int n = call->args.len > va ? call->args.len - va : 0;
  int *elems = arena_alloc(L->a, sizeof(int) * (size_t)(n + 1));
  for (int k = 0; k < n; k++)
    elems[k] = lower_expr(L, call->args.data[va + k]);
  return lower_emit(L, OP_TUPLE, call->loc, elems, n);
}

/* lower_libdevice.c - lowering of cuda.libdevice.<f>(...) (`from numba.cuda
 * import libdevice`): one OP_LIBDEVICE per call, ival the function of
 * ir/libdevice_fns.h; typing (ir/infer_libdevice.c) converts the operands
 * to the declared types.  Paths are canonical ("numba.cuda.libdevice.sin"). */
#include "ir/libdevice_fns.h"
#include "lower/lower_internal.h"

static const char *ld_name(int i) { return ir_libdevice_info[i].name; }

/* The nearest libdevice name, for the hint of a misspelt one. */
static const char *closest(Lower *L, const char *m) {
  const char **names = arena_alloc(L->a, sizeof(char *) * LD__COUNT);
  for (int i = 0; i < LD__COUNT; i++)
    names[i] = ld_name(i);
  return ir_closest(m, names, LD__COUNT);
}

/* -2: path is not in numba.cuda.libdevice. */
int lower_libdevice_call(Lower *L, const char *path, const Node *call) {
  static const char ns[] = "numba.cuda.libdevice.";
  if (strncmp(path, ns, sizeof ns - 1) != 0)
    return -2;
  const char *m = path + sizeof ns - 1, *name = ir_dotted(L->a, call->lhs);
  int fn = ir_libdevice_find(m);
  if (fn < 0) {
    const char *near = closest(L, m);
    diag_error(L->d, E_NOATTR, call->lhs->loc, near ? arena_printf(L->a, "did you mean '%s'?", near) : NULL,
               "module 'libdevice' has no attribute '%s'", m);
    return -1;
  }
  int n = ir_libdevice_nparams(fn);
  if (call->args2.len || call->args.len != n) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "%s() takes exactly %d argument%s (%d given)%s", name,
               n, n == 1 ? "" : "s", call->args.len + call->args2.len,
               call->args2.len ? ", positionally" : "");
    return -1;
  }
  int args[4];
  for (int i = 0; i < n; i++)
    args[i] = lower_expr(L, call->args.data[i]);
  int v = lower_emit(L, OP_LIBDEVICE, call->loc, args, n);
  lower_inst(L, v)->ival = fn;
  return v;
}

/* lower_npmath.c - lowering of NumPy ufuncs on scalars (np.sin(x),
 * np.maximum(a, b)...): each becomes one OP_NPUFUNC (ir/npmath.h); typing
 * (ir/infer_npmath.c) picks the loop.  Paths are canonical ("numpy.sin"). */
#include "lower/lower_internal.h"
#include "ir/npmath.h"

/* Positional operands only: NumPy's out= and the other ufunc keywords
 * (where=, dtype=, casting=) need arrays, which kernels do not allocate. */
int lower_np_ufunc(Lower *L, int u, const Node *call) {
  const char *name = ir_dotted(L->a, call->lhs);
  int n = ir_npufunc_info[u].nin;
  if (call->args2.len) {
    const Node *kw = call->args2.data[0];
    diag_error(L->d, E_ARITY, kw->loc, "pass the operands only and assign the result",
               "%s() takes no keyword arguments in kernels", name);
    return -1;
  }
  if (call->args.len != n) {
    diag_error(L->d, E_ARITY, call->loc,
               call->args.len > n ? "an out argument is not supported: assign the result" : NULL,
               "%s() takes exactly %d argument%s (%d given)", name, n, n == 1 ? "" : "s",
               call->args.len);
    return -1;
  }
  int args[2];
  for (int i = 0; i < n; i++)
    args[i] = lower_expr(L, call->args.data[i]);
  int v = lower_emit(L, OP_NPUFUNC, call->loc, args, n);
  lower_inst(L, v)->ival = u;
  return v;
}

/* int.bit_count(): numba-cuda defines it as cuda.popc(i) (the operand's
 * type; typing rejects non-integers).  -2: not a method handled here. */
int lower_int_method(Lower *L, const Node *call) {
  const Node *c = call->lhs;
  if (!c->name || strcmp(c->name, "bit_count") != 0)
    return -2;
  if (call->args.len || call->args2.len) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "bit_count() takes no arguments");
    return -1;
  }
  int base = lower_expr(L, c->lhs);
  if (base < 0)
    return -1;
  int v = lower_emit(L, OP_INTRINSIC, call->loc, &base, 1);
  lower_inst(L, v)->ival = IN_POPC;
  return v;
}

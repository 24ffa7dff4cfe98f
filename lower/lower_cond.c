/* lower_cond.c - branching on a condition, operand by operand.
 *
 * `if a and b:` jumps on a, then on b, as CPython's bytecode does (and so
 * Numba's IR): no value of `a and b` is formed.  Each operand is then its
 * own cbr, which typing can decide alone: `if lo is not None and x < lo:`
 * on a None lo drops the body before typing (ir/infer_is.c), as Numba's
 * branch pruning does.  Used by if, while and conditional expressions. */
#include "lower/lower_internal.h"

void lower_branch(Lower *L, const Node *c, int t, int f, SrcLoc loc) {
  if (c && c->kind == ND_BOOLOP && c->args.len > 0) {
    for (int i = 0; i + 1 < c->args.len; i++) {
      int next = lower_new_block(L);
      if (c->op == AOP_AND)
        lower_branch(L, c->args.data[i], next, f, loc);
      else
        lower_branch(L, c->args.data[i], t, next, loc);
      lower_set_block(L, next);
    }
    lower_branch(L, c->args.data[c->args.len - 1], t, f, loc);
    return;
  }
  if (c && c->kind == ND_UNARY && c->op == AOP_NOT && c->lhs && c->lhs->kind == ND_BOOLOP) {
    lower_branch(L, c->lhs, f, t, loc); /* not (a and b): the targets swap */
    return;
  }
  lower_cbr(L, lower_truth(L, lower_expr(L, c), c ? c->loc : loc), t, f, loc);
}

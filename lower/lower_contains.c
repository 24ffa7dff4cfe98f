/* lower_contains.c - small Python features lowered to existing ops:
 * `x in (a, b, c)` / `not in`, pow(a, b), the scalar methods Numba has
 * beyond .conjugate() (int.bit_count()), and default parameter values at
 * call sites.  Part of lowering (AST -> generic IR); nothing here is typed:
 * each construct becomes ops whose typing rules already exist. */
#include "lower/lower_internal.h"

/* ------------------------------------------------------- containment -- */

/* x in (a, b, c) is (x == a) | (x == b) | (x == c): Python compares in
 * order and stops at the first match, and number comparisons have no side
 * effects, so evaluating all of them gives the same answer.  A tuple whose
 * length lowering does not know goes through contains_loop. */
/* x in t where lowering does not know t's length (a tuple variable, *args,
 * a 1-d array): found = False; k = 0; while k < len(t): found |= x == t[k];
 * k += 1.  t[k] with a run-time k is an element of an array or of a tuple
 * of one element type (TUPLE_INDEX), as for `for v in t`. */
static int contains_loop(Lower *L, int x, int t, SrcLoc loc) {
  int found = lower_temp(L, loc), k = lower_temp(L, loc);
  int f0 = lower_emit0(L, OP_CONST_BOOL, loc);
  lower_inst(L, f0)->type = TY_BOOL_T;
  lower_store(L, found, f0, loc);
  lower_store(L, k, lower_const_int(L, 0, loc), loc);
  int n = lower_emit1(L, OP_ARRAY_SHAPE, loc, t);
  lower_inst(L, n)->ival = -2; /* len() */
  int head = lower_new_block(L), body = lower_new_block(L), done = lower_new_block(L);
  lower_br(L, head, loc);
  lower_set_block(L, head);
  lower_cbr(L, lower_emit2(L, OP_LT, loc, lower_load(L, k, loc), n), body, done, loc);
  lower_set_block(L, body);
  int ki = lower_load(L, k, loc);
  int eq = lower_emit2(L, OP_EQ, loc, x, lower_emit2(L, OP_ARRAY_LOAD, loc, t, ki));
  lower_store(L, found, lower_emit2(L, OP_BITOR, loc, lower_load(L, found, loc), eq), loc);
  int next = lower_emit2(L, OP_ADD, loc, ki, lower_const_int(L, 1, loc));
  lower_inst(L, next)->ival = 1; /* a range counter: no wrap */
  lower_store(L, k, next, loc);
  lower_br(L, head, loc);
  lower_set_block(L, done);
  return lower_load(L, found, loc);
}

int lower_contains(Lower *L, bool negate, int x, int t, SrcLoc loc) {
  if (x < 0 || t < 0)
    return -1;
  const Inst *tup = lower_inst(L, t);
  if (tup->op != OP_TUPLE) {
    int r = contains_loop(L, x, t, loc);
    return negate ? lower_emit1(L, OP_NOT, loc, r) : r;
  }
  int n = tup->nargs, r;
  const int *elems = tup->args;
  if (n == 0) {
    r = lower_emit0(L, OP_CONST_BOOL, loc);
    lower_inst(L, r)->type = TY_BOOL_T;
  } else {
    r = lower_emit2(L, OP_EQ, loc, x, elems[0]);
    for (int i = 1; i < n; i++)
      r = lower_emit2(L, OP_BITOR, loc, r, lower_emit2(L, OP_EQ, loc, x, elems[i]));
  }
  return negate ? lower_emit1(L, OP_NOT, loc, r) : r;
}

/* -------------------------------------------------------------- pow() -- */

/* pow(a, b) is a ** b (Numba types the builtin as the operator); Numba has
 * no three-argument pow. */
int lower_pow_call(Lower *L, const Node *call) {
  if (call->args2.len) {
    diag_error(L->d, E_ARITY, call->args2.data[0]->loc, "pass the base and exponent by position",
               "pow() takes no keyword arguments");
    return -1;
  }
  if (call->args.len == 3) {
    diag_error(L->d, E_NOTYET, call->loc, "compute (a ** b) % m, or square and reduce in a loop",
               "pow() with a modulus (three arguments) is not supported by Numba");
    return -1;
  }
  if (call->args.len != 2) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "pow() takes 2 arguments (%d given)",
               call->args.len);
    return -1;
  }
  int a = lower_expr(L, call->args.data[0]);
  int b = lower_expr(L, call->args.data[1]);
  return lower_emit2(L, OP_POW, call->loc, a, b);
}

/* ---------------------------------------------------- scalar methods -- */

/* x.bit_count() is cuda.popc(x), as numba-cuda implements it (same result
 * type: the integer's own).  float.is_integer() and the other methods of
 * Python numbers are not in Numba: rejected by name.  -2: not one of these. */
int lower_scalar_method(Lower *L, const Node *call) {
  const Node *c = call->lhs;
  if (!c->name)
    return -2;
  if (strcmp(c->name, "is_integer") == 0 || strcmp(c->name, "as_integer_ratio") == 0 ||
      strcmp(c->name, "bit_length") == 0 || strcmp(c->name, "hex") == 0 ||
      strcmp(c->name, "to_bytes") == 0) {
    lower_expr(L, c->lhs);
    diag_error(L->d, E_UNSUPPORTED, c->loc,
               strcmp(c->name, "is_integer") == 0 ? "test x == math.floor(x)" : NULL,
               "the method '.%s()' is not supported by Numba", c->name);
    return -1;
  }
  if (strcmp(c->name, "bit_count") != 0)
    return -2;
  int x = lower_expr(L, c->lhs);
  if (call->args.len || call->args2.len) {
    diag_error(L->d, E_ARITY, call->loc, NULL, "bit_count() takes no arguments");
    return -1;
  }
  int v = lower_emit1(L, OP_INTRINSIC, call->loc, x);
  lower_inst(L, v)->ival = IN_POPC;
  return v;
}

/* -------------------------------------------------- default arguments -- */

/* Python evaluates a default once, at the def, in module scope: kjit takes
 * compile-time constants (what ir_fold folds) and None. */
bool ir_check_default(LowerProg *lp, const Param *pm) {
  IrGlobal g;
  const char *why = NULL;
  if (pm->deflt->kind == ND_NONE || ir_fold(lp, NULL, pm->deflt, &g, &why))
    return true;
  diag_error(lp->d, E_NOTCONST, pm->deflt->loc,
             "use a constant (a number, a bool, a tuple of them, a module constant) or None",
             "the default value of '%s' is not a compile-time constant%s%s", pm->name,
             why ? ": " : "", why ? why : "");
  return false;
}

int lower_default_arg(Lower *L, const Param *pm) {
  IrGlobal g;
  if (pm->deflt->kind != ND_NONE && ir_fold(L->lp, NULL, pm->deflt, &g, NULL))
    return lower_global(L, &g, pm->deflt->loc);
  int v = lower_emit0(L, OP_CONST_NONE, pm->deflt->loc); /* checked at the def */
  lower_inst(L, v)->type = TY_NONE_T;
  return v;
}

/* infer_is.c - Python's `is` / `is not` and Numba's branch pruning on types.
 *
 * Numba's rule (its generic `is`): operands of different types are never
 * identical; of one immutable type, `is` is `==`; None is None.  So where an
 * operand's type is none, or the types differ, the answer is known from the
 * types alone.  Numba prunes such branches before typing (`if y is None:`
 * on a parameter that got None, or a number), so the untaken branch is
 * never typed; ir_prune_type_branches does the same on a specialization's
 * clone before its unreachable blocks are dropped.  After typing,
 * ir_resolve_is rewrites every IS/ISNOT into eq/ne or a const.bool, so
 * codegen never sees them.  Comparisons of ints known before typing
 * (len() of a tuple parameter, .ndim of an array one) are pruned too, as
 * Numba's semantic-constant rewrite lets it.  Invariant: only a constant,
 * a variable assigned one constant, or a parameter read that no assignment
 * to it can precede has a type known before typing.  isinstance(x, cls)
 * (lower_isinstance.c) is decided the same way: pruned where x's type is
 * known before typing, folded into a const.bool after. */
#include "typing/typing_internal.h"

/* 1: identical, 0: not, -1: only known at run time (same type with data).
 * None, a function and a dtype are each the one value of their type. */
static int identity(const Type *a, const Type *b) {
  if (a != b)
    return 0;
  return a->kind == TY_NONE || a->kind == TY_FUNC || a->kind == TY_DTYPE ? 1 : -1;
}

const Type *ir_infer_is(Infer *inf, int idx, const Type **need) {
  (void)need; /* operands keep their types: equal ones compare as they are */
  const Inst *in = &inf->f->insts.data[idx];
  const Type *a = inf->f->insts.data[in->args[0]].type;
  const Type *b = inf->f->insts.data[in->args[1]].type;
  if (!a || !b)
    return NULL;
  if (a == b && (a->kind == TY_ARRAY || a->kind == TY_STR))
    return ir_infer_fail(inf, idx, E_TY_OPERANDS,
                         a->kind == TY_ARRAY ? "compare the elements or the shapes instead" : NULL,
                         "'%s' between two %s values is not supported",
                         in->op == OP_IS ? "is" : "is not", ir_infer_tname(inf, a));
  return TY_BOOL_T;
}

/* ---------------------------------------------------------- isinstance -- */

/* Numba's ol_isinstance takes only variables of these types (numbers,
 * bfloat16 among them, booleans, tuples, arrays, None, str, bytes). */
static bool isinstance_var(const Type *t) {
  return ty_is_number(t) || t->kind == TY_BF16 || t->kind == TY_TUPLE || t->kind == TY_ARRAY ||
         t->kind == TY_NONE || t->kind == TY_STR || t->kind == TY_BYTES;
}

/* Whether a value of type v is an instance of class c (lower_isinstance.c's
 * encoding): the type itself, bytes and the empty tuple for any of their
 * kind, VOID for none. */
static bool instance_of(const Type *v, const Type *c) {
  if (c->kind == TY_TUPLE && c->nelems == 0)
    return v->kind == TY_TUPLE;
  if (c->kind == TY_BYTES)
    return v->kind == TY_BYTES;
  return v == c;
}

static bool isinstance_of(const Type *v, const Type *cls) {
  if (cls->kind == TY_TUPLE && cls->nelems > 0) {
    for (int i = 0; i < cls->nelems; i++)
      if (instance_of(v, cls->elems[i]))
        return true;
    return false;
  }
  return instance_of(v, cls);
}

const Type *ir_infer_isinstance(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *t = inf->f->insts.data[in->args[0]].type;
  if (!t || t->kind == TY_UNKNOWN)
    return NULL;
  if (!isinstance_var(t))
    return ir_infer_fail(inf, idx, E_TY_OPERANDS, NULL,
                         "isinstance() does not support variables of type \"%s\"",
                         ir_infer_tname(inf, t));
  return TY_BOOL_T;
}

/* ------------------------------------------------------------- pruning -- */

static const Inst *terminator(const IrFunc *f, int b) {
  const IrBlock *blk = &f->blocks.data[b];
  return blk->insts.len ? &f->insts.data[blk->insts.data[blk->insts.len - 1]] : NULL;
}

static bool stores_to(const IrFunc *f, int b, int local, int upto) {
  const IrBlock *blk = &f->blocks.data[b];
  for (int k = 0; k < blk->insts.len && k < upto; k++) {
    const Inst *in = &f->insts.data[blk->insts.data[k]];
    if (in->op == OP_STORE && in->local == local)
      return true;
  }
  return false;
}

static void reach(const IrFunc *f, int b, bool *seen) {
  if (b < 0 || b >= f->blocks.len || seen[b])
    return;
  seen[b] = true;
  const Inst *t = terminator(f, b);
  if (t && (t->op == OP_BR || t->op == OP_CBR))
    reach(f, t->target, seen);
  if (t && t->op == OP_CBR)
    reach(f, t->target2, seen);
}

/* Block b is reached only on paths where parameter p still holds the
 * argument: no block that assigns p leads to it. */
static bool param_intact(Infer *inf, int b, int p) {
  const IrFunc *f = inf->f;
  bool *after = arena_alloc(inf->c->arena, (size_t)f->blocks.len + 1);
  for (int s = 0; s < f->blocks.len; s++) {
    const Inst *t = terminator(f, s);
    if (!t || !stores_to(f, s, p, 1 << 30))
      continue;
    if (t->op == OP_BR || t->op == OP_CBR)
      reach(f, t->target, after);
    if (t->op == OP_CBR)
      reach(f, t->target2, after);
  }
  return !after[b];
}

static int position(const IrFunc *f, int b, int v) {
  const IrBlock *blk = &f->blocks.data[b];
  for (int k = 0; k < blk->insts.len; k++)
    if (blk->insts.data[k] == v)
      return k;
  return -1;
}

/* A variable assigned once, a constant (`y = None`): that constant's type
 * (a read before the assignment would be an error anyway). */
static const Type *const_local_type(const IrFunc *f, int local) {
  const Inst *only = NULL;
  for (int i = 0; i < f->insts.len; i++) {
    const Inst *in = &f->insts.data[i];
    if (in->op != OP_STORE || in->local != local)
      continue;
    if (only || in->nargs != 1)
      return NULL;
    only = in;
  }
  const Inst *v = only ? &f->insts.data[only->args[0]] : NULL;
  return v && v->op >= OP_CONST_INT && v->op <= OP_CONST_NONE ? v->type : NULL;
}

/* The type of value v (in block b) before typing, or NULL. */
static const Type *known_type(Infer *inf, int b, int v) {
  const IrFunc *f = inf->f;
  const Inst *in = &f->insts.data[v];
  if (in->op >= OP_CONST_INT && in->op <= OP_CONST_NONE)
    return in->type;
  if (in->op == OP_LOAD && in->local >= f->nparams && in->local < f->locals.len)
    return const_local_type(f, in->local);
  if (in->op != OP_LOAD || in->local < 0 || in->local >= f->nparams)
    return NULL;
  int pos = position(f, b, v);
  if (pos < 0 || stores_to(f, b, in->local, pos) || !param_intact(inf, b, in->local))
    return NULL;
  return f->locals.data[in->local].type;
}

/* An int known before typing: a constant, len() of a tuple parameter or
 * .ndim of an array parameter (Numba rewrites these to constants before
 * pruning). */
static bool known_int(Infer *inf, int b, int v, int64_t *out) {
  const Inst *in = &inf->f->insts.data[v];
  if (in->op == OP_CONST_INT) {
    *out = in->ival;
    return true;
  }
  bool len = in->op == OP_ARRAY_SHAPE && in->ival == -2, ndim = in->op == OP_ARRAY_NDIM;
  const Type *t = (len || ndim) && in->nargs == 1 ? known_type(inf, b, in->args[0]) : NULL;
  if (t && len && t->kind == TY_TUPLE)
    *out = t->nelems;
  else if (t && ndim && t->kind == TY_ARRAY)
    *out = t->ndim;
  else
    return false;
  return true;
}

/* `x == 100` where x got None: None equals only None (Numba prunes it so;
 * typed, none == int64 has no rule).  1, 0 or -1. */
static int known_none_compare(Infer *inf, int b, const Inst *in) {
  const Type *x = known_type(inf, b, in->args[0]), *y = known_type(inf, b, in->args[1]);
  if (!x || !y || (x->kind != TY_NONE && y->kind != TY_NONE) ||
      (in->op != OP_EQ && in->op != OP_NE))
    return -1;
  return (x == y) == (in->op == OP_EQ);
}

/* `len(args) == 0`: a comparison of two known ints; 1, 0 or -1. */
static int known_compare(Infer *inf, int b, const Inst *in) {
  int64_t x, y;
  if (in->nargs != 2)
    return -1;
  if (!known_int(inf, b, in->args[0], &x) || !known_int(inf, b, in->args[1], &y))
    return known_none_compare(inf, b, in);
  switch (in->op) {
  case OP_EQ: return x == y;
  case OP_NE: return x != y;
  case OP_LT: return x < y;
  case OP_LE: return x <= y;
  case OP_GT: return x > y;
  default: return x >= y;
  }
}

/* The value of branch condition c (in block b) known from types: 1, 0 or -1. */
static int known_condition(Infer *inf, int b, int c) {
  const IrFunc *f = inf->f;
  const Inst *in = &f->insts.data[c];
  bool flip = false;
  if (in->op == OP_NOT && in->nargs == 1) {
    in = &f->insts.data[in->args[0]];
    flip = true;
  }
  if (ir_op_info[in->op].flags & OPF_CMP) {
    int r = known_compare(inf, b, in);
    return r < 0 ? -1 : flip ? !r : r;
  }
  if (in->op == OP_ISINSTANCE && in->nargs == 1 && in->tyimm) {
    const Type *x = known_type(inf, b, in->args[0]);
    if (!x || !isinstance_var(x))
      return -1; /* typing reports an unsupported variable */
    int r = isinstance_of(x, in->tyimm);
    return flip ? !r : r;
  }
  if ((in->op != OP_IS && in->op != OP_ISNOT) || in->nargs != 2)
    return -1;
  const Type *x = known_type(inf, b, in->args[0]), *y = known_type(inf, b, in->args[1]);
  int r = x && y ? identity(x, y) : -1; /* an unknown side may still be None */
  if (r < 0)
    return -1;
  if (in->op == OP_ISNOT)
    r = !r;
  return flip ? !r : r;
}

static void make_const_bool(Inst *in, int v) {
  in->op = OP_CONST_BOOL;
  in->nargs = 0;
  in->ival = v;
  in->type = TY_BOOL_T;
}

/* The decided condition becomes its constant (and so does the test under
 * a `not`): `x == 100` on a None x has no typing rule, and need not. */
static void fold_condition(IrFunc *f, int c, int known) {
  Inst *in = &f->insts.data[c];
  if (in->op == OP_NOT && in->nargs == 1)
    make_const_bool(&f->insts.data[in->args[0]], !known);
  make_const_bool(in, known);
}

void ir_prune_type_branches(Infer *inf) {
  IrFunc *f = inf->f;
  for (int b = 0; b < f->blocks.len; b++) {
    const IrBlock *blk = &f->blocks.data[b];
    if (!blk->insts.len)
      continue;
    Inst *t = &f->insts.data[blk->insts.data[blk->insts.len - 1]];
    if (t->op != OP_CBR || t->nargs != 1)
      continue;
    int known = known_condition(inf, b, t->args[0]);
    if (known < 0)
      continue;
    fold_condition(f, t->args[0], known);
    t->op = OP_BR;
    t->nargs = 0;
    t->target = known ? t->target : t->target2;
  }
}

/* ---------------------------------------------------------- resolution -- */

void ir_resolve_is(Infer *inf) {
  IrFunc *f = inf->f;
  for (int i = 0; i < f->insts.len; i++) {
    Inst *in = &f->insts.data[i];
    if (in->op == OP_ISINSTANCE && in->nargs == 1 && in->tyimm && f->insts.data[in->args[0]].type) {
      make_const_bool(in, isinstance_of(f->insts.data[in->args[0]].type, in->tyimm));
      continue;
    }
    if ((in->op != OP_IS && in->op != OP_ISNOT) || in->nargs != 2)
      continue;
    const Type *a = f->insts.data[in->args[0]].type, *b = f->insts.data[in->args[1]].type;
    if (!a || !b)
      continue;
    int r = identity(a, b);
    if (r < 0) {
      in->op = in->op == OP_IS ? OP_EQ : OP_NE;
      continue;
    }
    in->ival = in->op == OP_IS ? r : !r;
    in->op = OP_CONST_BOOL;
    in->nargs = 0;
  }
}

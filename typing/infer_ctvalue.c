/* infer_ctvalue.c - compile-time values: functions and dtypes as values,
 * shapes and dtypes known only per call, constants frozen into callees.
 *
 * Numba freezes at compile time what kjit's lowering cannot see: a device
 * function or cuda.atomic.add passed to a device function and called there
 * (each function is its own type, so the callee is specialised per
 * function), a dtype passed the same way or read from arr.dtype, and an
 * integer literal passed to a parameter that a shared/local array's shape
 * needs (a Literal[int] argument).  Lowering leaves such places as values
 * (OP_VALUE, OP_ARRAY_DTYPE), calls through a variable (OP_CALL_VALUE) and
 * arrays with shape/dtype operands; the rules here resolve them once the
 * operands' types (and constants) are known.  Invariant: a rewrite is made
 * only from facts that never change again (a value's type, a constant). */
#include "typing/typing_internal.h"

#define MAX_DEPTH 16

static const Type *operand_type(const Infer *inf, const Inst *in, int k) {
  return in->args[k] >= 0 ? inf->f->insts.data[in->args[k]].type : NULL;
}

const Type *ir_infer_ctvalue(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  if (!ty_is_ctvalue(in->tyimm))
    return ir_infer_fail(inf, idx, E_INTERNAL, NULL, "internal error: value without a type");
  return in->tyimm;
}

const Type *ir_infer_array_dtype(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  const Type *a = operand_type(inf, in, 0);
  if (!a)
    return NULL;
  if (a->kind != TY_ARRAY)
    return ir_infer_fail(inf, idx, E_TY_ATTR, NULL, "%s has no attribute 'dtype'",
                         ir_infer_tname(inf, a));
  return ty_dtype(inf->tt, a->elem);
}

/* ------------------------------------------------------------ constants -- */

/* Which value each local's only STORE in reachable blocks stores: built in
 * one walk of the function and kept until marked stale, so a query costs
 * O(1) (a walk per query made dead-branch pruning quadratic: 2,000 flat
 * `if`s took 33 s to type). */
void ir_infer_once_stale(Infer *inf) {
  if (inf->once)
    inf->once->valid = false;
}

static void build_once(const Infer *inf, struct InferOnce *o) {
  const IrFunc *f = inf->f;
  if (o->nlocals < f->locals.len + 1) {
    o->nlocals = f->locals.len + 1;
    o->value = arena_alloc(inf->c->arena, sizeof(int) * (size_t)o->nlocals);
  }
  for (int i = 0; i < o->nlocals; i++)
    o->value[i] = -1;
  for (int b = 0; b < f->blocks.len; b++)
    for (int k = 0; inf->reachable[b] && k < f->blocks.data[b].insts.len; k++) {
      const Inst *s = &f->insts.data[f->blocks.data[b].insts.data[k]];
      if (s->op == OP_STORE && s->local >= 0 && s->local < o->nlocals)
        o->value[s->local] = o->value[s->local] == -1 ? s->args[0] : -2;
    }
  o->valid = true;
}

static bool stored_once(const Infer *inf, int local, int *value) {
  struct InferOnce *o = inf->once;
  if (!o || local < inf->f->nparams)
    return false;
  if (!o->valid || o->nlocals < inf->f->locals.len + 1)
    build_once(inf, o);
  if (local >= o->nlocals || o->value[local] < 0)
    return false;
  *value = o->value[local];
  return true;
}

/* An operand's type, or for a read of a parameter its declared type (known
 * before the first pass, when dead branches are first pruned). */
static const Type *value_type(const Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  if (in->type)
    return in->type;
  if (in->op == OP_LOAD && in->local >= 0 && in->local < inf->f->nparams)
    return inf->f->locals.data[in->local].type;
  return NULL;
}

/* The frozen tuple a LOAD of a parameter reads, or NULL. */
static const IrConstArg *frozen_tuple(const Infer *inf, int idx) {
  const Inst *in = idx >= 0 ? &inf->f->insts.data[idx] : NULL;
  const IrFunc *f = inf->f;
  if (!in || in->op != OP_LOAD || in->local < 0 || in->local >= f->nparams || !f->consts)
    return NULL;
  const IrConstArg *c = &f->consts[in->local];
  return c->known && c->n > 0 ? c : NULL;
}

static bool floor_divmod(IrOp op, int64_t a, int64_t b, int64_t *out) {
  if (b == 0 || (a == INT64_MIN && b == -1))
    return false;
  int64_t q = a / b, r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) {
    q -= 1;
    r += b;
  }
  *out = op == OP_FLOORDIV ? q : r;
  return true;
}

/* The integer an instruction always yields, if typing can know it: a
 * literal, a frozen parameter, a variable assigned once from one, and
 * + - * // % << and unary - of such (without overflow). */
static bool const_int_at(const Infer *inf, int idx, int64_t *out, int depth) {
  if (idx < 0 || depth > MAX_DEPTH)
    return false;
  const Inst *in = &inf->f->insts.data[idx];
  int64_t a, b;
  int v;
  switch (in->op) {
  case OP_CONST_INT: case OP_CONST_BOOL: *out = in->ival; return true;
  case OP_CAST: return in->tyimm && ty_is_int(in->tyimm) && const_int_at(inf, in->args[0], out, depth + 1);
  case OP_LOAD: return stored_once(inf, in->local, &v) && const_int_at(inf, v, out, depth + 1);
  case OP_TUPLE_GET: { /* shape[0] of a frozen tuple parameter */
    const IrConstArg *t = frozen_tuple(inf, in->args[0]);
    if (t && in->ival >= 0 && in->ival < t->n) {
      *out = t->v[in->ival];
      return true;
    }
    return false;
  }
  case OP_NEG:
    return const_int_at(inf, in->args[0], &a, depth + 1) && a != INT64_MIN && (*out = -a, true);
  case OP_NOT: case OP_TRUTH:
    if (!const_int_at(inf, in->args[0], &a, depth + 1))
      return false;
    *out = in->op == OP_NOT ? a == 0 : a != 0;
    return true;
  case OP_ARRAY_SHAPE: { /* len() of a tuple (ival -2): its length */
    const Inst *t = &inf->f->insts.data[in->args[0]];
    const Type *tt = value_type(inf, in->args[0]);
    if (in->ival != -2)
      return false;
    if (t->op == OP_TUPLE)
      return (*out = t->nargs, true);
    return tt && tt->kind == TY_TUPLE && (*out = tt->nelems, true);
  }
  case OP_ARRAY_NDIM: { /* known from the array's type, even before a pass */
    const Type *t = value_type(inf, in->args[0]);
    return t && t->kind == TY_ARRAY && (*out = t->ndim, true);
  }
  case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
    if (!const_int_at(inf, in->args[0], &a, depth + 1) || !const_int_at(inf, in->args[1], &b, depth + 1))
      return false;
    *out = in->op == OP_EQ ? a == b : in->op == OP_NE ? a != b : in->op == OP_LT ? a < b
         : in->op == OP_LE ? a <= b : in->op == OP_GT ? a > b : a >= b;
    return true;
  case OP_ADD: case OP_SUB: case OP_MUL: case OP_FLOORDIV: case OP_MOD: case OP_LSHIFT:
    if (!const_int_at(inf, in->args[0], &a, depth + 1) || !const_int_at(inf, in->args[1], &b, depth + 1))
      return false;
    if (in->op == OP_ADD) return !__builtin_add_overflow(a, b, out);
    if (in->op == OP_SUB) return !__builtin_sub_overflow(a, b, out);
    if (in->op == OP_MUL) return !__builtin_mul_overflow(a, b, out);
    if (in->op == OP_LSHIFT) return b >= 0 && b < 63 && a >= 0 && a <= (INT64_MAX >> b) && (*out = a << b, true);
    return floor_divmod(in->op, a, b, out);
  default: return false;
  }
}

bool ir_infer_const_int(const Infer *inf, int idx, int64_t *out) {
  return const_int_at(inf, idx, out, 0);
}

/* A shape: one constant int or a tuple of them. */
static int const_shape(const Infer *inf, int idx, int64_t *dims) {
  const Inst *in = &inf->f->insts.data[idx];
  if (in->op == OP_LOAD) { /* a tuple held in a variable assigned once */
    int v;
    if (stored_once(inf, in->local, &v) && inf->f->insts.data[v].op == OP_TUPLE)
      return const_shape(inf, v, dims);
  }
  const IrConstArg *t = frozen_tuple(inf, idx);
  if (t) {
    memcpy(dims, t->v, sizeof *dims * (size_t)t->n);
    return t->n;
  }
  if (in->op != OP_TUPLE)
    return const_int_at(inf, idx, &dims[0], 0) ? 1 : 0;
  if (in->nargs < 1 || in->nargs > 4)
    return -in->nargs - 1;
  for (int i = 0; i < in->nargs; i++)
    if (!const_int_at(inf, in->args[i], &dims[i], 0))
      return 0;
  return in->nargs;
}

/* -------------------------------------------------- shared/local arrays -- */

const Type *ir_infer_deferred_array(Infer *inf, int idx) {
  Inst *in = &inf->f->insts.data[idx];
  const char *kind = in->op == OP_SHARED_ARRAY ? "shared" : "local";
  const Type *dt = operand_type(inf, in, 1);
  if (!dt || !operand_type(inf, in, 0))
    return NULL;
  if (dt->kind != TY_DTYPE)
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC, "use a type such as float32 or np.float32",
                         "the dtype of a %s array must be a type, not %s", kind,
                         ir_infer_tname(inf, dt));
  int64_t dims[4];
  int nd = const_shape(inf, in->args[0], dims);
  if (nd == 0) { /* said at the shape, as lowering says it for module names */
    ir_infer_fail(inf, in->args[0], E_TY_INTRINSIC,
                  "pass a literal, a module-level constant (TPB = 16) or a variable assigned "
                  "one; Numba freezes it when the function is compiled",
                  "%s array shape must be a compile-time constant", kind);
    inf->reported[idx] = inf->report;
    return NULL;
  }
  if (nd < 0)
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC, NULL,
                         "%s arrays have 1 to 4 dimensions, not %d", kind, -nd - 1);
  bool dynamic = in->op == OP_SHARED_ARRAY && nd == 1 && dims[0] == 0;
  for (int i = 0; i < nd && !dynamic; i++)
    if (dims[i] <= 0)
      return ir_infer_fail(inf, idx, E_TY_INTRINSIC, NULL,
                           "%s array extents must be positive, got %lld", kind, (long long)dims[i]);
  int64_t *shape = arena_alloc(inf->c->arena, sizeof *shape * (size_t)nd);
  memcpy(shape, dims, sizeof *shape * (size_t)nd);
  in->shape = shape;
  in->tyimm = ty_array(inf->tt, dt->elem, nd, LAYOUT_C);
  int64_t bytes = ir_alloc_bytes(in);
  if (in->op == OP_LOCAL_ARRAY && bytes > IR_MAX_LOCAL_BYTES)
    return ir_infer_fail(inf, idx, E_TY_INTRINSIC,
                         "use shared or global memory (an array argument) for large per-thread data",
                         "a local array of %lld bytes exceeds the %d bytes of local memory a thread has",
                         (long long)bytes, IR_MAX_LOCAL_BYTES);
  return in->tyimm;
}

/* ------------------------------------------------- calls through values -- */

static void drop_callee(Inst *in) {
  in->args++;
  in->nargs--;
}

const Type *ir_infer_call_value(Infer *inf, int idx, const Type **need) {
  Inst *in = &inf->f->insts.data[idx];
  const Type *ft = operand_type(inf, in, 0);
  if (!ft)
    return NULL;
  if (ft->kind == TY_FUNC && ft->func) {
    in->op = OP_CALL;
    in->callee = (IrFunc *)ft->func;
    drop_callee(in);
    return ir_infer_inst(inf, idx, need);
  }
  if (ft->kind == TY_FUNC && strncmp(ft->fname, "numba.cuda.atomic.", 18) == 0) {
    int kind = ir_atomic_kind_of(ft->fname + 18);
    int want = kind == AK_CAS ? 4 : 3;
    if (in->nargs - 1 != want)
      return ir_infer_fail(inf, idx, E_TY_NARGS, NULL, "%s() takes %d arguments (%d given)",
                           ft->fname + strlen("numba."), want, in->nargs - 1);
    in->op = OP_ATOMIC;
    in->ival = kind;
    drop_callee(in);
    return ir_infer_inst(inf, idx, need);
  }
  if (ft->kind == TY_DTYPE) {
    if (in->nargs != 2)
      return ir_infer_fail(inf, idx, E_TY_NARGS, NULL, "%s() takes one argument (%d given)",
                           ir_infer_tname(inf, ft->elem), in->nargs - 1);
    in->op = OP_CAST;
    in->tyimm = ft->elem;
    in->ival = 0;
    drop_callee(in);
    return ir_infer_inst(inf, idx, need);
  }
  return ir_infer_fail(inf, idx, E_TY_CALL,
                       ft->kind == TY_FUNC ? "call it by name in the function" : NULL,
                       ft->kind == TY_FUNC ? "calling %s through a variable is not supported"
                                           : "%s is not callable",
                       ir_infer_tname(inf, ft));
}

/* ------------------------------------------------- constants to callees -- */

/* Does value idx of generic function g read parameter p (through tuples,
 * casts and arithmetic)? */
static bool reads_param(const IrFunc *g, int idx, int p, int depth) {
  if (idx < 0 || idx >= g->insts.len || depth > MAX_DEPTH)
    return false;
  const Inst *in = &g->insts.data[idx];
  if (in->op == OP_LOAD)
    return in->local == p;
  bool walk = in->op == OP_TUPLE || in->op == OP_CAST || in->op == OP_NEG || in->op == OP_NOT ||
              in->op == OP_TRUTH || (in->op >= OP_ADD && in->op <= OP_LSHIFT) ||
              (in->op >= OP_EQ && in->op <= OP_GE);
  if (!walk)
    return false;
  for (int k = 0; k < in->nargs; k++)
    if (reads_param(g, in->args[k], p, depth + 1))
      return true;
  return false;
}

/* Parameter p of generic g is frozen when a constant is passed: an array
 * shape reads it, or a branch condition does (the untaken branch is then
 * pruned, as Numba prunes it once a literal argument is typed as one), or it
 * is passed on to a callee's parameter that is frozen. */
static bool needs_const(const IrFunc *g, int p, int depth) {
  if (depth > 4)
    return false;
  for (int i = 0; i < g->insts.len; i++) {
    const Inst *in = &g->insts.data[i];
    bool alloc = (in->op == OP_SHARED_ARRAY || in->op == OP_LOCAL_ARRAY) && in->nargs == 2;
    if ((alloc || in->op == OP_CBR) && reads_param(g, in->args[0], p, 0))
      return true;
    if (in->op != OP_CALL || !in->callee)
      continue;
    const IrFunc *cg = in->callee->generic ? in->callee->generic : in->callee;
    for (int k = 0; k < in->nargs && k < cg->nparams; k++)
      if (in->args[k] >= 0 && g->insts.data[in->args[k]].op == OP_LOAD &&
          g->insts.data[in->args[k]].local == p && needs_const(cg, k, depth + 1))
        return true;
  }
  return false;
}

/* A constant argument: an integer, or a tuple of up to 4 (a shape). */
static bool const_arg(const Infer *inf, int idx, IrConstArg *out) {
  memset(out, 0, sizeof *out);
  int64_t dims[4];
  const Inst *in = &inf->f->insts.data[idx];
  bool tuple = in->op == OP_TUPLE || frozen_tuple(inf, idx) ||
               (in->type && in->type->kind == TY_TUPLE);
  if (!tuple) {
    out->known = const_int_at(inf, idx, &out->v[0], 0);
    return out->known;
  }
  int n = const_shape(inf, idx, dims);
  if (n < 1)
    return false;
  out->known = true;
  out->n = n;
  memcpy(out->v, dims, sizeof *dims * (size_t)n);
  return true;
}

IrConstArg *ir_infer_call_consts(Infer *inf, int idx, const IrFunc *gen) {
  const Inst *in = &inf->f->insts.data[idx];
  IrConstArg *consts = NULL, c;
  for (int p = 0; p < in->nargs && p < gen->nparams; p++) {
    if (!needs_const(gen, p, 0) || !const_arg(inf, in->args[p], &c))
      continue;
    if (!consts)
      consts = arena_alloc(inf->c->arena, sizeof *consts * (size_t)(gen->nparams + 1));
    consts[p] = c;
  }
  return consts;
}

/* infer_cast.c - materializing the conversions typing decided on.
 *
 * Runs once per specialization after the fixed point (typing/infer.c).  For each
 * reachable instruction it asks the op's rule (typing/infer_ops.c) which type
 * every operand needs and splices conversions in front of the user: CAST
 * for numbers and arrays, TRUTH for bool, TUPLE_GET+convert+TUPLE for
 * tuples.  Afterwards codegen never converts implicitly (ops.h), and the
 * value rule still holds: each new value sits in its user's block, before it. */
#include "typing/typing_internal.h"

typedef Vec(int) IntVec;

static int emit_typed(Infer *inf, IrOp op, SrcLoc loc, const int *args, int nargs,
                      const Type *t, IntVec *out) {
  int v = ir_emit(inf->c->arena, inf->f, -1, op, loc, args, nargs);
  inf->f->insts.data[v].type = t;
  if (op == OP_CAST)
    inf->f->insts.data[v].tyimm = t;
  vec_push(inf->c->arena, out, v);
  return v;
}

/* Value v converted to type `to`; new instructions are appended to out. */
static int convert(Infer *inf, int v, const Type *to, SrcLoc loc, IntVec *out) {
  const Type *from = inf->f->insts.data[v].type;
  if (!from || !to || from == to)
    return v;
  if (to == TY_BOOL_T && ty_is_number(from))
    return emit_typed(inf, OP_TRUTH, loc, &v, 1, to, out);
  if (from->kind == TY_TUPLE && to->kind == TY_TUPLE && from->nelems == to->nelems) {
    int *el = arena_alloc(inf->c->arena, sizeof(int) * (size_t)(to->nelems + 1));
    for (int i = 0; i < to->nelems; i++) {
      int g = emit_typed(inf, OP_TUPLE_GET, loc, &v, 1, from->elems[i], out);
      inf->f->insts.data[g].ival = i;
      el[i] = convert(inf, g, to->elems[i], loc, out);
    }
    return emit_typed(inf, OP_TUPLE, loc, el, to->nelems, to, out);
  }
  return emit_typed(inf, OP_CAST, loc, &v, 1, to, out);
}

/* Rewrites that make an op itself simpler for codegen. */
static void simplify(Infer *inf, int idx) {
  Inst *in = &inf->f->insts.data[idx];
  if (in->op == OP_CAST && in->tyimm == TY_BOOL_T && in->nargs == 1) {
    in->op = OP_TRUTH; /* bool(x) is truthiness, not truncation */
    in->tyimm = NULL;
  }
}

/* Operand needs that the op rules do not express as plain conversions. */
static void special_needs(Infer *inf, int idx, const Type **need) {
  Inst *in = &inf->f->insts.data[idx];
  if (in->op == OP_RET && in->nargs == 1) {
    const Type *t = inf->f->insts.data[in->args[0]].type;
    if (inf->f->ret_type == TY_VOID_T || (t && t->kind == TY_NONE))
      in->nargs = 0; /* `return None` in a void function */
    else
      need[0] = inf->f->ret_type;
  }
}

static void materialize_inst(Infer *inf, int idx, IntVec *out) {
  int nargs = inf->f->insts.data[idx].nargs;
  const Type **need = arena_alloc(inf->c->arena, sizeof *need * (size_t)(nargs + 1));
  ir_infer_inst(inf, idx, need);
  special_needs(inf, idx, need);
  Inst *in = &inf->f->insts.data[idx];
  bool pred = in->op == OP_SYNCTHREADS_COUNT || in->op == OP_SYNCTHREADS_AND ||
              in->op == OP_SYNCTHREADS_OR;
  SrcLoc loc = in->loc;
  for (int k = 0; k < in->nargs; k++) {
    if (!need[k])
      continue;
    int v = inf->f->insts.data[idx].args[k];
    if (pred) /* a predicate is its truthiness, then widened to int32 */
      v = convert(inf, v, TY_BOOL_T, loc, out);
    v = convert(inf, v, need[k], loc, out);
    inf->f->insts.data[idx].args[k] = v;
  }
  simplify(inf, idx);
}

void ir_infer_materialize(Infer *inf) {
  IrFunc *f = inf->f;
  for (int b = 0; b < f->blocks.len; b++) {
    if (!inf->reachable[b])
      continue;
    IntVec out = {0};
    IrBlock old = f->blocks.data[b];
    for (int k = 0; k < old.insts.len; k++) {
      int idx = old.insts.data[k];
      if (idx < inf->ninsts && !inf->dead[idx])
        materialize_inst(inf, idx, &out);
      vec_push(inf->c->arena, &out, idx);
    }
    f->blocks.data[b].insts.data = out.data;
    f->blocks.data[b].insts.len = out.len;
    f->blocks.data[b].insts.cap = out.cap;
  }
}

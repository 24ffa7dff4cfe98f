/* lower_emit.c - the emission primitives every lowering file builds IR
 * with: instructions, constants, casts, hidden temporaries, loads and
 * stores, blocks and branches, truth values.
 *
 * Key invariant: ops.h's value rule (an operand is an earlier instruction
 * of the same block), enforced here by spilling an operand of another
 * block.  This file calls no other lowering file, so the expression and
 * statement files that call it do not form a cycle through it. */
#include "lower/lower_internal.h"

/* ------------------------------------------------------------ emission -- */

static void record_block(Lower *L, int inst, int block) {
  while (L->inst_block.len <= inst)
    vec_push(L->a, &L->inst_block, -1);
  L->inst_block.data[inst] = block;
}

Inst *lower_inst(Lower *L, int v) { return &L->f->insts.data[v]; }

int lower_temp(Lower *L, SrcLoc loc) {
  return ir_local_new(L->a, L->f, arena_printf(L->a, "$t%d", L->ntemps++), loc);
}

/* Insert instruction `inst` into block b just before its terminator. */
static void insert_before_term(Lower *L, int b, int inst) {
  IrBlock *blk = &L->f->blocks.data[b];
  int pos = blk->insts.len;
  if (ir_block_terminated(L->f, b))
    pos--;
  vec_push(L->a, &blk->insts, inst);
  memmove(&blk->insts.data[pos + 1], &blk->insts.data[pos],
          sizeof(int) * (size_t)(blk->insts.len - 1 - pos));
  blk->insts.data[pos] = inst;
}

/* The value rule: v was defined in another (dominating) block, so store it
 * to a hidden local there and reload it here. */
static int spill_operand(Lower *L, int v) {
  SrcLoc loc = lower_inst(L, v)->loc;
  int b = L->inst_block.data[v];
  int t = lower_temp(L, loc);
  int st = ir_emit(L->a, L->f, -1, OP_STORE, loc, &v, 1);
  lower_inst(L, st)->local = t;
  record_block(L, st, b);
  insert_before_term(L, b, st);
  return lower_load(L, t, loc);
}

static void check_string_use(Lower *L, IrOp op, int v) {
  const Inst *in = lower_inst(L, v);
  /* r['x'] is a record field, r['s'] = 'abc' / r.s = b'abc' a string field's
   * value: typing checks that r is a record */
  if (in->op == OP_CONST_STR && op != OP_PRINT && op != OP_ARRAY_LOAD && op != OP_ARRAY_STORE &&
      op != OP_REC_SET)
    diag_error(L->d, E_STRING, in->loc, "Numba kernels can only print strings",
               "string values are only supported as print arguments");
}

int lower_emit(Lower *L, IrOp op, SrcLoc loc, const int *args, int nargs) {
  int buf[16] = {0};
  int *a = nargs <= 16 ? buf : arena_alloc(L->a, sizeof(int) * (size_t)nargs);
  for (int i = 0; i < nargs; i++) {
    a[i] = args[i];
    if (a[i] < 0) /* an operand whose lowering failed: keep the IR well formed */
      a[i] = lower_const_int(L, 0, loc);
    else if (L->inst_block.data[a[i]] != L->cur)
      a[i] = spill_operand(L, a[i]);
    check_string_use(L, op, a[i]);
  }
  int id = ir_emit(L->a, L->f, L->cur, op, loc, a, nargs);
  record_block(L, id, L->cur);
  return id;
}

int lower_emit0(Lower *L, IrOp op, SrcLoc loc) { return lower_emit(L, op, loc, NULL, 0); }
int lower_emit1(Lower *L, IrOp op, SrcLoc loc, int a0) { return lower_emit(L, op, loc, &a0, 1); }
int lower_emit2(Lower *L, IrOp op, SrcLoc loc, int a0, int a1) {
  int a[2] = {a0, a1};
  return lower_emit(L, op, loc, a, 2);
}

int lower_const_int(Lower *L, int64_t v, SrcLoc loc) {
  int id = ir_emit(L->a, L->f, L->cur, OP_CONST_INT, loc, NULL, 0);
  record_block(L, id, L->cur);
  lower_inst(L, id)->ival = v;
  lower_inst(L, id)->type = TY_I64_T;
  return id;
}

int lower_cast(Lower *L, int v, const Type *to, SrcLoc loc) {
  int id = lower_emit1(L, OP_CAST, loc, v);
  lower_inst(L, id)->type = to;
  lower_inst(L, id)->tyimm = to;
  return id;
}

int lower_load(Lower *L, int local, SrcLoc loc) {
  int id = lower_emit0(L, OP_LOAD, loc);
  lower_inst(L, id)->local = local;
  return id;
}

void lower_store(Lower *L, int local, int v, SrcLoc loc) {
  int id = lower_emit1(L, OP_STORE, loc, v);
  lower_inst(L, id)->local = local;
}

int lower_new_block(Lower *L) { return ir_block_new(L->a, L->f); }
void lower_set_block(Lower *L, int b) { L->cur = b; }

void lower_br(Lower *L, int target, SrcLoc loc) {
  if (ir_block_terminated(L->f, L->cur))
    return;
  int id = lower_emit0(L, OP_BR, loc);
  lower_inst(L, id)->target = target;
}

void lower_cbr(Lower *L, int cond, int t, int f, SrcLoc loc) {
  int id = lower_emit1(L, OP_CBR, loc, cond);
  lower_inst(L, id)->target = t;
  lower_inst(L, id)->target2 = f;
}

static bool yields_bool(const Inst *in) {
  if (ir_op_info[in->op].flags & OPF_CMP)
    return true;
  if (in->op == OP_INTRINSIC)
    return ir_intrinsic_info[in->ival].kind == IK_PRED;
  return in->op == OP_NOT || in->op == OP_TRUTH || in->op == OP_CONST_BOOL || in->op == OP_IS ||
         in->op == OP_ISNOT || in->op == OP_ISINSTANCE;
}

int lower_truth(Lower *L, int v, SrcLoc loc) {
  if (v >= 0 && yields_bool(lower_inst(L, v)) && L->inst_block.data[v] == L->cur)
    return v;
  return lower_emit1(L, OP_TRUTH, loc, v);
}

/* verify.c - structural and type checks of kjit IR, run between passes.
 *
 * Structure (always): blocks non-empty, one terminator each and only at the
 * end, operands defined earlier in the same block, valid branch targets and
 * locals, operand counts as ops.h says.  Types (when f->typed): the
 * post-typing contracts of ops.h.  Violations are compiler bugs: reported as
 * E599 "internal compiler error" diagnostics naming the function, block and
 * instruction; the verifier never aborts and never reads out of bounds. */
#include <stdio.h>
#include <stdlib.h>

#include "ir/ir.h"
#include "ir/numfn.h"
#include "ir/bf16.h"
#include "ir/npmath.h"
#include "ir/libdevice_fns.h"

typedef struct Verifier {
  const IrFunc *f;
  Diags *d;
  int *block_of; /* instruction -> block, -1 when in no block */
  int *pos_of;   /* instruction -> position in its block */
  int nerr;
  int b, i;      /* current block and instruction (for messages) */
} Verifier;

__attribute__((format(printf, 2, 3))) static void fail(Verifier *v, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  SrcLoc loc = {0};
  const char *opn = "?";
  if (v->i >= 0 && v->i < v->f->insts.len) {
    loc = v->f->insts.data[v->i].loc;
    IrOp op = v->f->insts.data[v->i].op;
    opn = op < OP__COUNT ? ir_op_info[op].name : "?";
  }
  diag_error(v->d, E_INTERNAL, loc, NULL,
             "internal compiler error: IR verification failed in '%s', bb%d, instruction %d (%s): %s",
             v->f->name ? v->f->name : "?", v->b, v->i, opn, msg);
  v->nerr++;
}

static const char *tname(const Type *t, char *buf) { return t ? ty_name(t, buf, 128) : "?"; }

/* ---------------------------------------------------------- structure -- */

static bool locate_insts(Verifier *v) {
  const IrFunc *f = v->f;
  for (int i = 0; i < f->insts.len; i++)
    v->block_of[i] = -1;
  for (int b = 0; b < f->blocks.len; b++) {
    const IrBlock *blk = &f->blocks.data[b];
    v->b = b;
    v->i = -1;
    if (blk->insts.len == 0)
      fail(v, "empty block");
    for (int k = 0; k < blk->insts.len; k++) {
      int i = blk->insts.data[k];
      if (i < 0 || i >= f->insts.len) {
        fail(v, "block lists instruction %d which does not exist", i);
        return false;
      }
      v->i = i;
      if (v->block_of[i] >= 0)
        fail(v, "instruction also appears in bb%d", v->block_of[i]);
      v->block_of[i] = b;
      v->pos_of[i] = k;
    }
  }
  return true;
}

static int expected_args(const Inst *in) {
  switch (in->op) {
  case OP_INTRINSIC:
    return in->ival >= 0 && in->ival < IN__COUNT ? ir_intrinsic_info[in->ival].arity : -2;
  case OP_NUMFN:
    return in->ival >= 0 && in->ival < NF__COUNT ? ir_numfn_info[in->ival].arity : -2;
  case OP_BF16:
    return in->ival >= 0 && in->ival < BF__COUNT ? ir_bf16_arity((int)in->ival) : -2;
  case OP_LIBDEVICE:
    return in->ival >= 0 && in->ival < LD__COUNT ? ir_libdevice_nparams((int)in->ival) : -2;
  case OP_NPUFUNC:
    return in->ival >= 0 && in->ival < NU__COUNT ? ir_npufunc_info[in->ival].nin : -2;
  case OP_ARRAY_UFUNC:
    return in->ival >= 0 && in->ival < NU__COUNT ? ir_npufunc_info[in->ival].nin + 1 : -2;
  case OP_CALL: return in->callee ? in->callee->nparams : -2;
  case OP_ATOMIC: return in->ival == AK_CAS ? 4 : 3;
  default: return ir_op_info[in->op].nargs;
  }
}

static void check_arity(Verifier *v, const Inst *in) {
  int want = expected_args(in);
  if (want >= 0 && in->nargs != want)
    fail(v, "has %d operands, expected %d", in->nargs, want);
  else if (want == -2)
    fail(v, "invalid intrinsic id or missing callee");
  else if (in->op == OP_RET && in->nargs > 1)
    fail(v, "ret with %d operands", in->nargs);
  else if (in->op == OP_ARRAY_LOAD && in->nargs < 2)
    fail(v, "array.load needs an array and an index");
  else if (in->op == OP_ARRAY_STORE && in->nargs < 3)
    fail(v, "array.store needs an array, a value and an index");
  else if (in->op == OP_ARRAY_VIEW && in->nargs < 2)
    fail(v, "array.view needs an array and an index");
}

static void check_fields(Verifier *v, const Inst *in) {
  const IrFunc *f = v->f;
  if ((in->op == OP_LOAD || in->op == OP_STORE) && (in->local < 0 || in->local >= f->locals.len))
    fail(v, "invalid local %d", in->local);
  if ((in->op == OP_BR || in->op == OP_CBR) && (in->target < 0 || in->target >= f->blocks.len))
    fail(v, "invalid branch target bb%d", in->target);
  if (in->op == OP_CBR && (in->target2 < 0 || in->target2 >= f->blocks.len))
    fail(v, "invalid branch target bb%d", in->target2);
  if (in->op == OP_ATOMIC && (in->ival < 0 || in->ival > AK_NANMIN))
    fail(v, "invalid atomic kind %lld", (long long)in->ival);
  if (in->op == OP_RANDOM && (in->ival < 0 || in->ival >= RK__COUNT))
    fail(v, "invalid random kind %lld", (long long)in->ival);
  bool deferred = !v->f->typed && in->nargs == 2 && in->op != OP_CONST_ARRAY;
  if ((in->op == OP_SHARED_ARRAY || in->op == OP_LOCAL_ARRAY || in->op == OP_CONST_ARRAY) &&
      !deferred && (!in->tyimm || in->tyimm->kind != TY_ARRAY || !in->shape))
    fail(v, "array allocation without an array type or shape");
  if (in->op == OP_CONST_ARRAY && !in->data)
    fail(v, "constant array without data");
  if (in->op == OP_HOST_GLOBAL && (!in->str || (v->f->typed && (!in->tyimm || !in->shape))))
    fail(v, "host global without a name, type or shape");
  if (in->op == OP_CAST && !in->tyimm && !in->type)
    fail(v, "cast without a destination type");
  if (in->op >= OP_THREAD_IDX && in->op <= OP_GRID_DIM && (in->ival < 0 || in->ival > 2))
    fail(v, "invalid dimension %lld", (long long)in->ival);
}

static void check_operands(Verifier *v, const Inst *in) {
  for (int a = 0; a < in->nargs; a++) {
    int o = in->args ? in->args[a] : -1;
    if (o < 0 || o >= v->f->insts.len) {
      fail(v, "operand %d refers to instruction %d which does not exist", a, o);
    } else if (v->block_of[o] != v->b || v->pos_of[o] >= v->pos_of[v->i]) {
      fail(v, "operand %d (instruction %d) is not defined earlier in the same block", a, o);
    } else if (ir_op_info[v->f->insts.data[o].op].flags & OPF_TERM) {
      fail(v, "operand %d is a terminator", a);
    }
  }
}

static void check_structure(Verifier *v) {
  const IrFunc *f = v->f;
  if (f->blocks.len == 0) {
    v->b = v->i = -1;
    fail(v, "function has no blocks");
  }
  for (int b = 0; b < f->blocks.len; b++) {
    const IrBlock *blk = &f->blocks.data[b];
    v->b = b;
    for (int k = 0; k < blk->insts.len; k++) {
      v->i = blk->insts.data[k];
      const Inst *in = &f->insts.data[v->i];
      if (in->op >= OP__COUNT) {
        fail(v, "invalid opcode %d", (int)in->op);
        continue;
      }
      bool term = ir_op_info[in->op].flags & OPF_TERM;
      if (term && k + 1 != blk->insts.len)
        fail(v, "terminator in the middle of a block");
      if (!term && k + 1 == blk->insts.len)
        fail(v, "block does not end with a terminator");
      check_arity(v, in);
      check_fields(v, in);
      check_operands(v, in);
    }
  }
}

/* -------------------------------------------------------------- types -- */

static const Type *arg_type(Verifier *v, const Inst *in, int a) {
  if (a >= in->nargs || !in->args || in->args[a] < 0 || in->args[a] >= v->f->insts.len)
    return NULL;
  return v->f->insts.data[in->args[a]].type;
}

static void want_same(Verifier *v, const Type *a, const Type *b, const char *what) {
  char x[128], y[128];
  if (a != b)
    fail(v, "%s: %s vs %s", what, tname(a, x), tname(b, y));
}

static void check_indices(Verifier *v, const Inst *in, int first, const Type *arr) {
  int n = in->nargs - first;
  if (n == 1 && arg_type(v, in, first) && arg_type(v, in, first)->kind == TY_TUPLE) {
    const Type *t = arg_type(v, in, first);
    if (t->nelems != arr->ndim)
      fail(v, "tuple index of %d elements for a %dd array", t->nelems, arr->ndim);
    return;
  }
  if (n != arr->ndim)
    fail(v, "%d indices for a %dd array", n, arr->ndim);
  for (int a = first; a < in->nargs; a++)
    if (arg_type(v, in, a) != TY_I64_T)
      want_same(v, arg_type(v, in, a), TY_I64_T, "index type");
}

static void check_array_access(Verifier *v, const Inst *in) {
  const Type *arr = arg_type(v, in, 0);
  if (arr && arr->kind == TY_PTR) { /* p[i] of a raw pointer: one int64 index */
    int first = in->op == OP_ARRAY_LOAD ? 1 : 2;
    want_same(v, in->op == OP_ARRAY_LOAD ? in->type : arg_type(v, in, 1), arr->elem,
              "element type differs from the pointee");
    if (in->nargs != first + 1 || arg_type(v, in, first) != TY_I64_T)
      fail(v, "a raw pointer takes one int64 index");
    return;
  }
  if (!arr || arr->kind != TY_ARRAY) {
    fail(v, "first operand is not an array");
    return;
  }
  if (in->op == OP_ARRAY_LOAD) {
    want_same(v, in->type, arr->elem, "loaded type differs from the dtype");
    check_indices(v, in, 1, arr);
  } else {
    want_same(v, arg_type(v, in, 1), arr->elem, "stored value type differs from the dtype");
    check_indices(v, in, 2, arr);
  }
}

/* A view: an array in and out, int64 indices, slice parts int64 or none. */
static void check_view(Verifier *v, const Inst *in) {
  const Type *arr = arg_type(v, in, 0);
  if (!arr || arr->kind != TY_ARRAY || in->type->kind != TY_ARRAY) {
    fail(v, "array.view of a non-array");
    return;
  }
  for (int a = 1; a < in->nargs; a++) {
    const Type *t = arg_type(v, in, a);
    if (t != TY_I64_T && (!t || t->kind != TY_NONE))
      want_same(v, t, TY_I64_T, "view index type");
  }
}

static void check_call(Verifier *v, const Inst *in) {
  const IrFunc *c = in->callee;
  if (!c || !c->typed) {
    fail(v, "call of an untyped function");
    return;
  }
  for (int a = 0; a < in->nargs && a < c->nparams && a < c->locals.len; a++)
    want_same(v, arg_type(v, in, a), c->locals.data[a].type, "argument type differs from the parameter");
  want_same(v, in->type, c->ret_type, "call type differs from the callee's return type");
}

static void check_typed_inst(Verifier *v, const Inst *in) {
  int flags = ir_op_info[in->op].flags;
  if (!in->type) {
    fail(v, "instruction has no type after typing");
    return;
  }
  if ((flags & OPF_BINARY) && in->op != OP_POW)
    want_same(v, arg_type(v, in, 0), arg_type(v, in, 1), "operand types differ");
  if (flags & OPF_CMP) {
    want_same(v, arg_type(v, in, 0), arg_type(v, in, 1), "compared types differ");
    want_same(v, in->type, TY_BOOL_T, "comparison result");
  }
  switch (in->op) {
  case OP_STORE:
    if (in->local >= 0 && in->local < v->f->locals.len)
      want_same(v, arg_type(v, in, 0), v->f->locals.data[in->local].type, "stored type differs from the local's");
    break;
  case OP_LOAD:
    if (in->local >= 0 && in->local < v->f->locals.len)
      want_same(v, in->type, v->f->locals.data[in->local].type, "loaded type differs from the local's");
    break;
  case OP_CBR: want_same(v, arg_type(v, in, 0), TY_BOOL_T, "branch condition"); break;
  case OP_SELECT:
    want_same(v, arg_type(v, in, 0), TY_BOOL_T, "select condition");
    want_same(v, arg_type(v, in, 1), in->type, "select operand");
    want_same(v, arg_type(v, in, 2), in->type, "select operand");
    break;
  case OP_ARRAY_LOAD:
  case OP_ARRAY_STORE: check_array_access(v, in); break;
  case OP_CALL: check_call(v, in); break;
  case OP_ARRAY_VIEW: check_view(v, in); break;
  case OP_RET:
    if (in->nargs == 1)
      want_same(v, arg_type(v, in, 0), v->f->ret_type, "returned type differs from the function's");
    break;
  default: break;
  }
}

static void check_types(Verifier *v) {
  const IrFunc *f = v->f;
  for (int b = 0; b < f->blocks.len; b++) {
    v->b = b;
    for (int k = 0; k < f->blocks.data[b].insts.len; k++) {
      v->i = f->blocks.data[b].insts.data[k];
      if (f->insts.data[v->i].op < OP__COUNT)
        check_typed_inst(v, &f->insts.data[v->i]);
    }
  }
}

bool ir_verify(const IrFunc *f, Diags *diags) {
  Verifier v = {0};
  v.f = f;
  v.d = diags;
  size_t n = (size_t)f->insts.len + 1;
  v.block_of = malloc(sizeof(int) * n);
  v.pos_of = calloc(n, sizeof(int));
  if (locate_insts(&v)) {
    check_structure(&v);
    if (f->typed && v.nerr == 0)
      check_types(&v);
  }
  free(v.block_of);
  free(v.pos_of);
  return v.nerr == 0;
}

/* narrow.c - int64 locals that provably hold only int32 values.
 *
 * Numba types range() counters and their bounds int64, so a loop such as
 * `for n in range(max_iter)` pays 64-bit adds and compares on the GPU, and
 * LLVM widens induction variables but never narrows them.  A small interval
 * analysis over the typed IR bounds each counter: values of types of 32
 * bits or fewer, constants, and + - * of bounded values (evaluated exactly:
 * an interval that could leave int64 is unbounded); not array extents,
 * even under the launch fact fits32 (ir_narrow_locals says why).  A range() counter (stored
 * from `add(load c, step)` marked ival 1, step a constant) is bounded by its
 * start values and the stops of the tests that guard its increment.
 * Codegen keeps the locals found here in i32 slots; every value ever stored
 * fits, so the sign-extended loads are Numba's int64 values exactly.
 * The same intervals, with the launch facts fits32 (array extents) and
 * grid32 (cuda.grid() indices) added, mark int64 comparisons codegen may
 * emit in 32 bits (ir_narrow_insts). */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

#define I32_LO (-2147483647LL - 1)
#define I32_HI 2147483647LL
#define MAX_DEPTH 48 /* expression nesting followed; deeper is unbounded */

typedef struct Iv {
  bool ok;               /* false: unbounded */
  int64_t lo, hi;
} Iv;

typedef struct Narrow {
  const IrFunc *f;
  uint8_t *state;        /* per local: 0 new, 1 being bounded, 2 done */
  Iv *memo;              /* per local, once done */
  Iv *imemo;             /* per instruction, once done (NULL: none kept) */
  uint8_t *idone;        /* per instruction: imemo holds its interval */
  bool grid32;           /* bound cuda.grid() forms (IrCompile.grid32) */
  bool *checked;         /* per parameter: an array argument the launch's
                            fits32 check covers (never reassigned); NULL: no
                            extent facts */
} Narrow;

static const Iv NONE = {false, 0, 0};

static Iv iv(int64_t lo, int64_t hi) { return (Iv){true, lo, hi}; }

static Iv iv_wide(__int128 lo, __int128 hi) {
  return lo < INT64_MIN || hi > INT64_MAX ? NONE : iv((int64_t)lo, (int64_t)hi);
}

static Iv join(Iv a, Iv b) {
  if (!a.ok || !b.ok)
    return NONE;
  return iv(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
}

static bool fits_i32(Iv a) { return a.ok && a.lo >= I32_LO && a.hi <= I32_HI; }

/* Every value of an integer type of at most 32 bits (or bool). */
static Iv type_range(const Type *t) {
  if (t && t->kind == TY_BOOL)
    return iv(0, 1);
  if (!ty_is_int(t) || ty_bits(t) > 32)
    return NONE;
  int b = ty_bits(t);
  return ty_is_signed(t) ? iv(-(1LL << (b - 1)), (1LL << (b - 1)) - 1) : iv(0, (1LL << b) - 1);
}

static Iv arith(IrOp op, Iv a, Iv b) {
  if (!a.ok || !b.ok)
    return NONE;
  if (op == OP_ADD)
    return iv_wide((__int128)a.lo + b.lo, (__int128)a.hi + b.hi);
  if (op == OP_SUB)
    return iv_wide((__int128)a.lo - b.hi, (__int128)a.hi - b.lo);
  __int128 p[4] = {(__int128)a.lo * b.lo, (__int128)a.lo * b.hi, (__int128)a.hi * b.lo,
                   (__int128)a.hi * b.hi};
  __int128 lo = p[0], hi = p[0];
  for (int k = 1; k < 4; k++) {
    lo = p[k] < lo ? p[k] : lo;
    hi = p[k] > hi ? p[k] : hi;
  }
  return iv_wide(lo, hi);
}

static const Inst *inst_at(const IrFunc *f, int v) {
  return v >= 0 && v < f->insts.len ? &f->insts.data[v] : NULL;
}

static bool loads_local(const IrFunc *f, int v, int l) {
  const Inst *in = inst_at(f, v);
  return in && in->op == OP_LOAD && in->local == l;
}

static Iv local_range(Narrow *N, int l, int depth);
static Iv fact_range(Narrow *N, const Inst *in, int depth);

static Iv compute_value(Narrow *N, const Inst *in, int depth);

/* Memoized per instruction, so shared operands are bounded once (a result
 * cut short by MAX_DEPTH is NONE: kept, it is only less precise). */
static Iv value_range(Narrow *N, int v, int depth) {
  const Inst *in = inst_at(N->f, v);
  if (!in)
    return NONE;
  if (N->idone && N->idone[v])
    return N->imemo[v];
  Iv r = compute_value(N, in, depth);
  if (N->idone) {
    N->idone[v] = 1;
    N->imemo[v] = r;
  }
  return r;
}

static Iv compute_value(Narrow *N, const Inst *in, int depth) {
  Iv t = type_range(in->type);
  if (t.ok)
    return t;
  if (depth > MAX_DEPTH || !in->type || in->type->kind != TY_I64)
    return NONE;
  Iv fact = fact_range(N, in, depth);
  if (fact.ok)
    return fact;
  switch (in->op) {
  case OP_CONST_INT: return iv(in->ival, in->ival);
  case OP_CAST: {
    const Inst *a = inst_at(N->f, in->args[0]);
    bool intlike = a && a->type && (ty_is_int(a->type) || a->type->kind == TY_BOOL);
    return intlike && a->type->kind != TY_U64 ? value_range(N, in->args[0], depth + 1) : NONE;
  }
  case OP_LOAD: return local_range(N, in->local, depth + 1);
  case OP_ADD: case OP_SUB: case OP_MUL:
    return arith(in->op, value_range(N, in->args[0], depth + 1), value_range(N, in->args[1], depth + 1));
  case OP_SELECT: return join(value_range(N, in->args[1], depth + 1), value_range(N, in->args[2], depth + 1));
  default: return NONE;
  }
}

/* ------------------------------------------------ launch facts on values -- */

/* The special register (tid, ctaid, ntid, nctaid) that v casts to int64,
 * with its dimension in *dim; -1 for anything else. */
static int grid_reg(const IrFunc *f, int v, int *dim) {
  const Inst *in = inst_at(f, v);
  if (!in || in->op != OP_CAST || !in->type || in->type->kind != TY_I64)
    return -1;
  const Inst *r = inst_at(f, in->args[0]);
  if (!r || (r->op != OP_THREAD_IDX && r->op != OP_BLOCK_IDX && r->op != OP_BLOCK_DIM &&
             r->op != OP_GRID_DIM) || r->ival < 0 || r->ival > 2)
    return -1;
  *dim = (int)r->ival;
  return (int)r->op;
}

/* The dimension of an int64 product of registers x and y of one dimension
 * (either order), or -1. */
static int pair_dim(const IrFunc *f, const Inst *in, IrOp x, IrOp y) {
  int d0 = -1, d1 = -2;
  if (!in || in->op != OP_MUL || in->nargs != 2 || !in->type || in->type->kind != TY_I64)
    return -1;
  int a = grid_reg(f, in->args[0], &d0), b = grid_reg(f, in->args[1], &d1);
  bool match = ((IrOp)a == x && (IrOp)b == y) || ((IrOp)a == y && (IrOp)b == x);
  return match && d0 == d1 ? d0 : -1;
}

/* cuda.grid() and cuda.gridsize() as lower/lower_builtins.c writes them (and as
 * users spell them by hand): ctaid*ntid, tid + ctaid*ntid, ntid*nctaid, per
 * dimension.  Under grid32 (nctaid*ntid <= 2^31-1, and ctaid < nctaid,
 * tid < ntid) each lies in [0, 2^31-1]: their interval, or NONE. */
static Iv grid_form(const IrFunc *f, const Inst *in) {
  if (!in || in->nargs != 2 || !in->type || in->type->kind != TY_I64)
    return NONE;
  if (pair_dim(f, in, OP_BLOCK_IDX, OP_BLOCK_DIM) >= 0)
    return iv(0, I32_HI - 1);
  if (pair_dim(f, in, OP_BLOCK_DIM, OP_GRID_DIM) >= 0)
    return iv(1, I32_HI);
  if (in->op != OP_ADD)
    return NONE;
  for (int k = 0; k < 2; k++) {
    int d = -1;
    if (grid_reg(f, in->args[k], &d) == (int)OP_THREAD_IDX &&
        pair_dim(f, inst_at(f, in->args[1 - k]), OP_BLOCK_IDX, OP_BLOCK_DIM) == d)
      return iv(0, I32_HI - 1);
  }
  return NONE;
}

/* A cuda.grid() sum (tid + ctaid * ntid) of dimension x: the one codegen
 * emits in 32 bits (ir_narrow_insts says why only this one). */
static bool grid_x(const IrFunc *f, const Inst *in) {
  int d0 = -1, d1 = -1;
  return (grid_reg(f, in->args[0], &d0) == (int)OP_THREAD_IDX && d0 == 0) ||
         (grid_reg(f, in->args[1], &d1) == (int)OP_THREAD_IDX && d1 == 0);
}

/* v loads an array argument of the entry kernel that fits32 covers. */
static bool checked_array(const Narrow *N, int v) {
  const Inst *a = inst_at(N->f, v);
  return N->checked && a && a->op == OP_LOAD && a->local >= 0 && a->local < N->f->nparams &&
         N->checked[a->local];
}

/* Under fits32 every extent of a checked array is below 2^31; so is its
 * size when it has one dimension, or C layout and elements of nonzero size
 * (the byte span is then size * itemsize; a strided array may repeat
 * elements with stride 0, so its size is not bounded). */
static Iv extent_range(const Narrow *N, const Inst *in) {
  if (!checked_array(N, in->args[0]))
    return NONE;
  if (in->op == OP_ARRAY_SHAPE)
    return iv(0, I32_HI);
  const Type *t = N->f->locals.data[N->f->insts.data[in->args[0]].local].type;
  bool sized = t->elem && (ty_is_int(t->elem) || ty_is_float(t->elem) || ty_is_complex(t->elem) ||
                           t->elem->kind == TY_BOOL);
  return t->ndim == 1 || (t->layout == LAYOUT_C && sized) ? iv(0, I32_HI) : NONE;
}

/* What the launch facts bound about an int64 value (NONE: nothing here). */
static Iv fact_range(Narrow *N, const Inst *in, int depth) {
  if (N->grid32 && (in->op == OP_MUL || in->op == OP_ADD))
    return grid_form(N->f, in);
  if (in->op == OP_ARRAY_SHAPE || in->op == OP_ARRAY_SIZE)
    return in->nargs >= 1 ? extent_range(N, in) : NONE;
  if (in->op != OP_TUPLE_GET || in->nargs < 1)
    return NONE;
  const Inst *t = inst_at(N->f, in->args[0]);
  if (t && t->op == OP_TUPLE && in->ival >= 0 && in->ival < t->nargs)
    return value_range(N, t->args[in->ival], depth + 1);
  if (t && t->op == OP_ARRAY_SHAPE && t->ival == -1 && t->nargs >= 1) /* a.shape[k] */
    return checked_array(N, t->args[0]) ? iv(0, I32_HI) : NONE;
  return NONE;
}

/* v is a range() increment of local l: add(load l, constant step), ival 1. */
static bool is_increment(const IrFunc *f, int v, int l, int64_t *step) {
  const Inst *in = inst_at(f, v);
  if (!in || in->op != OP_ADD || in->ival != 1 || !loads_local(f, in->args[0], l))
    return false;
  const Inst *s = inst_at(f, in->args[1]);
  if (!s || s->op != OP_CONST_INT || s->ival == 0)
    return false;
  *step = s->ival;
  return true;
}

/* A counter only steps after a test `load l < stop` (step > 0) or
 * `load l > stop` (step < 0) passed (lower/lower_stmt.c): it stays between its start
 * values and the last stop plus one step.  Every such test is counted, so
 * the bound holds whichever guards the increment.  Only loops with a step
 * of 1 or -1 test their counter; any other step counts its iterations
 * instead, so its counter has no test here and stays 64-bit. */
static Iv counter_range(Narrow *N, int l, Iv init, int64_t step, int depth) {
  IrOp test = step > 0 ? OP_LT : OP_GT;
  Iv stop = NONE;
  bool any = false;
  for (int k = 0; k < N->f->insts.len; k++) {
    const Inst *in = &N->f->insts.data[k];
    if (in->op != test || in->nargs != 2 || !loads_local(N->f, in->args[0], l))
      continue;
    Iv s = value_range(N, in->args[1], depth + 1);
    stop = any ? join(stop, s) : s;
    any = true;
  }
  if (!any || !stop.ok || !init.ok)
    return NONE;
  if (step > 0)
    return iv_wide(init.lo, init.hi > (__int128)stop.hi - 1 + step ? init.hi : (__int128)stop.hi - 1 + step);
  return iv_wide(init.lo < (__int128)stop.lo + 1 + step ? init.lo : (__int128)stop.lo + 1 + step, init.hi);
}

/* The union of everything stored to local l (and its argument value). */
static Iv compute_local(Narrow *N, int l, int depth) {
  const IrLocal *loc = &N->f->locals.data[l];
  Iv t = type_range(loc->type);
  if (t.ok || !loc->type || loc->type->kind != TY_I64)
    return t;
  if (l < N->f->nparams)
    return NONE; /* an int64 argument: any value (the launch fact is about arrays) */
  Iv r = NONE;
  bool any = false, counter = false;
  int64_t step = 0, s;
  for (int k = 0; k < N->f->insts.len; k++) {
    const Inst *in = &N->f->insts.data[k];
    if (in->op != OP_STORE || in->local != l)
      continue;
    if (is_increment(N->f, in->args[0], l, &s)) {
      if (counter && s != step)
        return NONE;
      counter = true;
      step = s;
      continue;
    }
    Iv x = value_range(N, in->args[0], depth + 1);
    r = any ? join(r, x) : x;
    any = true;
    if (!r.ok)
      return NONE;
  }
  if (!any)
    return NONE;
  return counter ? counter_range(N, l, r, step, depth) : r;
}

static Iv local_range(Narrow *N, int l, int depth) {
  if (l < 0 || l >= N->f->locals.len || N->state[l] == 1)
    return NONE; /* a cycle: unbounded (sound; only less precise) */
  if (N->state[l] == 2)
    return N->memo[l];
  N->state[l] = 1;
  Iv r = compute_local(N, l, depth);
  N->state[l] = 2;
  N->memo[l] = r;
  return r;
}

/* A counter that fits, and the locals its tests load their stops from. */
static int mark_counter(Narrow *N, int l, bool *narrow) {
  if (!fits_i32(local_range(N, l, 0)))
    return 0;
  int n = !narrow[l];
  narrow[l] = true;
  for (int k = 0; k < N->f->insts.len; k++) {
    const Inst *in = &N->f->insts.data[k];
    if ((in->op != OP_LT && in->op != OP_GT) || in->nargs != 2 || !loads_local(N->f, in->args[0], l))
      continue;
    const Inst *s = inst_at(N->f, in->args[1]);
    if (s && s->op == OP_LOAD && s->local >= N->f->nparams && !narrow[s->local] &&
        s->type && s->type->kind == TY_I64 && fits_i32(local_range(N, s->local, 0))) {
      narrow[s->local] = true;
      n++;
    }
  }
  return n;
}

int ir_narrow_locals(const IrCompile *c, const IrFunc *f, bool *narrow) {
  int nl = f->locals.len, n = 0;
  memset(narrow, 0, sizeof *narrow * (size_t)nl);
  Narrow N = {.f = f};
  /* The launch fact (ir_compile_fits32) would bound extents too, but a
   * counter bounded by a truncated int64 is no gain: instcombine rewrites
   * sext(i32 phi) of it into a counter in the upper half of a 64-bit
   * register (shl/ashr by 32 each iteration; measured on LLVM 19).  So only
   * values that are 32-bit by type bound counters; the fact serves array
   * offsets (codegen/cg_mem.c). */
  (void)c;
  N.state = calloc((size_t)nl + 1, 1);
  N.memo = calloc((size_t)nl + 1, sizeof *N.memo);
  bool *counter = calloc((size_t)nl + 1, sizeof *counter);
  if (!N.state || !N.memo || !counter)
    goto out; /* no narrowing: always correct */
  int64_t step;
  for (int k = 0; k < f->insts.len; k++) { /* the range() counters, in one pass */
    const Inst *in = &f->insts.data[k];
    if (in->op == OP_STORE && in->local >= f->nparams && in->local < nl &&
        is_increment(f, in->args[0], in->local, &step))
      counter[in->local] = true;
  }
  for (int l = f->nparams; l < nl; l++) {
    const Type *t = f->locals.data[l].type;
    if (counter[l] && t && t->kind == TY_I64)
      n += mark_counter(&N, l, narrow);
  }
out:
  free(N.state);
  free(N.memo);
  free(counter);
  return n;
}

/* ------------------------------------------------- 32-bit instructions -- */

/* Per parameter: an array of the entry kernel, never reassigned, whose
 * extents the launch's fits32 check bounds.  NULL when no fact applies. */
static bool *checked_params(const IrCompile *c, const IrFunc *f) {
  if (!ir_compile_fits32(c) || c->funcs.len == 0 || c->funcs.data[0] != f || f->nparams <= 0)
    return NULL;
  bool *ok = calloc((size_t)f->nparams, sizeof *ok);
  if (!ok)
    return NULL;
  for (int l = 0; l < f->nparams; l++)
    ok[l] = f->locals.data[l].type && f->locals.data[l].type->kind == TY_ARRAY;
  for (int k = 0; k < f->insts.len; k++) {
    const Inst *in = &f->insts.data[k];
    if (in->op == OP_STORE && in->local >= 0 && in->local < f->nparams)
      ok[in->local] = false;
  }
  return ok;
}

static bool is_i64(const IrFunc *f, int v) {
  const Inst *in = inst_at(f, v);
  return in && in->type && in->type->kind == TY_I64;
}

static bool is_const(const IrFunc *f, int v) {
  const Inst *in = inst_at(f, v);
  return in && in->op == OP_CONST_INT;
}

/* Both operands of an int64 comparison lie in int32: comparing their
 * truncations gives the same answer, signed or not.  Not against a
 * constant: LLVM narrows `icmp (zext x), C` itself, and a truncation would
 * hide what it knows of the int64 value (range()'s `step > 0` on
 * cuda.gridsize() folded only in 64 bits: the histogram benchmark). */
static bool narrow_compare(Narrow *N, const Inst *in) {
  if (in->op < OP_EQ || in->op > OP_GE || in->nargs != 2 || !is_i64(N->f, in->args[0]) ||
      !is_i64(N->f, in->args[1]) || is_const(N->f, in->args[0]) || is_const(N->f, in->args[1]))
    return false;
  return fits_i32(value_range(N, in->args[0], 0)) && fits_i32(value_range(N, in->args[1], 0));
}

int ir_narrow_insts(const IrCompile *c, const IrFunc *f, uint8_t *mark) {
  int nl = f->locals.len, n = 0;
  memset(mark, 0, (size_t)f->insts.len);
  /* Under grid32 only cuda.grid()'s x sum is emitted in 32 bits (y and z
   * are already: NVPTX tells LLVM their registers' ranges).  Products alone
   * (`cuda.blockIdx.x * cuda.blockDim.x` kept in a variable, gridsize) stay
   * int64 and feed only the comparisons: narrowing them cost the
   * @cuda.reduce kernel two registers (32 -> 34, fewer blocks per SM). */
  Narrow N = {.f = f, .grid32 = c->grid32, .checked = checked_params(c, f)};
  /* With index checks on (debug, boundscheck) the checks stay int64, and
   * LLVM folds a check into the guard before it only when both are int64
   * (measured: a debug kernel's PTX grew by a quarter): keep its guards. */
  bool checks = f->opts.debug || f->opts.boundscheck;
  N.state = calloc((size_t)nl + 1, 1);
  N.memo = calloc((size_t)nl + 1, sizeof *N.memo);
  N.idone = calloc((size_t)f->insts.len + 1, 1);
  N.imemo = calloc((size_t)f->insts.len + 1, sizeof *N.imemo);
  for (int k = 0; N.state && N.memo && N.idone && N.imemo && k < f->insts.len; k++) {
    const Inst *in = &f->insts.data[k];
    if (c->grid32 && in->op == OP_ADD && grid_form(f, in).ok && grid_x(f, in))
      mark[k] = IR_NARROW_GRID;
    else if (!checks && narrow_compare(&N, in))
      mark[k] = IR_NARROW_CMP;
    n += mark[k] != 0;
  }
  free(N.state);
  free(N.memo);
  free(N.idone);
  free(N.imemo);
  free(N.checked);
  return n;
}

/* ------------------------------------------------------- the launch fact -- */

/* Bytes an element of t takes at most (records: an upper bound). */
static int64_t elem_bytes(const Type *t) {
  return t && (ty_is_int(t) || ty_is_float(t) || t->kind == TY_BOOL) ? (ty_bits(t) + 7) / 8 : 1 << 12;
}

/* A host-bound array reaches the kernel without a launch check: it must
 * satisfy the fact by itself. */
static bool host_global_fits(const IrHostGlobal *g) {
  if (!g->bound)
    return true;
  __int128 span = elem_bytes(g->elem);
  for (int k = 0; k < g->ndim; k++) {
    int64_t ext = g->shape[k];
    int64_t stride = g->byref ? g->strides[k] : 0;
    if (ext < 0 || ext > I32_HI)
      return false;
    if (ext > 0)
      span += g->byref ? (__int128)(ext - 1) * (stride < 0 ? -(__int128)stride : stride)
                       : (__int128)(ext - 1) * span;
  }
  return span <= I32_HI;
}

bool ir_compile_fits32(const IrCompile *c) {
  if (!c->fits32)
    return false;
  for (int i = 0; c->prog && i < c->prog->host_globals.len; i++)
    if (!host_global_fits(&c->prog->host_globals.data[i]))
      return false;
  return true;
}

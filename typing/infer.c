/* infer.c - specialization: a typed clone of a generic function for concrete
 * argument types (ir_specialize).
 *
 * Steps, in order: memo lookup in the compile; clone; the typing passes
 * (`passes` below: unreachable blocks dropped, stored parameters given a
 * shadow local, SSA, lowering's types moved where the rules read them;
 * silent passes of the per-op rules (infer_ops.c) until no local or
 * instruction type changes, one report pass that raises every error;
 * return type; conversions materialized, infer_cast.c); mangled symbol.  Callees are specialized recursively
 * from the CALL rule.  Invariant: c->funcs holds each (generic, argument
 * types) once; an entry with typed == false and symbol == NULL is still in
 * progress (a call to it is recursion), one with a symbol failed. */
#include <stdio.h>

#include <ctype.h>

#include "common/hash.h"
#include "typing/typing_internal.h"

#define MAX_PASSES 64

/* ---------------------------------------------------------------- memo -- */

static bool same_params(const IrFunc *f, const Type *const *types) {
  for (int i = 0; i < f->nparams; i++)
    if (f->locals.data[i].type != types[i])
      return false;
  return true;
}

static bool same_const(const IrConstArg *a, const IrConstArg *b) {
  bool ka = a && a->known, kb = b && b->known;
  if (ka != kb)
    return false;
  if (!ka)
    return true;
  if (a->n != b->n)
    return false;
  for (int i = 0; i < (a->n ? a->n : 1); i++)
    if (a->v[i] != b->v[i])
      return false;
  return true;
}

static bool same_consts(const IrFunc *f, const IrConstArg *consts) {
  for (int i = 0; i < f->nparams; i++)
    if (!same_const(f->consts ? &f->consts[i] : NULL, consts ? &consts[i] : NULL))
      return false;
  return true;
}

static IrFunc *find_spec(IrCompile *c, const IrFunc *gen, const Type *const *types,
                         const IrConstArg *consts) {
  for (int i = 0; i < c->funcs.len; i++) {
    IrFunc *f = c->funcs.data[i];
    if (f->generic == gen && same_params(f, types) && same_consts(f, consts))
      return f;
  }
  return NULL;
}

/* Freezes the parameters given constants.  An integer: each read becomes
 * the constant (of the parameter's type), so typing can fold it into a
 * shape.  A tuple: kept in the consts record, which typing's folding reads
 * (infer_ctvalue.c).  A parameter the body assigns is left alone. */
static void freeze_consts(IrCompile *c, IrFunc *f, const IrConstArg *consts) {
  if (!consts)
    return;
  IrConstArg *kept = arena_alloc(c->arena, sizeof *kept * (size_t)(f->nparams + 1));
  for (int p = 0; p < f->nparams; p++) {
    bool stored = false;
    for (int i = 0; i < f->insts.len && !stored; i++)
      stored = f->insts.data[i].op == OP_STORE && f->insts.data[i].local == p;
    const Type *t = f->locals.data[p].type;
    if (!consts[p].known || stored)
      continue;
    kept[p] = consts[p];
    if (consts[p].n > 0 || (!ty_is_int(t) && t != TY_BOOL_T))
      continue;
    for (int i = 0; i < f->insts.len; i++) {
      Inst *in = &f->insts.data[i];
      if (in->op != OP_LOAD || in->local != p)
        continue;
      in->op = t == TY_BOOL_T ? OP_CONST_BOOL : OP_CONST_INT;
      in->ival = consts[p].v[0];
      in->type = t;
      in->local = -1;
    }
  }
  f->consts = kept;
}

static bool in_progress(const IrFunc *f) { return !f->typed && !f->symbol; }

static int generic_in_progress(IrCompile *c, const IrFunc *gen) {
  int n = 0;
  for (int i = 0; i < c->funcs.len; i++)
    n += c->funcs.data[i]->generic == gen && in_progress(c->funcs.data[i]);
  return n;
}

/* The specialization whose body is being typed now: a call that finds it
 * again calls itself. */
static const IrFunc *innermost_in_progress(IrCompile *c) {
  for (int i = c->funcs.len - 1; i >= 0; i--)
    if (in_progress(c->funcs.data[i]))
      return c->funcs.data[i];
  return NULL;
}

/* Lazy specializations of one function nested inside each other's typing
 * (fact(int32) calls fact(int64), which calls itself): a few are a type
 * settling, more a type that keeps changing. */
#define MAX_NESTED_SPECS 4

/* Recursion through an explicit signature takes the declared return type.
 * A lazy function's recursion back into the specialization being typed
 * takes, as Numba's does, the type of its return paths typed so far (see
 * provisional_return); any other cycle (another argument types, or through
 * another lazy function) needs a signature, and kjit says which. */
static void report_recursion(IrCompile *c, const IrFunc *gen, SrcLoc callsite) {
  diag_add(c->diags, DL_ERROR, E_TY_RECURSION, callsite,
           "give the functions on this cycle explicit signatures, e.g. "
           "@cuda.jit('int64(int64)', device=True): without one, kjit infers only a function's "
           "calls of itself with the same argument types",
           "recursive call to '%s', which has no explicit signature for these argument types",
           gen->name);
}

/* A lazy self-recursive call's type while `memo` is still typed: the
 * unification of the returns typed so far, skipping those whose value is
 * untyped (it may depend on the call itself) or poisoned.  NULL while no
 * return is typed: the call stays untyped for another pass, and if none
 * ever is, the recursion is a runaway (typing/infer_ops.c says so).  The
 * type found must be the function's final return type (checked by
 * check_rec_ret once it is typed). */
static const Type *provisional_return(IrCompile *c, const IrFunc *memo) {
  const Type *ret = NULL;
  for (int i = 0; i < memo->insts.len; i++) {
    const Inst *in = &memo->insts.data[i];
    if (in->op != OP_RET)
      continue;
    const Type *t = in->nargs == 1 ? memo->insts.data[in->args[0]].type : TY_VOID_T;
    if (!t || t->kind == TY_UNKNOWN)
      continue;
    if (t->kind == TY_NONE)
      t = TY_VOID_T;
    const Type *u = ret ? ty_unify(c->prog->types, ret, t) : t;
    if (!u)
      return ret;    /* infer_return reports the mismatch */
    ret = u;
  }
  return ret;
}

/* The call closes a cycle at `memo` (still being typed): every function
 * typed since then is on the cycle and must stay out of line. */
static void mark_cycle(IrCompile *c, IrFunc *memo) {
  bool on = false;
  for (int i = 0; i < c->funcs.len; i++) {
    on = on || c->funcs.data[i] == memo;
    if (on && in_progress(c->funcs.data[i]))
      c->funcs.data[i]->recursive = true;
  }
}

/* The parameter types a specialization gets: the argument types, except
 * that a C-contiguous array passed where an A array is annotated takes the
 * annotated type.  Returns false after reporting a mismatch. */
static bool effective_params(IrCompile *c, const IrFunc *gen, const Type *const *args,
                             const Type **out) {
  char b1[256], b2[256];
  for (int i = 0; i < gen->nparams; i++) {
    const Type *ann = gen->annotations ? gen->annotations[i] : NULL, *a = args[i];
    const IrLocal *p = &gen->locals.data[i];
    if (!a || a->kind == TY_UNKNOWN || a->kind == TY_VOID) {
      diag_add(c->diags, DL_ERROR, E_TY_ANNOTATION, p->loc, NULL,
               "argument '%s' of '%s' has no type", p->name, gen->name);
      return false;
    }
    out[i] = a;
    if (!ann || ann == a)
      continue;
    if (ann->kind == TY_ARRAY && a->kind == TY_ARRAY && ann->layout == LAYOUT_A &&
        ann->elem == a->elem && ann->ndim == a->ndim) {
      out[i] = a->readonly ? ty_array_readonly(c->prog->types, a->elem, a->ndim, LAYOUT_A) : ann;
      continue;
    }
    diag_add(c->diags, DL_ERROR, E_TY_ANNOTATION, p->loc, NULL,
             "argument '%s' of '%s' is annotated %s but got %s", p->name, gen->name,
             ty_name(ann, b1, sizeof b1), ty_name(a, b2, sizeof b2));
    return false;
  }
  return true;
}

/* ------------------------------------------------------------- prepare -- */

static void mark_reachable(Infer *inf) {
  IrFunc *f = inf->f;
  ir_infer_once_stale(inf); /* the single-store table walks reachable blocks */
  int *work = arena_alloc(inf->c->arena, sizeof(int) * (size_t)(f->blocks.len + 1));
  int n = 0;
  if (f->blocks.len == 0)
    return;
  inf->reachable[0] = true;
  work[n++] = 0;
  while (n > 0) {
    const IrBlock *b = &f->blocks.data[work[--n]];
    if (b->insts.len == 0)
      continue;
    int last = b->insts.data[b->insts.len - 1];
    if (last < 0 || last >= f->insts.len)
      continue;
    const Inst *t = &f->insts.data[last];
    int taken = t->op == OP_CBR && inf->taken ? inf->taken[b - f->blocks.data] : -1;
    int succ[2] = {(t->op == OP_BR || t->op == OP_CBR) && taken != 0 ? t->target : -1,
                   t->op == OP_CBR && taken != 1 ? t->target2 : -1};
    for (int k = 0; k < 2; k++)
      if (succ[k] >= 0 && succ[k] < f->blocks.len && !inf->reachable[succ[k]]) {
        inf->reachable[succ[k]] = true;
        work[n++] = succ[k];
      }
  }
}

/* Unreachable blocks (code after return/break, dead branches) are never
 * typed: their contents become one `unreachable`, so Numba-accepted code
 * with ill-typed dead statements still compiles and every Inst.type is set. */
static void drop_unreachable(Infer *inf) {
  IrFunc *f = inf->f;
  for (int b = 0; b < f->blocks.len; b++) {
    if (inf->reachable[b])
      continue;
    int u = ir_emit(inf->c->arena, f, -1, OP_UNREACHABLE, (SrcLoc){0}, NULL, 0);
    f->insts.data[u].type = TY_VOID_T;
    IrBlock *blk = &f->blocks.data[b];
    blk->insts.len = 0;
    vec_push(inf->c->arena, &blk->insts, u);
  }
}

/* Numba's dead branch pruning: a branch whose condition is a compile-time
 * constant (`if a.ndim == 2:`, `if DEBUG:`, a frozen argument) keeps one
 * edge, so the code only the other reaches is never typed.  Returns whether
 * an edge was newly pruned (reachability is then recomputed). */
static bool prune_branches(Infer *inf) {
  IrFunc *f = inf->f;
  bool pruned = false;
  for (int b = 0; b < f->blocks.len; b++) {
    const IrBlock *blk = &f->blocks.data[b];
    if (!inf->reachable[b] || inf->taken[b] >= 0 || blk->insts.len == 0)
      continue;
    const Inst *t = &f->insts.data[blk->insts.data[blk->insts.len - 1]];
    int64_t v;
    if (t->op != OP_CBR || !ir_infer_const_int(inf, t->args[0], &v))
      continue;
    inf->taken[b] = v != 0;
    pruned = true;
  }
  if (!pruned)
    return false;
  memset(inf->reachable, 0, sizeof(bool) * (size_t)f->blocks.len);
  mark_reachable(inf);
  drop_unreachable(inf);
  return true;
}

static void prepend(Arena *a, IrBlock *b, int x, int y) {
  vec_push(a, &b->insts, 0);
  vec_push(a, &b->insts, 0);
  memmove(b->insts.data + 2, b->insts.data, sizeof(int) * (size_t)(b->insts.len - 2));
  b->insts.data[0] = x;
  b->insts.data[1] = y;
}

/* A parameter that the body assigns gets a shadow local holding its value,
 * so the parameter keeps exactly the argument type (the ABI and the memo key)
 * while the variable unifies freely (`x = x * 0.5` on an int64 x). */
static void shadow_stored_params(Infer *inf) {
  IrFunc *f = inf->f;
  for (int p = 0; p < f->nparams && f->blocks.len > 0; p++) {
    bool stored = false;
    for (int i = 0; i < f->insts.len && !stored; i++)
      stored = f->insts.data[i].op == OP_STORE && f->insts.data[i].local == p;
    if (!stored)
      continue;
    IrLocal param = f->locals.data[p];
    int sh = ir_local_new(inf->c->arena, f, param.name, param.loc);
    for (int i = 0; i < f->insts.len; i++) {
      Inst *in = &f->insts.data[i];
      if ((in->op == OP_LOAD || in->op == OP_STORE) && in->local == p)
        in->local = sh;
    }
    int ld = ir_emit(inf->c->arena, f, -1, OP_LOAD, param.loc, NULL, 0);
    f->insts.data[ld].local = p;
    int st = ir_emit(inf->c->arena, f, -1, OP_STORE, param.loc, &ld, 1);
    f->insts.data[st].local = sh;
    prepend(inf->c->arena, &f->blocks.data[0], ld, st);
  }
}

/* Lowering's types: constants keep theirs (int literals int64, globals
 * their own type), a cast's destination moves to tyimm; everything else is
 * computed afresh. */
static void reset_types(IrFunc *f) {
  for (int i = 0; i < f->insts.len; i++) {
    Inst *in = &f->insts.data[i];
    bool is_const = in->op >= OP_CONST_INT && in->op <= OP_CONST_STR;
    if (in->op == OP_CAST && !in->tyimm)
      in->tyimm = in->type;
    if (!is_const && in->op != OP_UNREACHABLE)
      in->type = NULL;
  }
}

static void count_stores(Infer *inf) {
  IrFunc *f = inf->f;
  for (int b = 0; b < f->blocks.len; b++)
    for (int k = 0; k < f->blocks.data[b].insts.len; k++) {
      const Inst *in = &f->insts.data[f->blocks.data[b].insts.data[k]];
      if (in->op == OP_STORE && in->local >= 0 && in->local < f->locals.len)
        inf->nstores[in->local]++;
    }
}

static bool valid_blocks(Infer *inf) {
  IrFunc *f = inf->f;
  for (int b = 0; b < f->blocks.len; b++)
    for (int k = 0; k < f->blocks.data[b].insts.len; k++) {
      int i = f->blocks.data[b].insts.data[k];
      if (i < 0 || i >= f->insts.len) {
        diag_add(inf->d, DL_ERROR, E_INTERNAL, f->ast ? f->ast->loc : (SrcLoc){0}, NULL,
                 "internal error: block %d of '%s' lists instruction %d", b, f->name, i);
        return false;
      }
    }
  if (f->blocks.len == 0)
    diag_add(inf->d, DL_ERROR, E_INTERNAL, f->ast ? f->ast->loc : (SrcLoc){0}, NULL,
             "internal error: '%s' has no blocks", f->name);
  return f->blocks.len > 0;
}

/* The function fits the optimizer: at most IR_MAX_BLOCKS basic blocks. */
static bool check_size(Infer *inf) {
  IrFunc *f = inf->f;
  if (f->blocks.len <= IR_MAX_BLOCKS)
    return true;
  diag_add(inf->d, DL_ERROR, E_TY_TOO_LARGE, f->ast ? f->ast->loc : (SrcLoc){0},
           "split it into device functions, or replace chains of ifs by a lookup in an array",
           "function '%s' is too large to compile: %d basic blocks (at most %d; the optimizer's "
           "time and memory grow quadratically with them)", f->name, f->blocks.len, IR_MAX_BLOCKS);
  return false;
}

/* `if x is None` on a parameter: the branch its type decides (infer_is.c). */
static bool prune_type_branches(Infer *inf) {
  inf->reachable = arena_alloc(inf->c->arena, sizeof(bool) * (size_t)inf->f->blocks.len);
  inf->once = arena_alloc(inf->c->arena, sizeof *inf->once); /* zeroed: not built yet */
  ir_prune_type_branches(inf);
  return true;
}

static bool unreachable(Infer *inf) {
  mark_reachable(inf);
  drop_unreachable(inf);
  return true;
}

static bool shadow_params(Infer *inf) {
  shadow_stored_params(inf);
  return true;
}

static bool ssa(Infer *inf) {
  ir_split_locals(inf->c->arena, inf->f);
  return true;
}

/* Lowering's types moved where the rules read them; the per-instruction
 * state of the fixed point. */
static bool reset(Infer *inf) {
  Arena *a = inf->c->arena;
  IrFunc *f = inf->f;
  reset_types(f);
  inf->ninsts = f->insts.len;
  inf->dead = arena_alloc(a, sizeof(bool) * (size_t)(inf->ninsts + 1));
  inf->reported = arena_alloc(a, sizeof(bool) * (size_t)(inf->ninsts + 1));
  inf->taken = arena_alloc(a, (size_t)f->blocks.len + 1);
  memset(inf->taken, -1, (size_t)f->blocks.len + 1);
  return true;
}

/* Conditions known from the signature alone. */
static bool prune_known_branches(Infer *inf) {
  while (prune_branches(inf))
    ;
  return true;
}

static bool stores(Infer *inf) {
  inf->nstores = arena_alloc(inf->c->arena, sizeof(int) * (size_t)(inf->f->locals.len + 1));
  count_stores(inf);
  return true;
}

/* ---------------------------------------------------------- fixed point -- */

static void set_type(Infer *inf, int idx, const Type *t) {
  if (t != inf->f->insts.data[idx].type) {
    inf->f->insts.data[idx].type = t;
    inf->changed = true;
  }
}

/* Poison (TY_UNKNOWN_T, the error sentinel) marks a value whose typing
 * failed with an error already out, and everything computed from it, so
 * that one mistake gives one diagnostic.  Only untyped values are poisoned:
 * a typed operand never changes, so no rule's verdict does either. */
static bool poisoned(const Type *t) { return t && t->kind == TY_UNKNOWN; }

static bool uses_poison(const Infer *inf, const Inst *in) {
  for (int k = 0; k < in->nargs; k++)
    if (poisoned(inf->f->insts.data[in->args[k]].type))
      return true;
  return in->op == OP_LOAD && poisoned(inf->f->locals.data[in->local].type);
}

/* A store of a poisoned value poisons a local that nothing else typed. */
static void poison(Infer *inf, int idx) {
  Inst *in = &inf->f->insts.data[idx];
  set_type(inf, idx, TY_UNKNOWN_T);
  if (in->op == OP_STORE && in->local >= 0 && !inf->f->locals.data[in->local].type) {
    inf->f->locals.data[in->local].type = TY_UNKNOWN_T;
    inf->changed = true;
  }
}

/* Report mode: instructions using poison are skipped (no rule runs, so no
 * diagnostic); one whose rule reports an error becomes poison itself. */
static void infer_or_poison(Infer *inf, int idx) {
  const Inst *in = &inf->f->insts.data[idx];
  if (poisoned(in->type))
    return;
  if (inf->dead[idx] || uses_poison(inf, in)) {
    poison(inf, idx);
    return;
  }
  const Type *t = ir_infer_inst(inf, idx, NULL);
  if (!t && inf->reported[idx])
    poison(inf, idx);
  else
    set_type(inf, idx, t);
}

static void run_pass(Infer *inf) {
  IrFunc *f = inf->f;
  for (int b = 0; b < f->blocks.len; b++) {
    if (!inf->reachable[b])
      continue;
    for (int k = 0; k < f->blocks.data[b].insts.len; k++) {
      int idx = f->blocks.data[b].insts.data[k];
      if (inf->report)
        infer_or_poison(inf, idx);
      else if (!inf->dead[idx])
        set_type(inf, idx, ir_infer_inst(inf, idx, NULL));
    }
  }
}

/* Report passes until poison stops spreading (it only grows, and reports
 * are made once per instruction; the bound is a guard all the same). */
static void report_passes(Infer *inf) {
  int pass = 0;
  do {
    inf->changed = false;
    ir_infer_once_stale(inf); /* a pass may add or retarget stores */
    run_pass(inf);
  } while (inf->changed && ++pass < MAX_PASSES);
}

static bool operands_typed(const IrFunc *f, const Inst *in) {
  for (int k = 0; k < in->nargs; k++)
    if (!f->insts.data[in->args[k]].type)
      return false;
  return true;
}

/* An untyped, unpoisoned instruction whose operands are all typed: a root
 * cause no rule explained (-1 when none is left). */
static int find_unexplained(const Infer *inf) {
  const IrFunc *f = inf->f;
  for (int b = 0; b < f->blocks.len; b++)
    for (int k = 0; inf->reachable[b] && k < f->blocks.data[b].insts.len; k++) {
      int idx = f->blocks.data[b].insts.data[k];
      const Inst *in = &f->insts.data[idx];
      if (!in->type && !inf->reported[idx] && operands_typed(f, in))
        return idx;
    }
  return -1;
}

static bool loc_before(SrcLoc a, SrcLoc b) {
  return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/* The first use in the source of a local that is untyped, so unpoisoned. */
static int first_load(const Infer *inf, int local) {
  const IrFunc *f = inf->f;
  int first = -1;
  for (int i = 0; i < inf->ninsts; i++) {
    const Inst *in = &f->insts.data[i];
    if (in->op == OP_LOAD && in->local == local && !in->type &&
        (first < 0 || loc_before(in->loc, f->insts.data[first].loc)))
      first = i;
  }
  return first;
}

/* A local left untyped without poison is only ever assigned values computed
 * from itself (`total += x` with no `total = 0`): Python would raise
 * UnboundLocalError at its first read.  Same wording as type_load's. */
static void report_unassigned(Infer *inf, int idx) {
  int local = inf->f->insts.data[idx].local;
  const char *name = inf->f->locals.data[local].name;
  char hint[256];
  snprintf(hint, sizeof hint, "give '%s' a value before it is first read (e.g. %s = 0)", name,
           name);
  ir_infer_fail(inf, first_load(inf, local), E_TY_UNDEFINED, hint,
                "local variable '%s' referenced before assignment", name);
  inf->f->locals.data[local].type = TY_UNKNOWN_T;
}

/* After the report passes: explain each remaining root cause once, then
 * let its poison silence what depends on it. */
static void report_untyped(Infer *inf) {
  for (int idx; (idx = find_unexplained(inf)) >= 0;) {
    const Inst *in = &inf->f->insts.data[idx];
    if (in->op == OP_LOAD && in->local >= 0 && in->local < inf->f->locals.len)
      report_unassigned(inf, idx);
    else
      ir_infer_fail(inf, idx, E_TY_UNKNOWN, NULL, "could not infer type");
    inf->reported[idx] = true; /* a root found twice would loop forever */
    report_passes(inf);
  }
}

static bool solve(Infer *inf) {
  int pass = 0, before = inf->d->nerrors; /* callees report during passes */
  do {
    inf->changed = false;
    ir_infer_once_stale(inf); /* a pass may add or retarget stores */
    run_pass(inf);
  } while (inf->changed && ++pass < MAX_PASSES);
  if (inf->changed) {
    diag_add(inf->d, DL_ERROR, E_TY_CONVERGE, inf->f->ast ? inf->f->ast->loc : (SrcLoc){0},
             "a variable's type keeps growing (e.g. x = (x, x) in a loop)",
             "type inference of '%s' did not converge", inf->f->name);
    return false;
  }
  inf->report = true;
  report_passes(inf);
  report_untyped(inf);
  inf->report = false;
  return inf->d->nerrors == before && !inf->callee_failed;
}

/* --------------------------------------------------------- return type -- */

static const Type *ret_value_type(const IrFunc *f, const Inst *in) {
  if (in->nargs != 1)
    return TY_VOID_T;
  const Type *t = f->insts.data[in->args[0]].type;
  return (!t || t->kind == TY_NONE) ? TY_VOID_T : t;
}

static bool check_kernel_ret(Infer *inf, int idx, const Type *t) {
  if (!inf->f->is_kernel || inf->f->is_device || t == TY_VOID_T)
    return true;
  inf->report = true;
  ir_infer_fail(inf, idx, E_TY_RETURN,
                "Numba kernels cannot return a value; write to an output array",
                "kernel '%s' cannot return a value (got %s)", inf->f->name, ir_infer_tname(inf, t));
  inf->report = false;
  return false;
}

static bool unify_ret(Infer *inf, int idx, const Type **ret, SrcLoc *first, const Type *t) {
  const Inst *in = &inf->f->insts.data[idx];
  if (!*ret) {
    *ret = t;
    *first = in->loc;
    return true;
  }
  const Type *u = ty_unify(inf->tt, *ret, t);
  if (u && u != TY_VOID_T && (*ret == TY_VOID_T || t == TY_VOID_T))
    u = NULL;
  if (u) {
    *ret = u;
    return true;
  }
  char hint[256];
  snprintf(hint, sizeof hint, "the first return (line %d) gives %s%s", first->line,
           ir_infer_tname(inf, *ret),
           (*ret == TY_VOID_T || t == TY_VOID_T) ? "; return a value on every path" : "");
  inf->report = true;
  ir_infer_fail(inf, idx, E_TY_RETURN, hint, "cannot unify %s and %s for the return value of '%s'",
                ir_infer_tname(inf, *ret), ir_infer_tname(inf, t), inf->f->name);
  inf->report = false;
  return false;
}

/* The return type: a declared one (eager signature), else the unification
 * of every reachable return (bare return and None are void). */
static bool infer_return(Infer *inf) {
  IrFunc *f = inf->f;
  const Type *ret = NULL;
  SrcLoc first = {0};
  bool ok = true;
  for (int b = 0; b < f->blocks.len; b++)
    for (int k = 0; inf->reachable[b] && k < f->blocks.data[b].insts.len; k++) {
      int idx = f->blocks.data[b].insts.data[k];
      if (f->insts.data[idx].op != OP_RET)
        continue;
      const Type *t = ret_value_type(f, &f->insts.data[idx]);
      ok = check_kernel_ret(inf, idx, t) && unify_ret(inf, idx, &ret, &first, t) && ok;
    }
  if (inf->declared_ret && ret && ret != TY_VOID_T &&
      !(ty_is_number(ret) && ty_is_number(inf->declared_ret)) && ret != inf->declared_ret) {
    diag_add(inf->d, DL_ERROR, E_TY_RETURN, first, NULL,
             "'%s' is declared to return %s but returns %s", f->name,
             ir_infer_tname(inf, inf->declared_ret), ir_infer_tname(inf, ret));
    ok = false;
  }
  f->ret_type = inf->declared_ret ? inf->declared_ret : ret ? ret : TY_VOID_T;
  return ok;
}

static const Type *declared_return(const IrFunc *gen, const Type *const *params) {
  for (int i = 0; i < gen->eager.len; i++) {
    const Signature *s = &gen->eager.data[i];
    if (!s->ret || s->ret == TY_VOID_T || s->nparams != gen->nparams)
      continue;
    bool same = true;
    for (int k = 0; k < s->nparams && same; k++)
      same = s->params[k] == params[k];
    if (same)
      return s->ret;
  }
  return NULL;
}

/* ------------------------------------------------------------- mangling -- */

static void put_code(StrBuf *sb, const Type *t) {
  static const char *const codes[] = {
      [TY_BOOL] = "b",   [TY_I8] = "i8",   [TY_I16] = "i16", [TY_I32] = "i32",
      [TY_I64] = "i64",  [TY_U8] = "u8",   [TY_U16] = "u16", [TY_U32] = "u32",
      [TY_U64] = "u64",  [TY_F16] = "f16", [TY_F32] = "f32", [TY_F64] = "f64",
      [TY_C64] = "c64",  [TY_C128] = "c128",
  };
  if (t->kind == TY_ARRAY) {
    sb_printf(sb, "%sa%d%c", t->readonly ? "r" : "", t->ndim, t->layout == LAYOUT_C ? 'C' : 'A');
    put_code(sb, t->elem);
  } else if (t->kind == TY_TUPLE) {
    sb_printf(sb, "%s%d", ty_is_vector(t) ? "v" : "t", t->nelems); /* t<n> (v<n>: vector
                                                                     type) then the codes */
    for (int i = 0; i < t->nelems; i++)
      put_code(sb, t->elems[i]);
  } else if (t->kind >= TY_BOOL && t->kind <= TY_C128) {
    sb_puts(sb, codes[t->kind]);
  } else if (t->kind == TY_RECORD) { /* R<size>_<hash of the layout>: short, yet one per record */
    StrBuf full;
    sb_init(&full);
    for (int i = 0; i < t->nelems; i++) {
      sb_printf(&full, "%s@%d:", t->fnames[i], t->offsets[i]);
      put_code(&full, t->elems[i]);
      sb_putc(&full, ';');
    }
    sb_printf(sb, "R%d_%016llx", t->size,
              (unsigned long long)hash_str(HASH_SEED + (uint64_t)t->aligned, full.data ? full.data : ""));
    sb_free(&full);
  } else if (t->kind == TY_NESTED) {
    sb_printf(sb, "N%d", t->ndim);
    for (int i = 0; i < t->ndim; i++)
      sb_printf(sb, "x%d", t->dims[i]);
    put_code(sb, t->elem);
  } else if (t->kind == TY_CHARSEQ) { /* S<n> / U<n>, NumPy's spelling */
    sb_printf(sb, "%c%d", t->align == 4 ? 'U' : 'S', t->size / t->align);
  } else if (t->kind == TY_BF16) {
    sb_puts(sb, "bf16");
  } else if (ty_is_fp8(t)) {
    sb_puts(sb, t->kind == TY_FP8_E4M3 ? "e4m3" : t->kind == TY_FP8_E5M2 ? "e5m2" : "e8m0");
  } else if (t->kind == TY_DTYPE) {
    sb_puts(sb, "D");
    put_code(sb, t->elem);
  } else if (t->kind == TY_PTR) { /* P<pointee>: float32* is Pf32 */
    sb_puts(sb, "P");
    put_code(sb, t->elem);
  } else if (t->kind == TY_FUNC) { /* F<length><name>, the name made a C name */
    sb_printf(sb, "F%zu", strlen(t->fname));
    for (const char *c = t->fname; *c; c++)
      sb_putc(sb, isalnum((unsigned char)*c) ? *c : '_');
  } else {
    sb_puts(sb, "x");
  }
}

/* <name>__<code>_<code>...: deterministic, so the disk cache and PTX are
 * stable across runs; "v" stands for an empty parameter list. */
/* The function's name as a symbol every target's assembler accepts:
 * Python identifiers may hold any Unicode letter, PTX and ELF symbols only
 * [A-Za-z0-9_$], so each other byte is written `$XX` (hex); `$` cannot
 * occur in a Python name, so distinct names stay distinct. */
static void put_symbol_name(StrBuf *sb, const char *name) {
  for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
    if (isalnum(*p) || *p == '_')
      sb_putc(sb, (char)*p);
    else
      sb_printf(sb, "$%02X", *p);
  }
}

static const char *mangle(Arena *a, const IrFunc *f) {
  StrBuf sb;
  sb_init(&sb);
  put_symbol_name(&sb, f->name ? f->name : "f");
  sb_puts(&sb, f->generic && f->generic->twin ? "__d_" : "__"); /* not the kernel's */
  for (int i = 0; i < f->nparams; i++) {
    if (i)
      sb_putc(&sb, '_');
    put_code(&sb, f->locals.data[i].type);
  }
  if (f->nparams == 0)
    sb_putc(&sb, 'v');
  for (int i = 0; f->consts && i < f->nparams; i++) /* frozen: a symbol per value */
    for (int k = 0; f->consts[i].known && k < (f->consts[i].n ? f->consts[i].n : 1); k++) {
      int64_t v = f->consts[i].v[k];
      if (k == 0)
        sb_printf(&sb, "_k%d", i);
      sb_printf(&sb, "_%s%llu", v < 0 ? "m" : "",
                (unsigned long long)(v < 0 ? 0 - (uint64_t)v : (uint64_t)v));
    }
  const char *s = arena_strdup(a, sb.data);
  sb_free(&sb);
  return s;
}

/* ----------------------------------------------------------- the driver -- */

/* Drop specializations made during this top-level request that the final
 * IR no longer calls (made for an argument type that later widened). */
static void prune_unused(IrCompile *c, int start) {
  int n = c->funcs.len;
  bool *used = arena_alloc(c->arena, sizeof(bool) * (size_t)(n + 1));
  for (int i = 0; i <= start && i < n; i++)
    used[i] = true;
  for (bool grew = true; grew;) {
    grew = false;
    for (int i = start; i < n; i++) {
      const IrFunc *f = c->funcs.data[i];
      for (int k = 0; used[i] && k < f->insts.len; k++)
        for (int j = start + 1; f->insts.data[k].op == OP_CALL && j < n; j++)
          if (!used[j] && c->funcs.data[j] == f->insts.data[k].callee)
            used[j] = grew = true;
    }
  }
  int out = 0;
  for (int i = 0; i < n; i++)
    if (used[i])
      c->funcs.data[out++] = c->funcs.data[i];
  c->funcs.len = out;
}

static bool resolve_is(Infer *inf) {
  ir_resolve_is(inf);
  return true;
}

static bool materialize(Infer *inf) {
  ir_infer_materialize(inf);
  return true;
}

/* The typing passes over one function, in order: ir_specialize runs them
 * on each function a compile reaches (callees from the CALL rule of
 * `solve`).  The compile driver's own passes are runtime/compile.c's. */
static const struct {
  const char *name;
  bool (*run)(Infer *inf);
} passes[] = {
    {"check-blocks", valid_blocks},         /* the IR is well formed */
    {"check-size", check_size},             /* at most IR_MAX_BLOCKS blocks */
    {"prune-type-branches", prune_type_branches},
    {"drop-unreachable", unreachable},
    {"shadow-stored-params", shadow_params},
    {"ssa", ssa},                           /* locals split per definition (ir/ssa.c) */
    {"reset-types", reset},
    {"prune-known-branches", prune_known_branches},
    {"count-stores", stores},
    {"solve", solve},                       /* the per-op rules to a fixed point, then
                                               one reporting pass (infer_ops.c) */
    {"infer-return", infer_return},
    {"resolve-is", resolve_is},             /* `is` / `is not` decided by the types */
    {"materialize", materialize},           /* implicit conversions as CASTs (infer_cast.c) */
};
#define NPASSES ((int)(sizeof passes / sizeof passes[0]))

int ir_typing_pass_count(void) { return NPASSES; }

const char *ir_typing_pass_name(int i) { return i >= 0 && i < NPASSES ? passes[i].name : NULL; }

static bool infer_func(IrCompile *c, IrFunc *f, const Type *declared_ret) {
  Infer inf = {0};
  inf.c = c;
  inf.f = f;
  inf.tt = c->prog->types;
  inf.d = c->diags;
  inf.narrow = f->opts.narrow_typing || (c->override && c->override->narrow_typing);
  inf.declared_ret = declared_ret;
  for (int i = 0; i < NPASSES; i++)
    if (!passes[i].run(&inf))
      return false;
  return true;
}

static bool check_nargs(IrCompile *c, const IrFunc *gen, int nargs, SrcLoc callsite) {
  if (nargs == gen->nparams)
    return true;
  diag_add(c->diags, DL_ERROR, E_TY_NARGS, callsite, NULL,
           "'%s' takes %d argument%s but %d %s given", gen->name, gen->nparams,
           gen->nparams == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
  return false;
}

/* A lazy self-recursive function: its recursive calls were typed with the
 * return type of its other paths, which must be the type it returns. */
static bool check_rec_ret(IrCompile *c, const IrFunc *f) {
  if (!f->rec_ret || f->rec_ret == f->ret_type)
    return true;
  char b1[128], b2[128];
  diag_add(c->diags, DL_ERROR, E_TY_RECURSION, f->ast ? f->ast->loc : (SrcLoc){0},
           "give it an explicit signature, e.g. @cuda.jit('int64(int64)', device=True)",
           "the recursive calls of '%s' were typed %s, but it returns %s", f->name,
           ty_name(f->rec_ret, b1, sizeof b1), ty_name(f->ret_type, b2, sizeof b2));
  return false;
}

IrFunc *ir_specialize(IrCompile *c, IrFunc *generic, const Type *const *argtypes, int nargs,
                      SrcLoc callsite) {
  return ir_specialize_consts(c, generic, argtypes, nargs, callsite, NULL);
}

IrFunc *ir_specialize_consts(IrCompile *c, IrFunc *generic, const Type *const *argtypes,
                             int nargs, SrcLoc callsite, const IrConstArg *consts) {
  if (!c || !generic || (nargs > 0 && !argtypes))
    return NULL;
  IrFunc *gen = generic->generic ? generic->generic : generic;
  if (ir_report_body_errors(gen, c->diags) || !check_nargs(c, gen, nargs, callsite))
    return NULL;
  const Type **params = arena_alloc(c->arena, sizeof *params * (size_t)(nargs + 1));
  if (!effective_params(c, gen, argtypes, params))
    return NULL;
  IrFunc *memo = find_spec(c, gen, params, consts);
  if (memo && in_progress(memo) && declared_return(gen, params)) {
    mark_cycle(c, memo);
    return memo; /* its ret_type is the declared one while it is typed */
  }
  if (memo && in_progress(memo) && !gen->eager.len && memo == innermost_in_progress(c)) {
    mark_cycle(c, memo);
    memo->rec_ret = memo->ret_type = provisional_return(c, memo);
    return memo;
  }
  if (memo && in_progress(memo))
    report_recursion(c, gen, callsite);
  if (memo)
    return memo->typed ? memo : NULL;
  int nested = generic_in_progress(c, gen);
  if (nested && (gen->eager.len || nested >= MAX_NESTED_SPECS)) {
    report_recursion(c, gen, callsite);
    return NULL;
  }
  bool top = true;
  for (int i = 0; i < c->funcs.len && top; i++)
    top = !in_progress(c->funcs.data[i]);
  int start = c->funcs.len;

  IrFunc *f = ir_func_clone(c->arena, gen);
  f->typed = false;
  f->symbol = NULL;
  f->ret_type = declared_return(gen, params); /* what a recursive call sees */
  f->recursive = false;
  for (int i = 0; i < nargs; i++) {
    f->locals.data[i].type = params[i];
    f->locals.data[i].type_loc = f->locals.data[i].loc;
  }
  freeze_consts(c, f, consts);
  vec_push(c->arena, &c->funcs, f); /* before the body: callers come first */
  bool ok = infer_func(c, f, declared_return(gen, params));
  ok = ok && check_rec_ret(c, f);
  f->symbol = mangle(c->arena, f);
  if (!ok)
    return NULL;
  f->typed = true;
  if (top)
    prune_unused(c, start);
  return f;
}

/* ssa.c - split each variable into its definitions, as Numba's SSA does.
 *
 * Numba types every assignment of a variable on its own and unifies types
 * only where control flow joins (a phi: after an if, around a loop).  kjit's
 * IR has one local per variable, which typing would unify over every
 * assignment: `h = x >> 16` (uint64) then `h = h * 3` (int64) would make h
 * float64.  This pass, run before typing, gives each STORE of a user
 * variable its own local, and each distinct set of stores that reaches some
 * LOAD (computed by reaching definitions) a "join" local that every store of
 * the set also writes; the load reads it.  Whatever path reached the load,
 * the last store executed was one of the set, so the join local holds the
 * right value, and its type is the unification of the set's types — Numba's
 * phi.  Hidden temporaries ('$' names) are left as they are. */
#include "ir/ir.h"

typedef uint64_t Word;
#define WBITS 64

typedef struct Def {
  int inst;          /* the STORE */
  int local;         /* the variable it defines (before the split) */
  int version;       /* its own local after the split */
} Def;

typedef struct Join {
  int local;         /* the variable */
  Word *set;         /* the defs (bit per Def) */
  int version;       /* the local the loads of this set read */
} Join;

typedef struct Ssa {
  Arena *a;
  IrFunc *f;
  Vec(Def) defs;
  int *def_of;       /* per instruction: index into defs, or -1 */
  bool *split;       /* per local: its stores are split */
  int nwords;        /* words per def set */
  Word *in, *out, *kill, *gen; /* per block: nwords each */
  Vec(Join) joins;
} Ssa;

static Word *set_at(const Ssa *s, Word *base, int block) { return base + (size_t)block * (size_t)s->nwords; }
static void set_bit(Word *w, int i) { w[i / WBITS] |= (Word)1 << (i % WBITS); }
static bool has_bit(const Word *w, int i) { return (w[i / WBITS] >> (i % WBITS)) & 1; }

static const Inst *terminator(const IrFunc *f, int b) {
  const IrBlock *blk = &f->blocks.data[b];
  return blk->insts.len ? &f->insts.data[blk->insts.data[blk->insts.len - 1]] : NULL;
}

/* Locals of user variables stored more than once are split. */
static bool choose_locals(Ssa *s) {
  IrFunc *f = s->f;
  int *stores = arena_alloc(s->a, sizeof(int) * (size_t)(f->locals.len + 1));
  for (int i = 0; i < f->insts.len; i++)
    if (f->insts.data[i].op == OP_STORE && f->insts.data[i].local >= 0)
      stores[f->insts.data[i].local]++;
  bool any = false;
  s->split = arena_alloc(s->a, sizeof(bool) * (size_t)(f->locals.len + 1));
  for (int l = 0; l < f->locals.len; l++) {
    const char *name = f->locals.data[l].name;
    s->split[l] = stores[l] > 1 && l >= f->nparams && name && name[0] != '$';
    any |= s->split[l];
  }
  return any;
}

/* Every STORE to a split local, in block order (only blocks' instructions
 * count: an instruction in no block is never executed). */
static void collect_defs(Ssa *s) {
  IrFunc *f = s->f;
  s->def_of = arena_alloc(s->a, sizeof(int) * (size_t)(f->insts.len + 1));
  for (int i = 0; i < f->insts.len; i++)
    s->def_of[i] = -1;
  for (int b = 0; b < f->blocks.len; b++)
    for (int k = 0; k < f->blocks.data[b].insts.len; k++) {
      int i = f->blocks.data[b].insts.data[k];
      const Inst *in = &f->insts.data[i];
      if (in->op != OP_STORE || in->local < 0 || !s->split[in->local])
        continue;
      Def d = {i, in->local, -1};
      s->def_of[i] = s->defs.len;
      vec_push(s->a, &s->defs, d);
    }
}

/* GEN: the last def of each variable in the block; KILL: every def of a
 * variable the block defines. */
static void local_sets(Ssa *s) {
  IrFunc *f = s->f;
  size_t n = (size_t)f->blocks.len * (size_t)s->nwords * sizeof(Word);
  s->in = arena_alloc(s->a, n);
  s->out = arena_alloc(s->a, n);
  s->kill = arena_alloc(s->a, n);
  s->gen = arena_alloc(s->a, n);
  int *last = arena_alloc(s->a, sizeof(int) * (size_t)(f->locals.len + 1));
  for (int b = 0; b < f->blocks.len; b++) {
    for (int l = 0; l < f->locals.len; l++)
      last[l] = -1;
    const IrBlock *blk = &f->blocks.data[b];
    for (int k = 0; k < blk->insts.len; k++) {
      int d = s->def_of[blk->insts.data[k]];
      if (d >= 0)
        last[s->defs.data[d].local] = d;
    }
    for (int d = 0; d < s->defs.len; d++)
      if (last[s->defs.data[d].local] >= 0)
        set_bit(set_at(s, s->kill, b), d);
    for (int l = 0; l < f->locals.len; l++)
      if (last[l] >= 0)
        set_bit(set_at(s, s->gen, b), last[l]);
  }
}

/* OUT[b] = GEN[b] | (IN[b] & ~KILL[b]); IN[succ] |= OUT[b]; to a fixed point. */
static void reaching_defs(Ssa *s) {
  IrFunc *f = s->f;
  for (bool changed = true; changed;) {
    changed = false;
    for (int b = 0; b < f->blocks.len; b++) {
      Word *in = set_at(s, s->in, b), *out = set_at(s, s->out, b);
      const Word *kill = set_at(s, s->kill, b), *gen = set_at(s, s->gen, b);
      for (int w = 0; w < s->nwords; w++)
        out[w] = gen[w] | (in[w] & ~kill[w]);
      const Inst *t = terminator(f, b);
      int succ[2] = {t && (t->op == OP_BR || t->op == OP_CBR) ? t->target : -1,
                     t && t->op == OP_CBR ? t->target2 : -1};
      for (int k = 0; k < 2; k++) {
        if (succ[k] < 0 || succ[k] >= f->blocks.len)
          continue;
        Word *sin = set_at(s, s->in, succ[k]);
        for (int w = 0; w < s->nwords; w++)
          if (out[w] & ~sin[w]) {
            sin[w] |= out[w];
            changed = true;
          }
      }
    }
  }
}

static int new_version(Ssa *s, int local, SrcLoc loc) {
  const IrLocal *l = &s->f->locals.data[local];
  return ir_local_new(s->a, s->f, l->name, loc.line ? loc : l->loc);
}

/* The local read by a load that the defs in `set` (all of `local`) reach:
 * a def's own version when it is alone, else the set's join local. */
static int join_for(Ssa *s, int local, const Word *set) {
  int only = -1, count = 0;
  for (int d = 0; d < s->defs.len; d++)
    if (has_bit(set, d)) {
      only = d;
      count++;
    }
  if (count == 1)
    return s->defs.data[only].version;
  for (int j = 0; j < s->joins.len; j++)
    if (s->joins.data[j].local == local &&
        memcmp(s->joins.data[j].set, set, sizeof(Word) * (size_t)s->nwords) == 0)
      return s->joins.data[j].version;
  Join jn = {local, arena_alloc(s->a, sizeof(Word) * (size_t)s->nwords), -1};
  memcpy(jn.set, set, sizeof(Word) * (size_t)s->nwords);
  SrcLoc first = s->f->insts.data[s->defs.data[only].inst].loc;
  for (int d = 0; d < s->defs.len; d++)
    if (has_bit(set, d)) {
      first = s->f->insts.data[s->defs.data[d].inst].loc;
      break;
    }
  jn.version = new_version(s, local, first);
  vec_push(s->a, &s->joins, jn);
  return jn.version;
}

/* Walk each block with the defs reaching each point; retarget loads. */
static void rename_loads(Ssa *s) {
  IrFunc *f = s->f;
  Word *cur = arena_alloc(s->a, sizeof(Word) * (size_t)s->nwords);
  Word *only = arena_alloc(s->a, sizeof(Word) * (size_t)s->nwords);
  for (int b = 0; b < f->blocks.len; b++) {
    memcpy(cur, set_at(s, s->in, b), sizeof(Word) * (size_t)s->nwords);
    const IrBlock *blk = &f->blocks.data[b];
    for (int k = 0; k < blk->insts.len; k++) {
      Inst *in = &f->insts.data[blk->insts.data[k]];
      if (in->local < 0 || !s->split[in->local])
        continue;
      int d = s->def_of[blk->insts.data[k]];
      if (in->op == OP_STORE && d >= 0) {
        for (int e = 0; e < s->defs.len; e++)
          if (s->defs.data[e].local == in->local)
            cur[e / WBITS] &= ~((Word)1 << (e % WBITS));
        set_bit(cur, d);
      } else if (in->op == OP_LOAD) {
        bool any = false;
        for (int e = 0; e < s->defs.len; e++) {
          bool on = s->defs.data[e].local == in->local && has_bit(cur, e);
          only[e / WBITS] = on ? only[e / WBITS] | ((Word)1 << (e % WBITS))
                               : only[e / WBITS] & ~((Word)1 << (e % WBITS));
          any |= on;
        }
        if (any) /* none: read before any assignment; typing reports it */
          in->local = join_for(s, in->local, only);
      }
    }
  }
}

/* Each store writes its own version, then every join local whose set holds it. */
static void rewrite_stores(Ssa *s) {
  IrFunc *f = s->f;
  for (int b = 0; b < f->blocks.len; b++) {
    IrBlock *blk = &f->blocks.data[b];
    Vec(int) out = {0};
    for (int k = 0; k < blk->insts.len; k++) {
      int i = blk->insts.data[k];
      vec_push(s->a, &out, i);
      int d = s->def_of[i];
      if (d < 0)
        continue;
      int var = s->defs.data[d].local, value = f->insts.data[i].args[0];
      SrcLoc loc = f->insts.data[i].loc;
      f->insts.data[i].local = s->defs.data[d].version;
      for (int j = 0; j < s->joins.len; j++) {
        if (s->joins.data[j].local != var || !has_bit(s->joins.data[j].set, d))
          continue;
        int st = ir_emit(s->a, f, -1, OP_STORE, loc, &value, 1);
        f->insts.data[st].local = s->joins.data[j].version;
        vec_push(s->a, &out, st);
      }
    }
    blk->insts.data = out.data;
    blk->insts.len = out.len;
    blk->insts.cap = out.cap;
  }
}

void ir_split_locals(Arena *a, IrFunc *f) {
  Ssa s = {.a = a, .f = f};
  if (f->blocks.len == 0 || !choose_locals(&s))
    return;
  collect_defs(&s);
  if (s.defs.len == 0)
    return;
  s.nwords = (s.defs.len + WBITS - 1) / WBITS;
  /* The first def of each variable keeps the variable's own local, so a
   * function without re-bound variables prints as before. */
  bool *kept = arena_alloc(a, sizeof(bool) * (size_t)(f->locals.len + 1));
  for (int d = 0; d < s.defs.len; d++) {
    Def *df = &s.defs.data[d];
    df->version = kept[df->local] ? new_version(&s, df->local, f->insts.data[df->inst].loc)
                                  : df->local;
    kept[df->local] = true;
  }
  local_sets(&s);
  reaching_defs(&s);
  rename_loads(&s);
  rewrite_stores(&s);
}

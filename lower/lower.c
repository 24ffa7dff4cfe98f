/* lower.c - AST -> generic kjit IR for a program: module constants folded
 * first (consts.c), then every def's decorators, options and parameters
 * (lower_func.c), so calls can see every function's kind, then the bodies
 * (lower_stmt.c), each body's errors kept on its function.
 *
 * ir_lower_generated does the same for the modules kjit writes itself
 * (@cuda.reduce's kernels, reduce.c). */
#include "lower/lower_internal.h"

/* The device twins made while lowering calls get their kernel's finished
 * body (shared, as generic IR is never changed) and device flags. */
static void fill_twins(IrProgram *p) {
  for (int i = 0; i < p->funcs.len; i++) {
    IrFunc *k = p->funcs.data[i], *t = k->device_twin;
    if (!t)
      continue;
    *t = *k;
    t->is_kernel = false;
    t->is_device = true;
    t->device_twin = NULL;
    t->twin = true;
  }
}

/* A later def of the same name replaces an earlier one, as in Python. */
static void add_func(IrProgram *p, IrFunc *f) {
  for (int i = 0; i < p->funcs.len; i++)
    if (strcmp(p->funcs.data[i]->name, f->name) == 0) {
      p->funcs.data[i] = f;
      return;
    }
  vec_push(p->arena, &p->funcs, f);
}

static const Func *module_def(const Module *m, const Node *n) {
  if (!n || n->kind != ND_NAME || !n->name)
    return NULL;
  for (int i = m->funcs.len - 1; i >= 0; i--)
    if (strcmp(m->funcs.data[i]->name, n->name) == 0)
      return m->funcs.data[i];
  return NULL;
}

/* The call form of decoration at top level: `k = cuda.jit(fn)`,
 * `k = cuda.jit("void(float32[:])")(fn)`, `d = cuda.jit(device=True)(fn)`
 * (also njit): the def fn compiled under the name k, as if decorated. */
/* The decorator that `cuda.jit(fn, ...)` / `cuda.jit(...)(fn)` (the call v)
 * applies to its def: cuda.jit itself, cuda.jit(...), or for
 * `cuda.jit(fn, device=True, inline=True)` the call cuda.jit(device=True,
 * inline=True) made from v's other arguments.  *fn gets the def, or NULL. */
static const Node *call_form_decorator(LowerProg *lp, const Node *v, const Func **fn) {
  *fn = NULL;
  if (!v || v->kind != ND_CALL || v->args.len < 1 || !v->lhs ||
      ir_lower_decorator_kind(lp, v->lhs) == 0)
    return NULL;
  *fn = module_def(lp->p->ast, v->args.data[0]);
  if (!*fn || (v->args.len == 1 && v->args2.len == 0))
    return v->lhs; /* cuda.jit(fn), cuda.jit(sig)(fn) */
  if (v->lhs->kind == ND_CALL) {
    *fn = NULL;
    return NULL;
  }
  Node *deco = arena_alloc(lp->a, sizeof *deco);
  *deco = *v;
  deco->args = (NodeList){v->args.data + 1, v->args.len - 1, v->args.len - 1};
  return deco;
}

static void lower_call_forms(LowerProg *lp) {
  const Module *m = lp->p->ast;
  for (int i = 0; i < m->globals.len; i++) {
    const GlobalAssign *ga = &m->globals.data[i];
    const Func *fn = NULL;
    const Node *deco = ga->name ? call_form_decorator(lp, ga->value, &fn) : NULL;
    if (!fn || !deco)
      continue;
    for (int k = 0; k < lp->nonconst.len; k++) /* a function now, not a global */
      if (strcmp(lp->nonconst.data[k].name, ga->name) == 0)
        lp->nonconst.data[k] = lp->nonconst.data[--lp->nonconst.len], k--;
    for (int k = 0; k < lp->p->host_globals.len; k++)
      if (strcmp(lp->p->host_globals.data[k].name, ga->name) == 0)
        lp->p->host_globals.data[k--] = lp->p->host_globals.data[--lp->p->host_globals.len];
    Func *g = arena_alloc(lp->a, sizeof *g);
    *g = *fn;
    g->name = ga->name;
    g->decorators = (NodeList){0};
    vec_push(lp->a, &g->decorators, (Node *)deco);
    IrFunc *f = NULL;
    if (ir_lower_funcdef(lp, g, &f) && f) {
      lower_params(lp, f, g);
      add_func(lp->p, f);
    }
  }
}

/* Decorators, options and parameters first (so calls can see every
 * function's kind), bodies second. */
bool ir_lower_program(IrProgram *p, Diags *d) {
  int before = d->nerrors;
  if (!p->types)
    p->types = ty_table_new(p->arena);
  LowerProg lp = {0};
  lp.p = p;
  lp.a = p->arena;
  lp.d = d;
  ir_expand_decorator_vars(&lp);
  ir_expand_factories(&lp);
  ir_fold_globals(&lp);
  const Module *m = p->ast;
  for (int i = 0; i < m->funcs.len; i++) {
    IrFunc *f = NULL;
    if (ir_lower_funcdef(&lp, m->funcs.data[i], &f) && f) {
      lower_params(&lp, f, m->funcs.data[i]);
      add_func(p, f);
    }
  }
  lower_call_forms(&lp);
  Func *ov[64];
  for (int i = 0, n = ir_lower_overloads(&lp, ov, 64); i < n; i++) {
    IrFunc *f = ir_func_new(lp.a, ov[i]->name); /* a device function, as @njit */
    f->ast = ov[i];
    f->is_device = true;
    lower_params(&lp, f, ov[i]);
    add_func(p, f);
  }
  for (int i = 0; i < p->funcs.len; i++)
    lower_body_deferred(&lp, p->funcs.data[i]);
  fill_twins(p);
  return d->nerrors == before;
}

/* The generated module stands in for the user's file while its defs are
 * lowered, so its own imports resolve its names; the user's functions are
 * still found through p->funcs and its constants through p->globals. */
bool ir_lower_generated(IrProgram *p, const Module *m, Diags *d, IrFunc **out, int max, int *n) {
  int before = d->nerrors;
  Module *user = p->ast;
  LowerProg lp = {.p = p, .a = p->arena, .d = d, .next_array_id = 1 << 20};
  p->ast = (Module *)m;
  *n = 0;
  for (int i = 0; i < m->funcs.len && *n < max; i++) {
    IrFunc *f = NULL;
    if (!ir_lower_funcdef(&lp, m->funcs.data[i], &f) || !f)
      continue;
    f->generated = true;
    lower_params(&lp, f, m->funcs.data[i]);
    lower_body(&lp, f, f->ast);
    out[(*n)++] = f;
  }
  p->ast = user;
  return d->nerrors == before;
}


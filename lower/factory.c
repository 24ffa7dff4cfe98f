/* factory.c - kernels made by a Python function at import time.
 *
 * Real code builds kernels with a function that defines a @cuda.jit kernel
 * (or device function) closing over its arguments and returns it, called at
 * the top level with constants: `blur5 = make_blur(2, clamp)`.  Numba freezes
 * the closure's values when it compiles, so each such call is an instance
 * kjit compiles on its own: the returned def is copied under the module
 * variable's name (or, asked for by name, the call's text "make_blur(2)"),
 * and each free variable it reads (a factory parameter or a local the
 * factory assigns before the def) is renamed to a module constant
 * "NAME.var" bound to the call's argument (folded as any module constant);
 * an argument naming a function is substituted as that function.  Other
 * defs of the factory become "NAME.def" beside it.  A factory body may hold
 * only defs, assignments of names, a docstring and `return NAME` (or
 * `return cuda.jit(...)(NAME)`); anything else leaves the call host code.
 * Invariant: the factory's own AST is never changed; instances are copies. */
#include "lower/lower_internal.h"

typedef struct Subst {
  Vec(const char *) from, to;
} Subst;

static const char *subst_find(const Subst *s, const char *name) {
  for (int i = s->from.len - 1; i >= 0; i--)
    if (strcmp(s->from.data[i], name) == 0)
      return s->to.data[i];
  return NULL;
}

static void subst_add(Arena *a, Subst *s, const char *from, const char *to) {
  vec_push(a, &s->from, from);
  vec_push(a, &s->to, to);
}

/* ------------------------------------------------------ locals of a def -- */

typedef Vec(const char *) Names;

static void add_target(Arena *a, Names *out, const Node *t) {
  if (!t)
    return;
  if (t->kind == ND_NAME)
    vec_push(a, out, t->name);
  else if (t->kind == ND_TUPLE || t->kind == ND_LIST)
    for (int i = 0; i < t->args.len; i++)
      add_target(a, out, t->args.data[i]);
  else if (t->kind == ND_STARRED)
    add_target(a, out, t->lhs);
}

/* The names a body binds (Python's locals), not looking into nested defs. */
static void bound_names(Arena *a, Names *out, const NodeList *body) {
  for (int i = 0; i < body->len; i++) {
    const Node *n = body->data[i];
    if (!n)
      continue;
    if (n->kind == ND_ASSIGN)
      for (int k = 0; k < n->args.len; k++)
        add_target(a, out, n->args.data[k]);
    else if (n->kind == ND_AUGASSIGN || n->kind == ND_ANNASSIGN || n->kind == ND_FOR)
      add_target(a, out, n->lhs);
    else if (n->kind == ND_FUNCDEF)
      vec_push(a, out, n->name);
    bound_names(a, out, &n->body);
    bound_names(a, out, &n->orelse);
  }
}

/* s without the names fn binds (its parameters and locals shadow them). */
static Subst shadowed(Arena *a, const Subst *s, const Func *fn) {
  Names local = {0};
  for (int i = 0; i < fn->params.len; i++)
    vec_push(a, &local, fn->params.data[i].name);
  bound_names(a, &local, &fn->body);
  Subst out = {0};
  for (int i = 0; i < s->from.len; i++) {
    bool hidden = false;
    for (int k = 0; k < local.len && !hidden; k++)
      hidden = strcmp(local.data[k], s->from.data[i]) == 0;
    if (!hidden)
      subst_add(a, &out, s->from.data[i], s->to.data[i]);
  }
  return out;
}

/* ------------------------------------------------------------- copying -- */

static Node *clone(Arena *a, const Node *n, const Subst *s);
static Func *clone_func(Arena *a, const Func *fn, const Subst *s, const char *name);

static NodeList clone_list(Arena *a, const NodeList *l, const Subst *s) {
  NodeList out = {0};
  for (int i = 0; i < l->len; i++)
    vec_push(a, &out, clone(a, l->data[i], s));
  return out;
}

/* A deep copy of n with every name in s renamed (attribute and keyword
 * names are not variables and stay). */
static Node *clone(Arena *a, const Node *n, const Subst *s) {
  if (!n)
    return NULL;
  Node *c = arena_alloc(a, sizeof *c);
  *c = *n;
  if (n->kind == ND_NAME && n->name) {
    const char *to = subst_find(s, n->name);
    c->name = to ? to : n->name;
    return c;
  }
  c->lhs = clone(a, n->lhs, s);
  c->rhs = clone(a, n->rhs, s);
  c->third = clone(a, n->third, s);
  c->cond = clone(a, n->cond, s);
  c->args = clone_list(a, &n->args, s);
  c->args2 = clone_list(a, &n->args2, s);
  c->body = clone_list(a, &n->body, s);
  c->orelse = clone_list(a, &n->orelse, s);
  if (n->kind == ND_FUNCDEF && n->func)
    c->func = clone_func(a, n->func, s, n->func->name);
  return c;
}

static Func *clone_func(Arena *a, const Func *fn, const Subst *s, const char *name) {
  Func *c = arena_alloc(a, sizeof *c);
  *c = *fn;
  c->name = name;
  c->decorators = clone_list(a, &fn->decorators, s); /* evaluated in the factory's scope */
  c->params = (ParamList){0};
  for (int i = 0; i < fn->params.len; i++) {
    Param pm = fn->params.data[i];
    pm.deflt = clone(a, pm.deflt, s);
    pm.annotation = clone(a, pm.annotation, s);
    vec_push(a, &c->params, pm);
  }
  Subst inner = shadowed(a, s, fn);
  c->body = clone_list(a, &fn->body, &inner);
  return c;
}

/* -------------------------------------------------------- the factory -- */

typedef struct Factory {
  const Func *fn;
  Vec(const Node *) stmts;  /* assignments and defs, in order */
  const char *ret;          /* the name returned */
  const Node *ret_deco;     /* `return cuda.jit(...)(NAME)`: that decorator, else NULL */
} Factory;

static const Func *module_def(const Module *m, const char *name) {
  for (int i = m->funcs.len - 1; i >= 0; i--)
    if (strcmp(m->funcs.data[i]->name, name) == 0)
      return m->funcs.data[i];
  return NULL;
}

/* `cuda.jit(NAME)` / `cuda.jit(...)(NAME)`: the decorator, and *name. */
static const Node *call_form(LowerProg *lp, const Node *v, const char **name) {
  if (!v || v->kind != ND_CALL || v->args.len != 1 || v->args2.len || !v->lhs ||
      v->args.data[0]->kind != ND_NAME || ir_lower_decorator_kind(lp, v->lhs) == 0)
    return NULL;
  *name = v->args.data[0]->name;
  return v->lhs;
}

static bool is_docstring(const Node *n) {
  return n->kind == ND_EXPR_STMT && n->lhs && n->lhs->kind == ND_STR;
}

/* Is fn a factory (its body only defs, NAME = value, a docstring and a
 * return of a def it made)?  Fills f. */
static bool read_factory(LowerProg *lp, const Func *fn, Factory *f) {
  memset(f, 0, sizeof *f);
  f->fn = fn;
  if (fn->host_only || fn->decorators.len)
    return false;
  for (int i = 0; i < fn->body.len; i++) {
    const Node *n = fn->body.data[i];
    if (!n || is_docstring(n) || n->kind == ND_PASS)
      continue;
    if (n->kind == ND_FUNCDEF || (n->kind == ND_ASSIGN && n->args.len == 1 &&
                                  n->args.data[0]->kind == ND_NAME)) {
      vec_push(lp->a, &f->stmts, n);
      continue;
    }
    if (n->kind != ND_RETURN || !n->lhs || i != fn->body.len - 1)
      return false;
    if (n->lhs->kind == ND_NAME)
      f->ret = n->lhs->name;
    else
      f->ret_deco = call_form(lp, n->lhs, &f->ret);
  }
  if (!f->ret)
    return false;
  for (int i = 0; i < f->stmts.len; i++) /* the name returned is a def made here */
    if (f->stmts.data[i]->kind == ND_FUNCDEF && strcmp(f->stmts.data[i]->name, f->ret) == 0)
      return true;
  return false;
}

/* The argument bound to parameter k of the factory call, or its default;
 * NULL when the call gives none. */
static const Node *argument(const Factory *f, const Node *call, int k) {
  const Param *pm = &f->fn->params.data[k];
  if (k < call->args.len && call->args.data[k]->kind != ND_STARRED)
    return call->args.data[k];
  for (int i = 0; i < call->args2.len; i++) {
    const Node *kw = call->args2.data[i];
    if (kw->name && strcmp(kw->name, pm->name) == 0)
      return kw->lhs;
  }
  return pm->deflt;
}

static bool names_function(LowerProg *lp, const Node *v) {
  return v && v->kind == ND_NAME && v->name && module_def(lp->p->ast, v->name) &&
         !ir_global_find(lp->p, v->name);
}

static bool factory_of(LowerProg *lp, const Node *v, Factory *f);
static bool instantiate(LowerProg *lp, const Factory *f, const Node *call, const char *inst,
                        GlobalList *globals, FuncList *funcs);

/* Binds factory variable var to value: a function by name; another factory's
 * call, made as the instance "NAME.var"; else the module constant "NAME.var"
 * (appended to out). */
static void bind(LowerProg *lp, Subst *s, GlobalList *out, FuncList *funcs, const char *inst,
                 const char *var, Node *value, SrcLoc loc) {
  Factory inner;
  const char *name = arena_printf(lp->a, "%s.%s", inst, var);
  if (names_function(lp, value)) {
    subst_add(lp->a, s, var, value->name);
    return;
  }
  if (factory_of(lp, value, &inner) && instantiate(lp, &inner, value, name, out, funcs)) {
    subst_add(lp->a, s, var, name);
    return;
  }
  GlobalAssign g = {name, value, loc};
  vec_push(lp->a, out, g);
  subst_add(lp->a, s, var, g.name);
}

/* The instance of factory f called as `call`, named inst: its constants
 * appended to globals, its defs to funcs (the returned one named inst).
 * False (nothing added) when the call does not bind every parameter. */
static bool instantiate(LowerProg *lp, const Factory *f, const Node *call, const char *inst,
                        GlobalList *globals, FuncList *funcs) {
  const Func *fn = f->fn;
  if (call->args.len > fn->params.len)
    return false;
  Subst s = {0};
  for (int k = 0; k < fn->params.len; k++) {
    const Param *pm = &fn->params.data[k];
    const Node *v = argument(f, call, k);
    if (pm->star || !v)
      return false;
    bind(lp, &s, globals, funcs, inst, pm->name, (Node *)v, call->loc);
  }
  for (int i = 0; i < f->stmts.len; i++) { /* defs first: a local may name one */
    const Node *n = f->stmts.data[i];
    if (n->kind == ND_FUNCDEF)
      subst_add(lp->a, &s, n->name,
                strcmp(n->name, f->ret) == 0 ? inst : arena_printf(lp->a, "%s.%s", inst, n->name));
  }
  for (int i = 0; i < f->stmts.len; i++) {
    const Node *n = f->stmts.data[i];
    if (n->kind == ND_ASSIGN)
      bind(lp, &s, globals, funcs, inst, n->args.data[0]->name, clone(lp->a, n->rhs, &s), n->loc);
  }
  for (int i = 0; i < f->stmts.len; i++) {
    const Node *n = f->stmts.data[i];
    if (n->kind != ND_FUNCDEF)
      continue;
    Func *g = clone_func(lp->a, n->func, &s, subst_find(&s, n->name));
    if (f->ret_deco && strcmp(n->name, f->ret) == 0) {
      g->decorators = (NodeList){0};
      vec_push(lp->a, &g->decorators, clone(lp->a, f->ret_deco, &s));
    }
    vec_push(lp->a, funcs, g);
  }
  return true;
}

/* The factory called by v (a call of a top-level def that is one), or false. */
static bool factory_of(LowerProg *lp, const Node *v, Factory *f) {
  if (!v || v->kind != ND_CALL || !v->lhs || v->lhs->kind != ND_NAME)
    return false;
  const Func *fn = module_def(lp->p->ast, v->lhs->name);
  return fn && read_factory(lp, fn, f);
}

/* Top-level `NAME = factory(args)`: the instance replaces the assignment,
 * its constants in its place (so later assignments still win). */
void ir_expand_factories(LowerProg *lp) {
  Module *m = lp->p->ast;
  GlobalList out = {0};
  bool any = false;
  for (int i = 0; i < m->globals.len; i++) {
    const GlobalAssign *ga = &m->globals.data[i];
    Factory f;
    FuncList funcs = {0};
    if (ga->name && factory_of(lp, ga->value, &f) &&
        instantiate(lp, &f, ga->value, ga->name, &out, &funcs)) {
      for (int k = 0; k < funcs.len; k++)
        vec_push(lp->a, &m->funcs, funcs.data[k]);
      any = true;
      continue;
    }
    vec_push(lp->a, &out, *ga);
  }
  if (any)
    m->globals = out;
}

/* Adds an instance's constants and defs to p and lowers them; *out is the
 * def named name.  False when an error was reported or name was not made. */
static bool add_instance(LowerProg *lp, GlobalList *globals, FuncList *funcs, const char *name,
                         IrFunc **out) {
  IrProgram *p = lp->p;
  for (int i = 0; i < globals->len; i++) {
    vec_push(lp->a, &p->ast->globals, globals->data[i]);
    ir_fold_global(lp, &globals->data[i]);
  }
  int before = lp->d->nerrors;
  Vec(IrFunc *) made = {0};
  for (int i = 0; i < funcs->len; i++) {
    vec_push(lp->a, &p->ast->funcs, funcs->data[i]);
    IrFunc *g = NULL;
    if (ir_lower_funcdef(lp, funcs->data[i], &g) && g) {
      lower_params(lp, g, funcs->data[i]);
      vec_push(p->arena, &p->funcs, g);
      vec_push(lp->a, &made, g);
      if (strcmp(g->name, name) == 0)
        *out = g;
    }
  }
  for (int i = 0; i < made.len; i++)
    lower_body_deferred(lp, made.data[i]);
  return lp->d->nerrors == before && *out;
}

static bool lower_nested_kernel(LowerProg *lp, const Node *e, const char *text, IrFunc **out);

bool ir_lower_factory_call(IrProgram *p, const char *text, Diags *d, IrFunc **out) {
  *out = NULL;
  for (int i = 0; i < p->funcs.len; i++) /* asked for before */
    if (strcmp(p->funcs.data[i]->name, text) == 0)
      return (*out = p->funcs.data[i]), true;
  Source *src = arena_alloc(p->arena, sizeof *src);
  src->path = "<kernel>";
  src->text = arena_strdup(p->arena, text);
  src->len = strlen(text);
  Diags quiet;
  diags_init(&quiet, p->arena);
  Node *call = parse_expression(p->arena, src, &quiet);
  LowerProg lp = {.p = p, .a = p->arena, .d = d, .next_array_id = 1 << 21};
  if (call && !quiet.nerrors && call->kind == ND_ATTR) /* "outer.k", "outer(3).k" */
    return lower_nested_kernel(&lp, call, src->text, out);
  Factory f;
  GlobalList globals = {0};
  FuncList funcs = {0};
  if (!call || quiet.nerrors || !factory_of(&lp, call, &f) ||
      !instantiate(&lp, &f, call, src->text, &globals, &funcs))
    return false;
  return add_instance(&lp, &globals, &funcs, src->text, out);
}

/* ------------------------------------ kernels defined in host functions -- */
/* `def run(x): ... @cuda.jit def k(a): ... k[g, b](x)`: Numba compiles k when
 * run launches it, freezing what k reads of run's variables.  kjit does not
 * run run, so it compiles k, named "run.k" (or "run(3).k", binding run's
 * parameters as a factory call does), when every variable of run that k
 * reads is a compile-time value: a parameter the call binds, a local
 * assigned once (`NAME = value` at run's top level) from constants, or a
 * @cuda.jit def of run.  Any other is named in an error (E203). */

/* The decorated def `name` at the top level of host function fn's body. */
static const Func *inner_def(LowerProg *lp, const Func *fn, const char *name) {
  for (int i = 0; i < fn->body.len; i++) {
    const Node *n = fn->body.data[i];
    if (n && n->kind == ND_FUNCDEF && n->func && n->func->decorators.len &&
        strcmp(n->name, name) == 0 && ir_lower_decorator_kind(lp, n->func->decorators.data[0]))
      return n->func;
  }
  return NULL;
}

static int count_name(const Names *ns, const char *name) {
  int c = 0;
  for (int i = 0; i < ns->len; i++)
    c += strcmp(ns->data[i], name) == 0;
  return c;
}

/* The first place n reads name (a load of the variable), or NULL. */
static const Node *first_read(const Node *n, const char *name) {
  if (!n)
    return NULL;
  if (n->kind == ND_NAME)
    return n->name && strcmp(n->name, name) == 0 ? n : NULL;
  const Node *kids[] = {n->lhs, n->rhs, n->third, n->cond};
  for (int i = 0; i < 4; i++) {
    const Node *r = first_read(kids[i], name);
    if (r)
      return r;
  }
  const NodeList *lists[] = {&n->args, &n->args2, &n->body, &n->orelse};
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < lists[k]->len; i++) {
      const Node *r = first_read(lists[k]->data[i], name);
      if (r)
        return r;
    }
  if (n->kind == ND_FUNCDEF && n->func)
    for (int i = 0; i < n->func->body.len; i++) {
      const Node *r = first_read(n->func->body.data[i], name);
      if (r)
        return r;
    }
  return NULL;
}

/* Where def k reads the variable name of its host function (not hidden by
 * one of k's own), or NULL. */
static const Node *reads_outer(LowerProg *lp, const Func *k, const char *name) {
  Names own = {0};
  for (int i = 0; i < k->params.len; i++)
    vec_push(lp->a, &own, k->params.data[i].name);
  bound_names(lp->a, &own, &k->body);
  if (count_name(&own, name))
    return NULL;
  for (int i = 0; i < k->body.len; i++) {
    const Node *r = first_read(k->body.data[i], name);
    if (r)
      return r;
  }
  return NULL;
}

/* Binds what k may read of host function fn into s / globals / funcs. */
static void bind_host_scope(LowerProg *lp, const Func *fn, const Node *call, const char *inst,
                            const char *kname, Subst *s, GlobalList *globals, FuncList *funcs) {
  Names locals = {0};
  bound_names(lp->a, &locals, &fn->body);
  Factory f = {.fn = fn};
  for (int k = 0; call && k < fn->params.len; k++) {
    const Param *pm = &fn->params.data[k];
    const Node *v = argument(&f, call, k);
    if (!pm->star && v && !count_name(&locals, pm->name))
      bind(lp, s, globals, funcs, inst, pm->name, (Node *)v, call->loc);
  }
  for (int i = 0; i < fn->body.len; i++) { /* its @cuda.jit defs */
    const Node *n = fn->body.data[i];
    if (n && n->kind == ND_FUNCDEF && inner_def(lp, fn, n->name) == n->func &&
        count_name(&locals, n->name) == 1)
      subst_add(lp->a, s, n->name, strcmp(n->name, kname) == 0
                                       ? inst : arena_printf(lp->a, "%s.%s", inst, n->name));
  }
  for (int i = 0; i < fn->body.len; i++) { /* NAME = value, assigned once */
    const Node *n = fn->body.data[i];
    if (n && n->kind == ND_ASSIGN && n->args.len == 1 && n->args.data[0]->kind == ND_NAME &&
        count_name(&locals, n->args.data[0]->name) == 1 &&
        !subst_find(s, n->args.data[0]->name))
      bind(lp, s, globals, funcs, inst, n->args.data[0]->name, clone(lp->a, n->rhs, s), n->loc);
  }
}

/* Is the variable var of the host function bound to a compile-time value? */
static bool frozen(LowerProg *lp, const Subst *s, const char *var) {
  const char *to = subst_find(s, var);
  return to && (ir_global_find(lp->p, to) || module_def(lp->p->ast, to) ||
                ir_find_func(lp->p, to));
}

/* Reports the first variable of host function fn that def k reads and that
 * is not a compile-time value.  True when there is none. */
static bool check_frozen(LowerProg *lp, const Func *fn, const Func *k, const Subst *s,
                         const char *inst, bool called) {
  Names vars = {0};
  for (int i = 0; i < fn->params.len; i++)
    vec_push(lp->a, &vars, fn->params.data[i].name);
  bound_names(lp->a, &vars, &fn->body);
  for (int i = 0; i < vars.len; i++) {
    const Node *use = reads_outer(lp, k, vars.data[i]);
    if (!use || frozen(lp, s, vars.data[i]) || inner_def(lp, fn, vars.data[i]))
      continue;
    bool param = false;
    for (int p = 0; p < fn->params.len; p++)
      param |= strcmp(fn->params.data[p].name, vars.data[i]) == 0;
    const char *hint = param && !called
        ? arena_printf(lp->a, "Numba freezes it when the kernel is first launched; kjit compiles "
                       "without running '%s': name the call with constant arguments "
                       "(FILE:'%s(...).%s'), pass '%s' to the kernel, or make it a module constant",
                       fn->name, fn->name, k->name, vars.data[i])
        : arena_printf(lp->a, "Numba freezes it when the kernel is first launched; kjit compiles "
                       "without running '%s': pass '%s' to the kernel as an argument, or make it "
                       "a module constant", fn->name, vars.data[i]);
    diag_error(lp->d, E_NOTCONST, use->loc, hint,
               "kernel '%s' reads '%s', a %s of the host function '%s' that is not a "
               "compile-time constant", inst, vars.data[i], param ? "parameter" : "variable",
               fn->name);
    return false;
  }
  return true;
}

/* "outer.k" or "outer(args).k": kernel k defined inside host function outer. */
static bool lower_nested_kernel(LowerProg *lp, const Node *e, const char *text, IrFunc **out) {
  const Node *call = e->lhs && e->lhs->kind == ND_CALL ? e->lhs : NULL;
  const Node *head = call ? call->lhs : e->lhs;
  if (!head || head->kind != ND_NAME || !e->name)
    return false;
  const Func *fn = module_def(lp->p->ast, head->name);
  const Func *k = fn && !fn->decorators.len ? inner_def(lp, fn, e->name) : NULL;
  if (!k || (call && call->args.len > fn->params.len))
    return false;
  Subst s = {0};
  GlobalList globals = {0};
  FuncList funcs = {0};
  bind_host_scope(lp, fn, call, text, k->name, &s, &globals, &funcs);
  for (int i = 0; i < globals.len; i++) {
    vec_push(lp->a, &lp->p->ast->globals, globals.data[i]);
    ir_fold_global(lp, &globals.data[i]);
  }
  Vec(const Func *) used = {0}; /* the kernel, then the defs of fn it calls */
  vec_push(lp->a, &used, k);
  for (int u = 0; u < used.len; u++) {
    if (!check_frozen(lp, fn, used.data[u], &s, text, call != NULL))
      return false;
    vec_push(lp->a, &funcs, clone_func(lp->a, used.data[u], &s, subst_find(&s, used.data[u]->name)));
    for (int i = 0; i < fn->body.len; i++) {
      const Node *n = fn->body.data[i];
      const Func *g = n && n->kind == ND_FUNCDEF ? inner_def(lp, fn, n->name) : NULL;
      bool seen = false;
      for (int j = 0; j < used.len; j++)
        seen |= used.data[j] == g;
      if (g && g == n->func && !seen && subst_find(&s, n->name) && reads_outer(lp, used.data[u], n->name))
        vec_push(lp->a, &used, g);
    }
  }
  GlobalList none = {0};
  return add_instance(lp, &none, &funcs, text, out);
}

const char *ir_factory_list(IrProgram *p) {
  LowerProg lp = {.p = p, .a = p->arena};
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; p->ast && i < p->ast->funcs.len; i++) {
    Factory f;
    if (read_factory(&lp, p->ast->funcs.data[i], &f))
      sb_printf(&sb, "%s%s", sb.len ? ", " : "", f.fn->name);
  }
  const char *s = sb.len ? arena_strdup(p->arena, sb.data) : NULL;
  sb_free(&sb);
  return s;
}

/* A @cuda.jit def at the top level of a host function's body is not
 * device=True (a keyword device=True on its decorator call). */
static bool is_device_deco(const Node *d) {
  for (int i = 0; d && d->kind == ND_CALL && i < d->args2.len; i++) {
    const Node *kw = d->args2.data[i];
    if (kw && kw->name && strcmp(kw->name, "device") == 0 && kw->lhs &&
        kw->lhs->kind == ND_BOOL && kw->lhs->ival)
      return true;
  }
  return false;
}

const char *ir_nested_kernel_list(IrProgram *p) {
  LowerProg lp = {.p = p, .a = p->arena};
  StrBuf sb;
  sb_init(&sb);
  for (int i = 0; p->ast && i < p->ast->funcs.len; i++) {
    const Func *fn = p->ast->funcs.data[i];
    Factory f;
    if (read_factory(&lp, fn, &f)) /* named by its call: ir_factory_list */
      continue;
    for (int k = 0; !fn->decorators.len && k < fn->body.len; k++) {
      const Node *n = fn->body.data[k];
      if (n && n->kind == ND_FUNCDEF && inner_def(&lp, fn, n->name) == n->func &&
          !is_device_deco(n->func->decorators.data[0]))
        sb_printf(&sb, "%s%s.%s", sb.len ? ", " : "", fn->name, n->name);
    }
  }
  const char *s = sb.len ? arena_strdup(p->arena, sb.data) : NULL;
  sb_free(&sb);
  return s;
}

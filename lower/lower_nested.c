/* lower_nested.c - functions defined inside a kernel or device function
 * and only called there (numba-cuda inlines such closures).
 *
 * A nested `def inner(x): ...` becomes a device function named
 * "outer.inner" (a '.' cannot occur in a Python name, so it names nothing
 * else) whose parameters are its own followed by its free variables: the
 * outer function's variables that its body reads but never assigns.  Each
 * call passes their values at the time of the call, which is what Python's
 * closure reads.  Rejected by name: a nested def used as a value, decorated,
 * taking *args, or nested two levels deep; `nonlocal` stays rejected as a
 * statement.  Invariant: the outer function's locals are all declared
 * before its body is lowered (Python scoping), so free variables are known
 * at the def. */
#include "lower/lower_internal.h"

typedef struct NestedDef {
  const char *name;      /* as bound in the outer function */
  IrFunc *f;             /* the device function; its ast has the extra params */
  int nfree;             /* free variables: the last nfree parameters */
  int ndefs;             /* defs of this name so far (the symbol's suffix) */
} NestedDef;

struct NestedDefs {
  Vec(NestedDef) defs;
};

/* ----------------------------------------------------- name analysis -- */

typedef Vec(const char *) Names;

static bool has_name(const Names *v, const char *name) {
  for (int i = 0; i < v->len; i++)
    if (strcmp(v->data[i], name) == 0)
      return true;
  return false;
}

static void add_name(Arena *a, Names *v, const char *name) {
  if (name && !has_name(v, name))
    vec_push(a, v, name);
}

static void walk_list(Arena *a, const NodeList *l, Names *reads, Names *writes);
static void walk(Arena *a, const Node *n, Names *reads, Names *writes);

static void walk_target(Arena *a, const Node *t, Names *reads, Names *writes) {
  if (!t)
    return;
  if (t->kind == ND_NAME)
    add_name(a, writes, t->name);
  else if (t->kind == ND_TUPLE || t->kind == ND_LIST)
    for (int i = 0; i < t->args.len; i++)
      walk_target(a, t->args.data[i], reads, writes);
  else if (t->kind == ND_STARRED)
    walk_target(a, t->lhs, reads, writes);
  else
    walk(a, t, reads, writes); /* a[i] = v, o.x = v: reads a and i */
}

/* Every name n reads (reads) and binds (writes), nested nodes included. */
static void walk(Arena *a, const Node *n, Names *reads, Names *writes) {
  if (!n)
    return;
  switch (n->kind) {
  case ND_NAME: add_name(a, reads, n->name); return;
  case ND_ASSIGN:
    for (int i = 0; i < n->args.len; i++)
      walk_target(a, n->args.data[i], reads, writes);
    walk(a, n->rhs, reads, writes);
    return;
  case ND_AUGASSIGN: /* x += 1 both reads and binds x: local to the def */
  case ND_ANNASSIGN:
  case ND_FOR:
    walk_target(a, n->lhs, reads, writes);
    break;
  case ND_NAMEDEXPR: add_name(a, writes, n->name); break;
  case ND_FUNCDEF:
  case ND_CLASS: add_name(a, writes, n->name); return;
  default: break;
  }
  bool target = n->kind == ND_AUGASSIGN || n->kind == ND_ANNASSIGN || n->kind == ND_FOR;
  if (!target)
    walk(a, n->lhs, reads, writes);
  walk(a, n->rhs, reads, writes);
  walk(a, n->third, reads, writes);
  walk(a, n->cond, reads, writes);
  walk_list(a, &n->args, reads, writes);
  walk_list(a, &n->args2, reads, writes);
  walk_list(a, &n->body, reads, writes);
  walk_list(a, &n->orelse, reads, writes);
}

static void walk_list(Arena *a, const NodeList *l, Names *reads, Names *writes) {
  for (int i = 0; i < l->len; i++)
    walk(a, l->data[i], reads, writes);
}

/* The outer function's variables that fn reads and does not bind. */
static Names free_vars(Lower *L, const Func *fn) {
  Names reads = {0}, writes = {0}, out = {0};
  for (int i = 0; i < fn->params.len; i++)
    add_name(L->a, &writes, fn->params.data[i].name);
  walk_list(L->a, &fn->body, &reads, &writes);
  for (int i = 0; i < reads.len; i++) {
    const char *r = reads.data[i];
    if (!has_name(&writes, r) && r[0] != '$' && ir_local_find(L->f, r) >= 0)
      add_name(L->a, &out, r);
  }
  return out;
}

/* ------------------------------------------------------------ the def -- */

static const NestedDef *find_nested(const Lower *L, const char *name) {
  for (int i = 0; L->nested && name && i < L->nested->defs.len; i++)
    if (strcmp(L->nested->defs.data[i].name, name) == 0)
      return &L->nested->defs.data[i];
  return NULL;
}

static bool check_nested(Lower *L, const Node *s) {
  const Func *fn = s->func;
  const char *why = NULL;
  if (strchr(L->f->name, '.'))
    why = "a function nested two levels deep";
  else if (fn->decorators.len)
    why = "a decorated nested function";
  for (int i = 0; !why && i < fn->params.len; i++)
    if (fn->params.data[i].star)
      why = "*args or **kwargs in a nested function";
  if (!why)
    return true;
  diag_error(L->d, E_UNSUPPORTED, s->loc,
             "define a device function at module level with @cuda.jit(device=True)",
             "%s is not supported in kernels", why);
  return false;
}

/* fn with its free variables appended as parameters. */
static Func *with_free_params(Lower *L, const Func *fn, const Names *free) {
  Func *g = arena_alloc(L->a, sizeof *g);
  *g = *fn;
  g->params.data = NULL;
  g->params.len = g->params.cap = 0;
  for (int i = 0; i < fn->params.len; i++)
    vec_push(L->a, &g->params, fn->params.data[i]);
  for (int i = 0; i < free->len; i++)
    vec_push(L->a, &g->params, ((Param){.name = free->data[i], .loc = fn->loc}));
  return g;
}

bool lower_nested_def(Lower *L, const Node *s) {
  if (!s->func || !check_nested(L, s))
    return false;
  Names free = free_vars(L, s->func);
  const Func *g = with_free_params(L, s->func, &free);
  if (!L->nested)
    L->nested = arena_alloc(L->a, sizeof *L->nested);
  NestedDef *old = (NestedDef *)find_nested(L, s->func->name);
  int ndefs = old ? old->ndefs + 1 : 1; /* a redefinition gets its own symbol */
  const char *name = ndefs == 1 ? arena_printf(L->a, "%s.%s", L->f->name, s->func->name)
                                : arena_printf(L->a, "%s.%s.%d", L->f->name, s->func->name, ndefs);
  NestedDef d = {s->func->name, ir_lower_nested_func(L->lp, g, name, L->f), free.len, ndefs};
  if (old)
    *old = d; /* a later def wins from here on, as in Python */
  else
    vec_push(L->a, &L->nested->defs, d);
  return true;
}

/* ----------------------------------------------------------- the call -- */

bool lower_is_nested(const Lower *L, const char *name) { return find_nested(L, name) != NULL; }

/* The call with each free variable passed by keyword, read here. */
IrFunc *lower_nested_callee(Lower *L, const Node *call, const Node **out) {
  const NestedDef *d = find_nested(L, call->lhs ? call->lhs->name : NULL);
  if (!d)
    return NULL;
  Node *c = arena_alloc(L->a, sizeof *c);
  *c = *call;
  c->args2.data = NULL;
  c->args2.len = c->args2.cap = 0;
  for (int i = 0; i < call->args2.len; i++)
    vec_push(L->a, &c->args2, call->args2.data[i]);
  const Func *fn = d->f->ast;
  for (int i = fn->params.len - d->nfree; i < fn->params.len; i++) {
    Node *v = arena_alloc(L->a, sizeof *v), *kw = arena_alloc(L->a, sizeof *kw);
    *v = (Node){.kind = ND_NAME, .loc = call->loc, .name = fn->params.data[i].name};
    *kw = (Node){.kind = ND_KEYWORD, .loc = call->loc, .name = v->name, .lhs = v};
    vec_push(L->a, &c->args2, kw);
  }
  *out = c;
  return d->f;
}

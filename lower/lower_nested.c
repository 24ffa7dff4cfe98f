/* lower_nested.c - functions defined inside a kernel or device function
 * and only called there (numba-cuda inlines such closures).
 *
 * A nested `def inner(x): ...` becomes a device function named
 * "outer.inner" (a '.' cannot occur in a Python name, so it names nothing
 * else) whose parameters are its own followed by its free variables: the
 * outer function's variables that its body reads but never assigns.  Each
 * call passes their values at the time of the call, which is what Python's
 * closure reads.  A variable the def declares `nonlocal` is passed in the
 * same way and handed back: the def returns it (with its own value first,
 * when it returns one), and the call assigns it to the enclosing function's
 * variable.  Numba inlines the closure, so its stores are the enclosing
 * function's; copy-in/copy-out at each call gives the same values, in loops
 * and over repeated calls, since nothing else runs during the call.
 * Rejected by name: a nested def used as a value, decorated, taking *args,
 * or nested two levels deep.  Invariant: the outer function's locals are all
 * declared before its body is lowered (Python scoping), so free variables
 * are known at the def. */
#include "lower/lower_internal.h"

typedef struct NestedDef {
  const char *name;      /* as bound in the outer function */
  IrFunc *f;             /* the device function; its ast has the extra params */
  int nfree;             /* free variables: after its own parameters */
  int nnonlocal;         /* nonlocal variables: the last nnonlocal parameters */
  bool value;            /* with nonlocals: returns (value, nonlocals...) */
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

/* The outer function's variables that fn reads and does not bind (nor
 * declare nonlocal: those are passed as nonlocals). */
static Names free_vars(Lower *L, const Func *fn, const Names *nonlocals) {
  Names reads = {0}, writes = {0}, out = {0};
  for (int i = 0; i < fn->params.len; i++)
    add_name(L->a, &writes, fn->params.data[i].name);
  for (int i = 0; i < nonlocals->len; i++)
    add_name(L->a, &writes, nonlocals->data[i]);
  walk_list(L->a, &fn->body, &reads, &writes);
  for (int i = 0; i < reads.len; i++) {
    const char *r = reads.data[i];
    if (!has_name(&writes, r) && r[0] != '$' && ir_local_find(L->f, r) >= 0)
      add_name(L->a, &out, r);
  }
  return out;
}

/* ---------------------------------------------------------- nonlocal -- */

static bool is_nonlocal_stmt(const Node *s) {
  return s && s->kind == ND_GLOBAL && s->str && strcmp(s->str, "nonlocal") == 0;
}

static bool has_body(const Node *s) {
  return s && (s->kind == ND_IF || s->kind == ND_WHILE || s->kind == ND_FOR);
}

/* The names body declares nonlocal (anywhere in it, as Python allows), as
 * their ND_NAME nodes (for messages) into out. */
static void nonlocal_decls(Arena *a, const NodeList *body, NodeList *out) {
  for (int i = 0; i < body->len; i++) {
    const Node *s = body->data[i];
    for (int j = 0; is_nonlocal_stmt(s) && j < s->args.len; j++)
      vec_push(a, out, s->args.data[j]);
    if (has_body(s)) {
      nonlocal_decls(a, &s->body, out);
      nonlocal_decls(a, &s->orelse, out);
    }
  }
}

/* Whether a return in body gives a value (`return None` gives none). */
static bool returns_value(const NodeList *body) {
  for (int i = 0; i < body->len; i++) {
    const Node *s = body->data[i];
    if (s && s->kind == ND_RETURN && s->lhs && s->lhs->kind != ND_NONE)
      return true;
    if (has_body(s) && (returns_value(&s->body) || returns_value(&s->orelse)))
      return true;
  }
  return false;
}

/* Python's own checks (SyntaxErrors there): each nonlocal names a variable
 * of the enclosing function, and none is also a parameter of the def. */
static bool check_nonlocals(Lower *L, const Func *fn, const NodeList *decls) {
  for (int i = 0; i < decls->len; i++) {
    const Node *n = decls->data[i];
    bool param = false;
    for (int j = 0; j < fn->params.len; j++)
      param |= fn->params.data[j].name && strcmp(fn->params.data[j].name, n->name) == 0;
    if (param)
      diag_error(L->d, E_UNSUPPORTED, n->loc, "rename the parameter or drop the declaration",
                 "name '%s' is parameter and nonlocal", n->name);
    else if (ir_local_find(L->f, n->name) < 0)
      diag_error(L->d, E_UNDEFINED, n->loc,
                 "nonlocal names a variable the enclosing function assigns; module constants "
                 "need no declaration",
                 "no binding for nonlocal '%s' found", n->name);
    if (param || ir_local_find(L->f, n->name) < 0)
      return false;
  }
  return true;
}

/* The body of a def with nonlocals, as a device function: each return gives
 * back the nonlocals (after the def's own value when it has one), one more
 * return closes the body, and the declarations themselves go (the
 * variables are its parameters now). */
typedef struct Back {
  Lower *L;
  const Names *nonlocals;
  bool value;            /* the def returns a value of its own */
  const NodeList *root;  /* the def's body: the closing return goes there */
} Back;

static Node *name_node(Lower *L, const char *name, SrcLoc loc) {
  Node *n = arena_alloc(L->a, sizeof *n);
  *n = (Node){.kind = ND_NAME, .loc = loc, .name = name};
  return n;
}

static Node *back_value(const Back *b, Node *v, SrcLoc loc) {
  if (!b->value && b->nonlocals->len == 1)
    return name_node(b->L, b->nonlocals->data[0], loc);
  if (b->value && (!v || v->kind == ND_NONE))
    return NULL; /* no value where others give one: typing says "return a
                    value on every path", as for any device function */
  Node *t = arena_alloc(b->L->a, sizeof *t);
  *t = (Node){.kind = ND_TUPLE, .loc = loc};
  if (b->value)
    vec_push(b->L->a, &t->args, v);
  for (int i = 0; i < b->nonlocals->len; i++)
    vec_push(b->L->a, &t->args, name_node(b->L, b->nonlocals->data[i], loc));
  return t;
}

static NodeList back_body(const Back *b, const NodeList *body) {
  NodeList out = {0};
  for (int i = 0; i < body->len; i++) {
    Node *s = body->data[i];
    if (is_nonlocal_stmt(s))
      continue;
    if (s && (s->kind == ND_RETURN || has_body(s))) {
      Node *c = arena_alloc(b->L->a, sizeof *c);
      *c = *s;
      if (s->kind == ND_RETURN)
        c->lhs = back_value(b, s->lhs, s->loc);
      c->body = has_body(s) ? back_body(b, &s->body) : s->body;
      c->orelse = has_body(s) ? back_body(b, &s->orelse) : s->orelse;
      s = c;
    }
    vec_push(b->L->a, &out, s);
  }
  Node *last = body->len ? body->data[body->len - 1] : NULL;
  if (body == b->root && (!last || last->kind != ND_RETURN)) {
    Node *r = arena_alloc(b->L->a, sizeof *r);
    SrcLoc at = last ? last->loc : b->L->f->ast->loc;
    *r = (Node){.kind = ND_RETURN, .loc = at, .lhs = back_value(b, NULL, at)};
    vec_push(b->L->a, &out, r);
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

/* fn with its free variables, then its nonlocals, appended as parameters;
 * with nonlocals, the body that hands them back (back_body). */
static Func *with_extra_params(Lower *L, const Func *fn, const Names *free, const Back *back) {
  Func *g = arena_alloc(L->a, sizeof *g);
  *g = *fn;
  g->params.data = NULL;
  g->params.len = g->params.cap = 0;
  for (int i = 0; i < fn->params.len; i++)
    vec_push(L->a, &g->params, fn->params.data[i]);
  for (int i = 0; i < free->len; i++)
    vec_push(L->a, &g->params, ((Param){.name = free->data[i], .loc = fn->loc}));
  for (int i = 0; i < back->nonlocals->len; i++)
    vec_push(L->a, &g->params, ((Param){.name = back->nonlocals->data[i], .loc = fn->loc}));
  if (back->nonlocals->len)
    g->body = back_body(back, &fn->body);
  return g;
}

bool lower_nested_def(Lower *L, const Node *s) {
  if (!s->func || !check_nested(L, s))
    return false;
  NodeList decls = {0};
  Names nonlocals = {0};
  nonlocal_decls(L->a, &s->func->body, &decls);
  if (!check_nonlocals(L, s->func, &decls))
    return false;
  for (int i = 0; i < decls.len; i++)
    add_name(L->a, &nonlocals, decls.data[i]->name);
  Names free = free_vars(L, s->func, &nonlocals);
  Back back = {L, &nonlocals, returns_value(&s->func->body), &s->func->body};
  const Func *g = with_extra_params(L, s->func, &free, &back);
  if (!L->nested)
    L->nested = arena_alloc(L->a, sizeof *L->nested);
  NestedDef *old = (NestedDef *)find_nested(L, s->func->name);
  int ndefs = old ? old->ndefs + 1 : 1; /* a redefinition gets its own symbol */
  const char *name = ndefs == 1 ? arena_printf(L->a, "%s.%s", L->f->name, s->func->name)
                                : arena_printf(L->a, "%s.%s.%d", L->f->name, s->func->name, ndefs);
  NestedDef d = {s->func->name, ir_lower_nested_func(L->lp, g, name, L->f), free.len,
                 nonlocals.len, back.value, ndefs};
  if (old)
    *old = d; /* a later def wins from here on, as in Python */
  else
    vec_push(L->a, &L->nested->defs, d);
  return true;
}

/* ----------------------------------------------------------- the call -- */

bool lower_is_nested(const Lower *L, const char *name) { return find_nested(L, name) != NULL; }

/* The call with each free variable and nonlocal passed by keyword, read
 * here. */
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
  for (int i = fn->params.len - d->nfree - d->nnonlocal; i < fn->params.len; i++) {
    Node *v = arena_alloc(L->a, sizeof *v), *kw = arena_alloc(L->a, sizeof *kw);
    *v = (Node){.kind = ND_NAME, .loc = call->loc, .name = fn->params.data[i].name};
    *kw = (Node){.kind = ND_KEYWORD, .loc = call->loc, .name = v->name, .lhs = v};
    vec_push(L->a, &c->args2, kw);
  }
  *out = c;
  return d->f;
}

/* After call (lowered to v) of a def with nonlocals: the values it hands
 * back assigned to the enclosing function's variables; the call's own value
 * (None when the def returns none). */
int lower_nested_result(Lower *L, const Node *call, int v) {
  const NestedDef *d = find_nested(L, call->lhs ? call->lhs->name : NULL);
  if (!d || !d->nnonlocal || v < 0)
    return v;
  const Func *fn = d->f->ast;
  int first = fn->params.len - d->nnonlocal;
  for (int i = 0; i < d->nnonlocal; i++) {
    int e = v;
    if (d->value || d->nnonlocal > 1) {
      e = lower_emit1(L, OP_TUPLE_GET, call->loc, v);
      lower_inst(L, e)->ival = i + d->value;
    }
    lower_assign_to(L, name_node(L, fn->params.data[first + i].name, call->loc), e);
  }
  if (!d->value)
    return lower_emit0(L, OP_CONST_NONE, call->loc);
  int r = lower_emit1(L, OP_TUPLE_GET, call->loc, v);
  lower_inst(L, r)->ival = 0;
  return r;
}

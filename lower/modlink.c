/* modlink.c - linking the modules of a program of several files into the
 * one Module that lowering reads (see modlink.h).
 *
 * Each module has a namespace: its defs, its constants (enum classes too)
 * and what its imports bind.  A name resolves there as in Python: a
 * function's locals first, then the module binding that comes last in the
 * file.  Resolved names are rewritten in place to their merged spelling;
 * `util.TPB` (an attribute chain through modules) collapses to one name.
 * Only the bodies of compiled functions (decorated by a numba decorator)
 * report what does not resolve: host code may use anything. */
#include <stdlib.h>

#include "lower/lower_internal.h"
#include "lower/modlink.h"

typedef enum BindKind {
  B_NONE,      /* not bound in the module */
  B_DEF,       /* a def or a constant: sym */
  B_EXT,       /* an import of numba/math/...: sym is the merged alias */
  B_MISSING,   /* an import of a module not found: sym is the merged alias */
  B_MOD,       /* a loaded module: mod */
  B_UNKNOWN,   /* `from m import name` (or m.name) that m lacks: mod, name */
} BindKind;

typedef struct Binding {
  BindKind kind;
  const char *sym;
  IrModule *mod;
  const char *name;
  const Import *im;      /* the import that bound it (B_EXT, B_MISSING) */
  const IrImportRes *res;
  bool cycle;            /* B_UNKNOWN: only found going round an import cycle */
} Binding;

/* A def of some module: whether lowering gets it (see reach()). */
typedef struct FuncInfo {
  Func *fn;
  IrModule *m;
  bool entry;            /* a kernel, @vectorize or @cuda.reduce: always lowered */
  bool compiled;         /* decorated by numba */
  bool reached;          /* lowered (imported defs): an entry, or called from a
                            compiled def of the kernel file or a reached one */
  Diags *pending;        /* an imported def's body's errors, kept until reached */
} FuncInfo;

typedef struct Linker {
  IrProgram *p;
  Arena *a;
  Diags *d;
  IrModuleVec *mods;
  IrModule *main;        /* the kernel file */
  Vec(FuncInfo) funcs;   /* every def of every module */
  Vec(IrModule *) star;  /* modules whose `import *` lookup() is following now */
} Linker;

/* One function (or a module-level expression) being rewritten. */
typedef struct Rw {
  Linker *k;
  IrModule *m;
  Diags *d;              /* where its errors go */
  Vec(const char *) locals;
  Vec(const char *) globals; /* `global x` names: never local */
  bool report;           /* a compiled function: unresolved names are errors */
  bool foreign;          /* report names only the kernel file binds (Python's
                            NameError): compiled bodies, and what a module runs
                            on import (decorators, constants) */
} Rw;

enum { MAX_DEPTH = 32 }; /* re-export chains; deeper ones are import cycles */

static const char *sym_of(Linker *k, const IrModule *m, const char *name) {
  return m == k->main ? name : arena_printf(k->a, "%s.%s", m->qual, name);
}

static const char *mod_name(const IrModule *m) { return m->qual[0] ? m->qual : "__main__"; }

/* ------------------------------------------------------------ lookup --- */

static Binding lookup(Linker *k, IrModule *m, const char *name, int depth);

static IrModule *child_of(IrModule *m, const char *name) {
  for (int i = 0; i < m->children.len; i++)
    if (strcmp(m->children.data[i].name, name) == 0)
      return m->children.data[i].mod;
  return NULL;
}

/* m.name: a binding of m, else a submodule, else B_UNKNOWN. */
static Binding attr_of(Linker *k, IrModule *m, const char *name, int depth) {
  Binding b = lookup(k, m, name, depth + 1);
  if (b.kind != B_NONE)
    return b;
  IrModule *c = child_of(m, name);
  if (c)
    return (Binding){.kind = B_MOD, .mod = c};
  return (Binding){.kind = B_UNKNOWN, .mod = m, .name = name, .cycle = depth >= MAX_DEPTH};
}

static Binding import_binding(Linker *k, IrModule *m, int i, int depth) {
  const Import *im = &m->ast->imports.data[i];
  const IrImportRes *r = &m->res[i];
  if (r->kind != IMP_USER)
    return (Binding){.kind = r->kind == IMP_EXTERNAL ? B_EXT : B_MISSING,
                     .sym = sym_of(k, m, im->alias), .im = im, .res = r};
  if (!im->name)
    return (Binding){.kind = B_MOD, .mod = r->target};
  if (depth > MAX_DEPTH) /* `from a import x` in b and `from b import x` in a */
    return (Binding){.kind = B_UNKNOWN, .mod = r->target, .name = im->name, .cycle = true};
  return attr_of(k, r->target, im->name, depth);
}

static bool later(SrcLoc a, SrcLoc at) {
  return at.line == 0 || a.line > at.line || (a.line == at.line && a.col >= at.col);
}

/* An enum member "Color.RED" makes "Color" a name of the module. */
static bool global_binds(const GlobalAssign *g, const char *name) {
  size_t n = strlen(name);
  return g->name && strncmp(g->name, name, n) == 0 && (g->name[n] == 0 || g->name[n] == '.');
}

/* Whether lookup() is already following m's star imports further up: a
 * package's __init__ and its modules importing each other with `import *`
 * would otherwise be walked once per path, exponentially in MAX_DEPTH (a
 * hang); the frame further up sees everything this one would. */
static bool on_star_path(const Linker *k, const IrModule *m) {
  for (int i = 0; i < k->star.len; i++)
    if (k->star.data[i] == m)
      return true;
  return false;
}

/* The binding of name in m that comes last in the file, as Python's
 * top-to-bottom execution leaves it. */
static Binding lookup(Linker *k, IrModule *m, const char *name, int depth) {
  Binding best = {.kind = B_NONE};
  SrcLoc at = {0};
  const Module *ast = m->ast;
  for (int i = 0; i < ast->funcs.len; i++)
    if (strcmp(ast->funcs.data[i]->name, name) == 0 && later(ast->funcs.data[i]->loc, at))
      best = (Binding){.kind = B_DEF, .sym = sym_of(k, m, name)}, at = ast->funcs.data[i]->loc;
  for (int i = 0; i < ast->globals.len; i++)
    if (global_binds(&ast->globals.data[i], name) && later(ast->globals.data[i].loc, at))
      best = (Binding){.kind = B_DEF, .sym = sym_of(k, m, name)}, at = ast->globals.data[i].loc;
  for (int i = 0; i < ast->imports.len && depth <= MAX_DEPTH; i++) {
    const Import *im = &ast->imports.data[i];
    if (!later(im->loc, at))
      continue;
    if (strcmp(im->alias, "*") == 0) { /* from m2 import *: its public names */
      if (m->res[i].kind != IMP_USER || name[0] == '_' || on_star_path(k, m->res[i].target))
        continue;
      vec_push(k->a, &k->star, m->res[i].target);
      Binding b = lookup(k, m->res[i].target, name, depth + 1);
      k->star.len--;
      if (b.kind != B_NONE)
        best = b, at = im->loc;
    } else if (strcmp(im->alias, name) == 0) {
      best = import_binding(k, m, i, depth), at = im->loc;
    }
  }
  return best;
}

/* ------------------------------------------------------------ locals --- */

static bool in_list(const char *const *v, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(v[i], name) == 0)
      return true;
  return false;
}

static void add_target(Rw *w, const Node *t) {
  if (!t)
    return;
  if (t->kind == ND_NAME && t->name)
    vec_push(w->k->a, &w->locals, t->name);
  else if (t->kind == ND_TUPLE || t->kind == ND_LIST)
    for (int i = 0; i < t->args.len; i++)
      add_target(w, t->args.data[i]);
  else if (t->kind == ND_STARRED)
    add_target(w, t->lhs);
}

static void collect_locals(Rw *w, const Node *n);

static void collect_list(Rw *w, const NodeList *l) {
  for (int i = 0; i < l->len; i++)
    collect_locals(w, l->data[i]);
}

/* Python's rule: a name bound anywhere in the function is local to all of it. */
static void collect_locals(Rw *w, const Node *n) {
  if (!n)
    return;
  switch (n->kind) {
  case ND_ASSIGN:
    for (int i = 0; i < n->args.len; i++)
      add_target(w, n->args.data[i]);
    break;
  case ND_AUGASSIGN: case ND_ANNASSIGN: add_target(w, n->lhs); break;
  case ND_FOR: add_target(w, n->lhs); break;
  case ND_NAMEDEXPR:
  case ND_FUNCDEF:
    if (n->name)
      vec_push(w->k->a, &w->locals, n->name);
    if (n->kind == ND_FUNCDEF)
      return; /* its own scope */
    break;
  case ND_GLOBAL:
    for (int i = 0; i < n->args.len; i++)
      if (n->args.data[i]->name)
        vec_push(w->k->a, &w->globals, n->args.data[i]->name);
    return;
  default: break;
  }
  collect_locals(w, n->lhs), collect_locals(w, n->rhs);
  collect_locals(w, n->third), collect_locals(w, n->cond);
  collect_list(w, &n->args), collect_list(w, &n->args2);
  collect_list(w, &n->body), collect_list(w, &n->orelse);
}

static bool is_local(Rw *w, const char *name) {
  return !in_list(w->globals.data, w->globals.len, name) &&
         in_list(w->locals.data, w->locals.len, name);
}

/* ----------------------------------------------------------- rewrite --- */

static void rw_node(Rw *w, Node *n);

/* n (a name or an attribute chain) now names sym; the text as written
 * stays in str for messages (ir_dotted). */
static void set_name(Rw *w, Node *n, const char *sym) {
  n->str = ir_dotted(w->k->a, n);
  n->kind = ND_NAME;
  n->name = sym;
  n->lhs = NULL;
}

static const char *searched_hint(Linker *k, const Binding *b) {
  const char *mod = b->im->module;
  const char *dot = strchr(mod, '.');
  int len = dot ? (int)(dot - mod) : (int)strlen(mod);
  return arena_printf(k->a,
                      "kjit looked for %.*s.py and %.*s/ in: %s; add the folder holding it with "
                      "--path or KJIT_PATH (kernels can also use numba, math, cmath, numpy and operator)",
                      len, mod, len, mod, b->res->searched ? b->res->searched : "(nothing)");
}

static void report_missing(Rw *w, const Node *n, const Binding *b) {
  Linker *k = w->k;
  diag_error(w->d, E_MODULE, n->loc, searched_hint(k, b), "module '%s' was not found",
             b->im->module);
  diag_add(w->d, DL_NOTE, E_MODULE, b->im->loc, NULL, "'%s' is imported here", b->im->alias);
}

static void report_unknown(Rw *w, const Node *n, const Binding *b) {
  Linker *k = w->k;
  Vec(const char *) cands = {0};
  for (int i = 0; i < b->mod->ast->funcs.len; i++)
    vec_push(k->a, &cands, b->mod->ast->funcs.data[i]->name);
  for (int i = 0; i < b->mod->ast->globals.len; i++)
    vec_push(k->a, &cands, b->mod->ast->globals.data[i].name);
  const char *near = ir_closest(b->name, cands.data, cands.len);
  const char *where = b->mod->path ? b->mod->path : b->mod->dir;
  const char *hint = b->cycle ? "the modules import it from each other (a cycle); define it in one"
                     : near   ? arena_printf(k->a, "did you mean '%s'?", near)
                              : arena_printf(k->a, "'%s' is the file %s", mod_name(b->mod), where);
  if (n->kind == ND_NAME) /* bound by `from m import name` */
    diag_error(w->d, E_MODULE, n->loc, hint, "cannot import name '%s' from '%s'", b->name,
               mod_name(b->mod));
  else
    diag_error(w->d, E_MODULE, n->loc, hint, "module '%s' has no attribute '%s'",
               mod_name(b->mod), b->name);
}

/* A name the kernel file binds but this module does not: Python raises
 * NameError, so it must not silently mean the kernel file's. */
static void report_foreign(Rw *w, const Node *n) {
  Linker *k = w->k;
  diag_error(w->d, E_UNDEFINED, n->loc,
             arena_printf(k->a, "'%s' belongs to the kernel file, not to module '%s': "
                                "import it there", n->name, w->m->qual),
             "name '%s' is not defined", n->name);
}

/* The binding a name or attribute chain reaches through modules: B_NONE
 * for a local, a value's attribute, or a chain that leaves the modules. */
static Binding chain(Rw *w, const Node *n) {
  if (n->kind == ND_NAME && n->name && !is_local(w, n->name))
    return lookup(w->k, w->m, n->name, 0);
  if (n->kind == ND_ATTR && n->name && n->lhs) {
    Binding base = chain(w, n->lhs);
    if (base.kind == B_MOD)
      return attr_of(w->k, base.mod, n->name, 0);
  }
  return (Binding){.kind = B_NONE};
}

static void apply(Rw *w, Node *n, Binding b) {
  switch (b.kind) {
  case B_DEF:
  case B_EXT: set_name(w, n, b.sym); return;
  case B_MISSING:
    if (w->report)
      report_missing(w, n, &b);
    set_name(w, n, b.sym);
    return;
  case B_MOD:
    if (w->report)
      diag_error(w->d, E_CALLEE, n->loc, "use its functions and constants: m.name",
                 "module '%s' cannot be used as a value", mod_name(b.mod));
    return;
  case B_UNKNOWN:
    if (w->report)
      report_unknown(w, n, &b);
    return;
  case B_NONE:
    if (n->kind == ND_ATTR) {
      rw_node(w, n->lhs);
    } else if (w->foreign && w->m != w->k->main && n->kind == ND_NAME &&
               lookup(w->k, w->k->main, n->name, 0).kind != B_NONE) {
      report_foreign(w, n);
    }
    return;
  }
}

static void rw_list(Rw *w, NodeList *l) {
  for (int i = 0; i < l->len; i++)
    rw_node(w, l->data[i]);
}

static void rw_node(Rw *w, Node *n) {
  if (!n || n->kind == ND_GLOBAL)
    return;
  if (n->kind == ND_NAME) {
    if (n->name && !is_local(w, n->name))
      apply(w, n, chain(w, n));
    return;
  }
  if (n->kind == ND_ATTR) {
    apply(w, n, chain(w, n));
    return;
  }
  rw_node(w, n->lhs), rw_node(w, n->rhs), rw_node(w, n->third), rw_node(w, n->cond);
  rw_list(w, &n->args), rw_list(w, &n->args2), rw_list(w, &n->body), rw_list(w, &n->orelse);
  if (n->kind == ND_FUNCDEF && n->func)
    rw_list(w, &n->func->body);
}

/* -------------------------------------------------------- functions --- */

static Node *decorator_root(Node *d) {
  Node *n = d && d->kind == ND_CALL ? d->lhs : d;
  while (n && n->kind == ND_ATTR)
    n = n->lhs;
  return n && n->kind == ND_NAME ? n : NULL;
}

/* The canonical path of decorator d's callee ("numba.cuda.jit") when it
 * comes from numba, else NULL. */
static const char *numba_path(Linker *k, IrModule *m, Node *d) {
  Node *r = decorator_root(d);
  Binding b = r && r->name ? lookup(k, m, r->name, 0) : (Binding){.kind = B_NONE};
  if (b.kind != B_EXT || !ir_starts_with(b.im->module, "numba"))
    return NULL;
  const Import *im = b.im;
  const char *dot = strchr(im->module, '.');
  const char *path = im->name ? arena_printf(k->a, "%s.%s", im->module, im->name)
                     : dot && strcmp(im->alias, r->name) == 0 &&
                             strncmp(im->module, im->alias, (size_t)(dot - im->module)) == 0
                         ? im->alias /* `import numba.cuda` binds numba */
                         : im->module;
  const char *callee = ir_dotted(k->a, d && d->kind == ND_CALL ? d->lhs : d);
  const char *rest = strchr(callee, '.');
  return rest ? arena_printf(k->a, "%s%s", path, rest) : path;
}

static bool device_option(const Node *d) {
  for (int i = 0; d && d->kind == ND_CALL && i < d->args2.len; i++) {
    const Node *kw = d->args2.data[i];
    if (kw->name && strcmp(kw->name, "device") == 0)
      return !(kw->lhs && kw->lhs->kind == ND_BOOL && kw->lhs->ival == 0);
  }
  return false;
}

/* Decorated by numba (*compiled); an entry point: a kernel, a @vectorize
 * or a @cuda.reduce function (the return value). */
static bool classify(Linker *k, IrModule *m, const Func *fn, bool *compiled) {
  bool entry = false;
  *compiled = false;
  for (int i = 0; i < fn->decorators.len; i++) {
    Node *d = fn->decorators.data[i];
    const char *path = numba_path(k, m, d);
    if (!path)
      continue;
    *compiled = true;
    if ((strcmp(path, "numba.cuda.jit") == 0 && !device_option(d)) || strstr(path, "vectorize") ||
        strcmp(path, "numba.cuda.reduce") == 0 || strcmp(path, "numba.cuda.Reduce") == 0)
      entry = true;
  }
  return entry;
}

/* An imported def's body reports into its own list, kept only when the
 * def is lowered: Numba compiles a helper when something calls it. */
static void rw_func(Linker *k, IrModule *m, Func *fn) {
  FuncInfo fi = {.fn = fn, .m = m};
  fi.entry = classify(k, m, fn, &fi.compiled); /* before its decorators are renamed */
  fi.reached = (m == k->main && fi.compiled) || fi.entry; /* host code reaches nothing */
  Rw w = {.k = k, .m = m, .d = k->d, .foreign = true};
  rw_list(&w, &fn->decorators);     /* module scope, run on import */
  w.foreign = false;
  for (int i = 0; i < fn->params.len; i++) {
    rw_node(&w, fn->params.data[i].annotation);
    rw_node(&w, fn->params.data[i].deflt);
  }
  rw_node(&w, fn->returns);
  for (int i = 0; i < fn->params.len; i++)
    vec_push(k->a, &w.locals, fn->params.data[i].name);
  collect_list(&w, &fn->body);
  w.report = w.foreign = fi.compiled;
  if (!fi.reached) {
    fi.pending = arena_alloc(k->a, sizeof *fi.pending);
    diags_init(fi.pending, k->d->arena);
    w.d = fi.pending;
  }
  rw_list(&w, &fn->body);
  vec_push(k->a, &k->funcs, fi);
}

static void rw_module(Linker *k, IrModule *m) {
  Rw w = {.k = k, .m = m, .d = k->d, .foreign = true};
  for (int i = 0; i < m->ast->globals.len; i++)
    rw_node(&w, m->ast->globals.data[i].value);
  for (int i = 0; i < m->ast->funcs.len; i++)
    rw_func(k, m, m->ast->funcs.data[i]);
}

/* ------------------------------------------------------------ merge --- */

/* Imports of numba & co. (and of modules not found) stay, under the
 * module's alias; imports of loaded modules are gone (names say it all). */
static void merge_imports(Linker *k, Module *out, IrModule *m) {
  for (int i = 0; i < m->ast->imports.len; i++) {
    Import im = m->ast->imports.data[i];
    if (m->res[i].kind == IMP_USER)
      continue;
    if (strcmp(im.alias, "*") != 0)
      im.alias = sym_of(k, m, im.alias);
    vec_push(k->a, &out->imports, im);
  }
}

static void merge_globals(Linker *k, Module *out, IrModule *m) {
  for (int i = 0; i < m->ast->globals.len; i++) {
    GlobalAssign g = m->ast->globals.data[i];
    if (g.name)
      g.name = sym_of(k, m, g.name);
    vec_push(k->a, &out->globals, g);
  }
}

static Module *merge(Linker *k) {
  Module *out = arena_alloc(k->a, sizeof *out);
  memset(out, 0, sizeof *out);
  out->src = k->main->ast->src;
  for (int i = 0; i < k->mods->len; i++) {
    merge_imports(k, out, k->mods->data[i]);
    if (k->mods->data[i] != k->main)
      merge_globals(k, out, k->mods->data[i]);
  }
  merge_globals(k, out, k->main);
  for (int i = 0; i < k->main->ast->funcs.len; i++)
    vec_push(k->a, &out->funcs, k->main->ast->funcs.data[i]);
  for (int i = 0; i < k->funcs.len; i++)
    if (k->funcs.data[i].m != k->main && k->funcs.data[i].reached)
      vec_push(k->a, &out->funcs, k->funcs.data[i].fn);
  return out;
}

/* Renaming defs comes last: lookups read the names as written. */
static void rename_funcs(Linker *k) {
  for (int i = 0; i < k->mods->len; i++) {
    IrModule *m = k->mods->data[i];
    for (int j = 0; j < m->ast->funcs.len && m != k->main; j++)
      m->ast->funcs.data[j]->name = sym_of(k, m, m->ast->funcs.data[j]->name);
  }
}

/* ----------------------------------------------------------- reach --- */

static void mark_names(Linker *k, const Node *n);

static void mark_list(Linker *k, const NodeList *l) {
  for (int i = 0; i < l->len; i++)
    mark_names(k, l->data[i]);
}

/* Every merged name n uses that is an imported def becomes reached (with
 * what it uses in turn).  Runs after rename_funcs: defs carry their syms. */
static void mark_names(Linker *k, const Node *n) {
  if (!n)
    return;
  if (n->kind == ND_NAME && n->name && strchr(n->name, '.')) {
    for (int i = 0; i < k->funcs.len; i++) {
      FuncInfo *fi = &k->funcs.data[i];
      if (fi->reached || strcmp(fi->fn->name, n->name) != 0)
        continue;
      fi->reached = true;
      mark_list(k, &fi->fn->body);
    }
  }
  mark_names(k, n->lhs), mark_names(k, n->rhs), mark_names(k, n->third), mark_names(k, n->cond);
  mark_list(k, &n->args), mark_list(k, &n->args2), mark_list(k, &n->body), mark_list(k, &n->orelse);
  if (n->kind == ND_FUNCDEF && n->func)
    mark_list(k, &n->func->body);
}

/* Lowered: the kernel file's defs, every module's entry points, and the
 * imported defs these call (transitively); the errors of those surface. */
static void reach(Linker *k) {
  int n = k->funcs.len;
  for (int i = 0; i < n; i++)
    if (k->funcs.data[i].reached)
      mark_list(k, &k->funcs.data[i].fn->body);
  for (int i = 0; i < k->main->ast->globals.len; i++)
    mark_names(k, k->main->ast->globals.data[i].value);
  for (int i = 0; i < k->funcs.len; i++) {
    const FuncInfo *fi = &k->funcs.data[i];
    for (int j = 0; fi->reached && fi->pending && j < fi->pending->list.len; j++) {
      const Diag *g = &fi->pending->list.data[j];
      diag_add(k->d, g->level, g->code, g->loc, g->hint, "%s", g->msg);
    }
  }
}

bool ir_link_modules(IrProgram *p, IrModuleVec *mods, Diags *d) {
  if (!mods->len)
    return false;
  Linker k = {.p = p, .a = p->arena, .d = d, .mods = mods, .main = mods->data[mods->len - 1]};
  int before = d->nerrors;
  for (int i = 0; i < mods->len; i++)
    rw_module(&k, mods->data[i]);
  rename_funcs(&k);
  reach(&k);
  p->ast = merge(&k);
  return d->nerrors == before;
}

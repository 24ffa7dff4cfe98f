/* lower_func.c - which top-level defs are compiled, and how: decorators
 * (@cuda.jit, @cuda.jit(...), @jit from numba.cuda, @numba.cuda.jit), their
 * signatures (eager compilation) and options.
 *
 * A def without a CUDA decorator is host code and is left alone, so a real
 * Numba script can be handed to kjit as it is; CUDA decorators kjit does not
 * implement yet (@guvectorize...) are reported at the decorator; @vectorize
 * is handed to lower_ufunc.c.  A @cuda.reduce function is a device function
 * marked is_reduce (its kernels are generated per dtype by lower/reduce.c when
 * it is first used). */
#include "lower/lower_internal.h"

typedef enum DecKind {
  DEC_HOST, DEC_JIT, DEC_CPUJIT, DEC_VECTORIZE, DEC_REDUCE, DEC_NOTYET
} DecKind;

/* CPU decorators whose functions numba-cuda compiles as device functions
 * when a kernel calls them (@njit helpers shared with CPU code). */
static const char *const cpu_jits[] = {
    "numba.njit", "numba.jit", "numba.core.decorators.njit", "numba.core.decorators.jit",
    "numba.extending.register_jitable", "numba.core.extending.register_jitable",
    "numba.cuda.extending.register_jitable",
};

static const Node *decorator_callee(const Node *d) {
  return d->kind == ND_CALL ? d->lhs : d;
}

static DecKind classify_decorator(LowerProg *lp, const Node *d) {
  static const char *const notyet[] = {
      "numba.guvectorize", "numba.cuda.guvectorize", "numba.stencil",
  };
  const char *path = ir_resolve_path(lp, NULL, decorator_callee(d));
  if (!path)
    return DEC_HOST;
  if (strcmp(path, "numba.cuda.jit") == 0)
    return DEC_JIT;
  for (size_t i = 0; i < sizeof cpu_jits / sizeof *cpu_jits; i++)
    if (strcmp(path, cpu_jits[i]) == 0)
      return DEC_CPUJIT;
  if (strcmp(path, "numba.vectorize") == 0 || strcmp(path, "numba.cuda.vectorize") == 0)
    return DEC_VECTORIZE;
  if (strcmp(path, "numba.cuda.reduce") == 0 || strcmp(path, "numba.cuda.Reduce") == 0)
    return DEC_REDUCE;
  for (size_t i = 0; i < sizeof notyet / sizeof *notyet; i++)
    if (strcmp(path, notyet[i]) == 0)
      return DEC_NOTYET;
  return ir_starts_with(path, "numba.cuda.") ? DEC_NOTYET : DEC_HOST;
}

/* A signature (string or expression) of the decorator; diagnostics point
 * into the .py file. */
static void add_signature(LowerProg *lp, IrFunc *f, const Node *n) {
  Signature sig = {0};
  if (ir_signature_from_ast(lp->p, n, &sig, lp->d)) {
    if (sig.loc.src == NULL || n->kind == ND_STR)
      sig.loc = n->loc;
    vec_push(lp->a, &f->eager, sig);
  }
}

/* A list is several signatures; a tuple is one signature of argument types
 * (Numba's rule), except a tuple of strings, taken as several. */
static bool all_strings(const LowerProg *lp, const Node *n) {
  for (int i = 0; i < n->args.len; i++)
    if (!n->args.data[i] || ir_sig_resolve(lp->p, n->args.data[i])->kind != ND_STR)
      return false;
  return n->args.len > 0;
}

static void add_signatures(LowerProg *lp, IrFunc *f, const Node *n) {
  n = ir_sig_resolve(lp->p, n);
  if (n->kind == ND_LIST || (n->kind == ND_TUPLE && all_strings(lp, n))) {
    for (int i = 0; i < n->args.len; i++)
      if (n->args.data[i])
        add_signature(lp, f, n->args.data[i]);
    return;
  }
  add_signature(lp, f, n);
}

/* ------------------------------------------------------------ options -- */

static bool option_const(LowerProg *lp, const Node *kw, IrGlobal *g) {
  if (kw->lhs && kw->lhs->kind == ND_NONE) {
    memset(g, 0, sizeof *g);
    g->type = TY_BOOL_T;
    return true;
  }
  if (ir_fold(lp, NULL, kw->lhs, g, NULL) && g->type && g->type->kind != TY_TUPLE &&
      !ty_is_float(g->type))
    return true;
  diag_error(lp->d, E_OPTION, kw->lhs ? kw->lhs->loc : kw->loc, NULL,
             "option '%s' must be a constant %s", kw->name,
             strcmp(kw->name, "max_registers") == 0 ? "integer" : "True or False");
  return false;
}

static void option_bool(LowerProg *lp, const Node *kw, bool *out) {
  IrGlobal g;
  if (option_const(lp, kw, &g))
    *out = g.ival != 0;
}

static void option_string(LowerProg *lp, IrFunc *f, const Node *kw) {
  const Node *v = kw->lhs ? ir_sig_resolve(lp->p, kw->lhs) : NULL; /* INLINE = "always" */
  const char *s = v && v->kind == ND_STR ? v->str : NULL;
  SrcLoc loc = kw->lhs ? kw->lhs->loc : kw->loc;
  if (strcmp(kw->name, "typing") == 0) {
    if (s && strcmp(s, "narrow") == 0)
      f->opts.narrow_typing = true;
    else if (!s || strcmp(s, "numba") != 0)
      diag_error(lp->d, E_OPTION, loc, NULL, "typing= must be \"narrow\" or \"numba\"");
    return;
  }
  if (s && strcmp(s, "always") == 0)
    f->opts.inline_mode = 1;
  else if (s && strcmp(s, "never") == 0)
    f->opts.inline_mode = 2;
  else if (v && v->kind == ND_BOOL)
    f->opts.inline_mode = v->ival ? 1 : 2;
  else
    diag_error(lp->d, E_OPTION, loc, NULL, "inline= must be \"always\" or \"never\"");
}

static void option_int(LowerProg *lp, const Node *kw, int *out, int lo, int hi) {
  IrGlobal g;
  if (!option_const(lp, kw, &g))
    return;
  int64_t v = g.type == TY_BOOL_T && strcmp(kw->name, "opt") == 0 ? (g.ival ? 3 : 0) : g.ival;
  if (v < lo || v > hi) {
    diag_error(lp->d, E_OPTION, kw->lhs->loc, NULL, "option '%s' must be between %d and %d",
               kw->name, lo, hi);
    return;
  }
  *out = (int)v;
}

/* shared_memory_carveout: 0..100 (percent) or "MaxL1" / "MaxShared" /
 * "default", as numba-cuda checks it; a hint to the driver that kjit does
 * not pass on (documented in docs/language.md). */
static void option_carveout(LowerProg *lp, const Node *kw) {
  const Node *v = kw->lhs ? ir_sig_resolve(lp->p, kw->lhs) : NULL;
  if (v && v->kind == ND_STR && v->str &&
      (!strcmp(v->str, "MaxL1") || !strcmp(v->str, "MaxShared") || !strcmp(v->str, "default")))
    return;
  IrGlobal g;
  if (v && v->kind != ND_STR && ir_fold(lp, NULL, v, &g, NULL) && ty_is_int(g.type) &&
      g.ival >= 0 && g.ival <= 100)
    return;
  diag_error(lp->d, E_OPTION, kw->lhs ? kw->lhs->loc : kw->loc, NULL,
             "shared_memory_carveout must be 0..100 or \"MaxL1\", \"MaxShared\", \"default\"");
}

static void parse_option(LowerProg *lp, IrFunc *f, const Node *kw) {
  static const char *const known[] = {"device", "fastmath", "debug", "lineinfo", "cache",
                                      "boundscheck", "max_registers", "opt", "inline",
                                      "link", "typing", "forceinline", "lto",
                                      "shared_memory_carveout"};
  const char *k = kw->name;
  if (!k) {
    diag_error(lp->d, E_OPTION, kw->loc, NULL, "**kwargs are not supported in a decorator");
    return;
  }
  if (strcmp(k, "device") == 0) {
    option_bool(lp, kw, &f->is_device);
    f->is_kernel = !f->is_device;
  } else if (strcmp(k, "fastmath") == 0) option_bool(lp, kw, &f->opts.fastmath);
  else if (strcmp(k, "debug") == 0) option_bool(lp, kw, &f->opts.debug);
  else if (strcmp(k, "lineinfo") == 0) option_bool(lp, kw, &f->opts.lineinfo);
  else if (strcmp(k, "cache") == 0) option_bool(lp, kw, &f->opts.cache);
  else if (strcmp(k, "boundscheck") == 0) option_bool(lp, kw, &f->opts.boundscheck);
  else if (strcmp(k, "max_registers") == 0) option_int(lp, kw, &f->opts.max_registers, 0, 255);
  else if (strcmp(k, "opt") == 0) option_int(lp, kw, &f->opts.opt, 0, 3);
  else if (strcmp(k, "inline") == 0 || strcmp(k, "typing") == 0) option_string(lp, f, kw);
  else if (strcmp(k, "link") == 0)
    ir_parse_link(lp, kw->lhs, &f->link);
  else if (strcmp(k, "forceinline") == 0) {
    bool force = false;
    option_bool(lp, kw, &force);
    if (force)
      f->opts.inline_mode = 1;
  } else if (strcmp(k, "lto") == 0) {
    bool lto; /* kjit's device code is one LLVM module, optimized whole: always "LTO" */
    option_bool(lp, kw, &lto);
  } else if (strcmp(k, "shared_memory_carveout") == 0)
    option_carveout(lp, kw);
  else {
    const char *near = ir_closest(k, known, (int)(sizeof known / sizeof *known));
    diag_error(lp->d, E_OPTION, kw->loc, near ? arena_printf(lp->a, "did you mean '%s'?", near) : NULL,
               "unknown option '%s' for @cuda.jit", k);
  }
}

/* Options of @njit / @jit / @register_jitable: those with a meaning on
 * the GPU are read as @cuda.jit's; the CPU-only ones (nopython, nogil,
 * parallel, error_model, locals, ...) are accepted and have no effect. */
static void parse_cpu_option(LowerProg *lp, IrFunc *f, const Node *kw) {
  static const char *const shared[] = {"fastmath", "boundscheck", "inline", "cache", "debug"};
  for (size_t i = 0; kw->name && i < sizeof shared / sizeof *shared; i++)
    if (strcmp(kw->name, shared[i]) == 0)
      parse_option(lp, f, kw);
}

/* `func_or_sig=` is the name of cuda.jit's first parameter, so a signature
 * (or None: none) may be given by keyword: `@cuda.jit(func_or_sig=None,
 * device=True)`.  True when kw is that keyword. */
static bool func_or_sig(LowerProg *lp, IrFunc *f, const Node *d, const Node *kw) {
  if (!kw->name || strcmp(kw->name, "func_or_sig") != 0)
    return false;
  if (d->args.len)
    diag_error(lp->d, E_OPTION, kw->loc, "give the signature once",
               "@cuda.jit got its signature both as an argument and as func_or_sig=");
  else if (kw->lhs && kw->lhs->kind != ND_NONE)
    add_signatures(lp, f, kw->lhs);
  return true;
}

static void parse_jit_call(LowerProg *lp, IrFunc *f, const Node *d) {
  if (d->kind != ND_CALL)
    return;
  if (f->is_device && !f->is_kernel && classify_decorator(lp, d) == DEC_CPUJIT) {
    if (d->args.len >= 1 && d->args.data[0])
      add_signatures(lp, f, d->args.data[0]);
    for (int i = 0; i < d->args2.len; i++)
      if (d->args2.data[i])
        parse_cpu_option(lp, f, d->args2.data[i]);
    return;
  }
  if (d->args.len > 1)
    diag_error(lp->d, E_OPTION, d->args.data[1]->loc, "pass several signatures as a list",
               "@cuda.jit takes at most one positional argument (a signature or a list of them)");
  if (d->args.len >= 1 && d->args.data[0])
    add_signatures(lp, f, d->args.data[0]);
  for (int i = 0; i < d->args2.len; i++)
    if (d->args2.data[i] && !func_or_sig(lp, f, d, d->args2.data[i]))
      parse_option(lp, f, d->args2.data[i]);
}

int ir_lower_decorator_kind(LowerProg *lp, const Node *d) {
  DecKind k = classify_decorator(lp, d);
  return k == DEC_JIT || k == DEC_CPUJIT ? 1 : 0;
}

bool ir_lower_funcdef(LowerProg *lp, const Func *fn, IrFunc **out) {
  *out = NULL;
  const Node *jit = NULL, *reduce = NULL;
  bool ok = true;
  for (int i = 0; i < fn->decorators.len; i++) {
    const Node *d = fn->decorators.data[i];
    if (!d)
      continue;
    DecKind k = classify_decorator(lp, d);
    if ((k == DEC_JIT || k == DEC_VECTORIZE) && (!jit || classify_decorator(lp, jit) == DEC_CPUJIT)) {
      jit = d;
    } else if (k == DEC_CPUJIT && !jit) {
      jit = d;
    } else if (k == DEC_REDUCE && !reduce) {
      reduce = d;
    } else if (k == DEC_NOTYET) {
      diag_error(lp->d, E_NOTYET, d->loc, NULL, "@%s is not supported yet",
                 ir_dotted(lp->a, decorator_callee(d)));
      ok = false;
    }
  }
  if (reduce && ok && !jit)
    return ir_lower_reduce_def(lp, fn, reduce, out);
  if (reduce && jit)
    diag_error(lp->d, E_OPTION, reduce->loc, "keep @cuda.reduce alone; it compiles the function itself",
               "@cuda.reduce cannot be combined with @cuda.jit");
  if (!jit || !ok || reduce)
    return ok && !reduce;
  IrFunc *f = ir_func_new(lp->a, fn->name);
  f->ast = fn;
  if (classify_decorator(lp, jit) == DEC_VECTORIZE) {
    *out = f;
    return ir_lower_vectorize(lp, f, fn, jit);
  }
  bool cpu = classify_decorator(lp, jit) == DEC_CPUJIT;
  f->is_kernel = !cpu;
  f->is_device = cpu;
  parse_jit_call(lp, f, jit);
  *out = f;
  return true;
}

/* ---------------------------------------- decorators held in variables -- */

/* The value of the last top-level `name = cuda.jit(...)` (or another jit
 * decorator) before line, or NULL when name holds something else. */
static Node *decorator_var(LowerProg *lp, const char *name, int line) {
  const Module *m = lp->p->ast;
  Node *v = NULL;
  for (int i = 0; i < m->globals.len; i++) {
    const GlobalAssign *g = &m->globals.data[i];
    if (g->name && strcmp(g->name, name) == 0 && g->loc.line < line)
      v = g->value;
  }
  if (!v || (v->kind == ND_NAME && v->name && strcmp(v->name, name) == 0))
    return NULL;
  DecKind k = classify_decorator(lp, v);
  return k == DEC_JIT || k == DEC_CPUJIT || k == DEC_VECTORIZE ? v : NULL;
}

static void expand_decorators(LowerProg *lp, Func *fn) {
  for (int i = 0; i < fn->decorators.len; i++) {
    Node *d = fn->decorators.data[i];
    Node *v = d && d->kind == ND_NAME && d->name ? decorator_var(lp, d->name, fn->loc.line) : NULL;
    if (v)
      fn->decorators.data[i] = v;
  }
}

/* `FM = cuda.jit(fastmath=True)` then `@FM`: Python calls the object the
 * variable holds, so the def is decorated by that call; each such
 * decorator is replaced by the variable's value (top-level defs and the
 * defs at the top level of their bodies). */
void ir_expand_decorator_vars(LowerProg *lp) {
  const Module *m = lp->p->ast;
  for (int i = 0; i < m->funcs.len; i++) {
    Func *fn = m->funcs.data[i];
    expand_decorators(lp, fn);
    for (int k = 0; k < fn->body.len; k++)
      if (fn->body.data[k] && fn->body.data[k]->kind == ND_FUNCDEF && fn->body.data[k]->func)
        expand_decorators(lp, fn->body.data[k]->func);
  }
}

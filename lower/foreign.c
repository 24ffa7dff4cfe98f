/* foreign.c - foreign CUDA C/C++ device functions: `cuda.declare_device`
 * bindings at module level, `link=[...]` file lists, calls to them.
 *
 *   mul = cuda.declare_device('mul_f32', 'float32(float32, float32)')
 *   @cuda.jit(link=['functions.cu'])
 *   def k(x, y, out): out[i] = mul(x[i], y[i])
 *
 * A call is OP_CALL_FOREIGN: its arguments are converted (infer_foreign.c) to the declared
 * parameter types, its result has the declared return type.  Codegen calls
 * the symbol with Numba's ABI, `extern "C" __device__ int f(T *ret, args...)`
 * (the int is a status, ignored; the result is written through ret).  The
 * files are compiled by NVRTC and linked when the kernel is loaded (runtime/
 * nvrtc.c, cuda/link.c).  Parameters are scalars: arrays and pointers
 * have no declared ABI here. */
#include <ctype.h>

#include "lower/lower_internal.h"

const IrExtern *ir_find_extern(const IrProgram *p, const char *name) {
  for (int i = p->externs.len - 1; i >= 0; i--)
    if (strcmp(p->externs.data[i].name, name) == 0)
      return &p->externs.data[i];
  return NULL;
}

/* link=['a.cu', 'b.cu'] (a list or tuple of string literals, or one string). */
/* cuda.CUSource("...") (inline CUDA C), directly or through a module
 * variable: its text, and the name it is known by in messages. */
static const char *cu_source(LowerProg *lp, const Node *s, const char **name) {
  const Node *v = s ? ir_sig_resolve(lp->p, s) : NULL;
  if (!v || v->kind != ND_CALL || v->args.len != 1 || v->args2.len)
    return NULL;
  const char *path = ir_resolve_path(lp, NULL, v->lhs);
  const Node *text = v->args.data[0];
  if (!path || strcmp(path, "numba.cuda.CUSource") != 0 || text->kind != ND_STR || !text->str ||
      text->fstring || text->bytes)
    return NULL;
  *name = arena_printf(lp->a, "%s.cu", s->kind == ND_NAME && s->name ? s->name : "CUSource");
  return text->str;
}

static bool is_seq(const Node *v) {
  return v && (v->kind == ND_LIST || v->kind == ND_TUPLE || v->kind == ND_SET);
}

/* set([...]), list(...) or tuple(...) of a list or tuple, the builtin
 * named directly or through a module alias (numba-cuda's test links
 * link_type([a, b]) with link_type = set): the list; else v itself. */
static const Node *collection_call(LowerProg *lp, const Node *v) {
  if (!v || v->kind != ND_CALL || v->args.len != 1 || v->args2.len || !v->lhs ||
      v->lhs->kind != ND_NAME)
    return v;
  const Node *c = ir_sig_resolve(lp->p, v->lhs);
  if (!c || c->kind != ND_NAME || !c->name || ir_import_path(lp, c->name) ||
      (strcmp(c->name, "set") && strcmp(c->name, "list") && strcmp(c->name, "tuple")))
    return v;
  const Node *a = v->args.data[0];
  if (a->kind == ND_NAME)
    a = ir_sig_resolve(lp->p, a);
  return is_seq(a) ? a : v;
}

bool ir_parse_link(LowerProg *lp, const Node *v, IrLinkVec *out) {
  if (v && v->kind == ND_NAME) { /* LINK = ['a.cu'] held in a module variable */
    const Node *r = ir_sig_resolve(lp->p, v);
    if (is_seq(r) || collection_call(lp, r) != r)
      v = r;
  }
  v = collection_call(lp, v);
  int n = is_seq(v) ? v->args.len : 1;
  for (int i = 0; i < n; i++) {
    const Node *s = is_seq(v) ? v->args.data[i] : v;
    const char *name = NULL, *src = cu_source(lp, s, &name);
    if (src) {
      IrLink l = {name, src, s->loc};
      vec_push(lp->a, out, l);
      continue;
    }
    if (s && s->kind == ND_NAME)
      s = ir_sig_resolve(lp->p, s);
    if (!s || s->kind != ND_STR || !s->str || s->fstring || s->bytes || !s->str[0]) {
      diag_error(lp->d, E_LINK, s ? s->loc : (SrcLoc){0},
                 "write the files as string literals, link=['functions.cu'], or inline "
                 "source as cuda.CUSource(\"...\")",
                 "link= takes a list of file names");
      return false;
    }
    IrLink l = {s->str, NULL, s->loc};
    vec_push(lp->a, out, l);
  }
  return true;
}

static bool scalar_sig(LowerProg *lp, const Signature *sig, const Node *at) {
  char b[64];
  for (int i = 0; i < sig->nparams; i++) {
    if (sig->params[i]->kind == TY_PTR) /* CPointer(T): a T * in CUDA C */
      continue;
    if (!ty_is_number(sig->params[i]) || ty_is_complex(sig->params[i])) {
      diag_error(lp->d, E_LINK, at->loc,
                 "declare scalar parameters (bool, integers, float32, float64) or raw pointers "
                 "(CPointer(float32))",
                 "cuda.declare_device: parameter %d has type %s, which foreign calls do not support",
                 i + 1, ty_name(sig->params[i], b, sizeof b));
      return false;
    }
  }
  if (sig->ret && sig->ret != TY_VOID_T && (!ty_is_number(sig->ret) || ty_is_complex(sig->ret))) {
    diag_error(lp->d, E_LINK, at->loc, "declare a scalar return type, or void",
               "cuda.declare_device: return type %s is not supported", ty_name(sig->ret, b, sizeof b));
    return false;
  }
  return true;
}

static const Node *kwarg(const Node *call, const char *name) {
  for (int i = 0; i < call->args2.len; i++)
    if (call->args2.data[i]->name && strcmp(call->args2.data[i]->name, name) == 0)
      return call->args2.data[i]->lhs;
  return NULL;
}

/* [A-Za-z_][A-Za-z0-9_]*: the symbol goes into PTX as written. */
static bool is_c_identifier(const char *s) {
  if (!(isalpha((unsigned char)*s) || *s == '_'))
    return false;
  for (; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_'))
      return false;
  return true;
}

/* abi='numba' (the default) or abi='c'; false after an error. */
static bool parse_abi(LowerProg *lp, const Node *v, bool *c_abi) {
  if (v && v->kind == ND_STR && v->str && (strcmp(v->str, "c") == 0 || strcmp(v->str, "numba") == 0)) {
    *c_abi = v->str[0] == 'c';
    return true;
  }
  diag_error(lp->d, E_LINK, v->loc,
             "abi='numba' (the default): int f(T *ret, args...); abi='c': T f(args...)",
             "cuda.declare_device() abi must be 'numba' or 'c'");
  return false;
}

/* name = cuda.declare_device('symbol', 'ret(args)'[, link=[...]][, abi='c']) */
bool ir_declare_device(LowerProg *lp, const GlobalAssign *ga) {
  const Node *call = ga->value;
  const Node *sym = call->args.len > 0 ? call->args.data[0] : kwarg(call, "name");
  const Node *sg = call->args.len > 1 ? call->args.data[1] : kwarg(call, "sig");
  for (int i = 0; i < call->args2.len; i++) {
    const char *k = call->args2.data[i]->name;
    if (!k || (strcmp(k, "name") && strcmp(k, "sig") && strcmp(k, "link") && strcmp(k, "abi"))) {
      diag_error(lp->d, E_LINK, call->args2.data[i]->loc,
                 "pass the name, the signature, link= and abi=",
                 "cuda.declare_device() argument '%s' is not supported", k ? k : "**");
      return false;
    }
  }
  if (!sym || sym->kind != ND_STR || !sym->str || !sym->str[0] || !sg || call->args.len > 2) {
    diag_error(lp->d, E_LINK, call->loc,
               "write it as cuda.declare_device('mul_f32', 'float32(float32, float32)')",
               "cuda.declare_device() takes the function's C name and its signature");
    IrExtern bad = {.name = ga->name, .symbol = "?", .loc = ga->loc, .failed = true};
    vec_push(lp->a, &lp->p->externs, bad);
    return false;
  }
  if (!is_c_identifier(sym->str)) {
    diag_error(lp->d, E_LINK, sym->loc, "write the C name of an extern \"C\" function: letters, digits and _",
               "'%s' is not a C function name", sym->str);
    IrExtern bad = {.name = ga->name, .symbol = "?", .loc = ga->loc, .failed = true};
    vec_push(lp->a, &lp->p->externs, bad);
    return false;
  }
  IrExtern e = {.name = ga->name, .symbol = sym->str, .loc = ga->loc};
  const Node *link = kwarg(call, "link"), *abi = kwarg(call, "abi");
  bool ok = (!abi || parse_abi(lp, abi, &e.c_abi)) && ir_signature_from_ast(lp->p, sg, &e.sig, lp->d);
  if (ok && !e.sig.ret) {
    diag_error(lp->d, E_LINK, sg->loc, "write the return type: 'float32(float32, float32)'",
               "cuda.declare_device() needs a signature with a return type");
    ok = false;
  }
  ok = ok && scalar_sig(lp, &e.sig, sg) && (!link || ir_parse_link(lp, link, &e.link));
  e.failed = !ok;
  vec_push(lp->a, &lp->p->externs, e); /* also when rejected: its uses say nothing more */
  return ok;
}

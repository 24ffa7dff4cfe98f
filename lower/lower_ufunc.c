/* lower_ufunc.c - @vectorize: the decorator, the scalar body check, and the
 * generic IR of the elementwise kernels that apply the function.
 *
 * A ufunc is a device function (is_device, is_ufunc) whose eager signatures
 * are scalar.  Its kernels are built here as IR, not as source text, so they
 * need no imports and point their diagnostics at the def: a contiguous
 * kernel (groups of `vec` elements per thread and grid-stride step, accesses
 * marked in bounds and aligned so codegen can issue vector loads) and a
 * general one (one element per step, indices unravelled from the linear
 * index).  Generated accesses carry ival > 0 (ops.h): no negative-index
 * wraparound, alignment max(ival, element size). */
#include "lower/lower_internal.h"
#include "lower/ufunc.h"

/* ------------------------------------------------------------ decorator -- */

static bool ufunc_error(LowerProg *lp, SrcLoc loc, const char *hint, const char *msg) {
  diag_error(lp->d, E_UFUNC, loc, hint, "%s", msg);
  return false;
}

/* target= names where the ufunc runs in Numba; kjit runs it on the target
 * of the context, so each is accepted. */
static bool vectorize_option(LowerProg *lp, IrFunc *f, const Node *kw) {
  static const char *const known[] = {"target", "identity", "nopython", "cache", "fastmath"};
  const char *k = kw->name;
  if (!k)
    return ufunc_error(lp, kw->loc, NULL, "**kwargs are not supported in a decorator");
  if (strcmp(k, "target") == 0) {
    const char *s = kw->lhs && kw->lhs->kind == ND_STR ? kw->lhs->str : NULL;
    if (s && (!strcmp(s, "cuda") || !strcmp(s, "cpu") || !strcmp(s, "parallel")))
      return true;
    return ufunc_error(lp, kw->lhs ? kw->lhs->loc : kw->loc,
                       "kjit runs the function on the target it launches on",
                       "target= must be \"cuda\", \"cpu\" or \"parallel\"");
  }
  if (strcmp(k, "fastmath") == 0) {
    f->opts.fastmath = kw->lhs && kw->lhs->kind == ND_BOOL && kw->lhs->ival;
    return true;
  }
  for (size_t i = 1; i < sizeof known / sizeof *known; i++)
    if (strcmp(k, known[i]) == 0)
      return true;                     /* accepted, no effect on the GPU */
  const char *near = ir_closest(k, known, (int)(sizeof known / sizeof *known));
  diag_error(lp->d, E_OPTION, kw->loc, near ? arena_printf(lp->a, "did you mean '%s'?", near) : NULL,
             "unknown option '%s' for @vectorize", k);
  return false;
}

static bool is_scalar_type(const Type *t) { return t && ty_is_number(t); }

/* One signature "float32(float32, float32)": scalars, one per parameter. */
static bool vectorize_signature(LowerProg *lp, IrFunc *f, const Func *fn, const Node *n) {
  Signature sig = {0};
  if (!ir_signature_from_ast(lp->p, n, &sig, lp->d))
    return false;
  sig.loc = n->loc;
  if (sig.nparams != fn->params.len)
    return ufunc_error(lp, n->loc, arena_printf(lp->a, "'%s' has %d parameter%s", fn->name,
                                                fn->params.len, fn->params.len == 1 ? "" : "s"),
                       arena_printf(lp->a, "signature has %d argument%s; the function takes %d",
                                    sig.nparams, sig.nparams == 1 ? "" : "s", fn->params.len));
  bool ok = is_scalar_type(sig.ret);
  for (int i = 0; ok && i < sig.nparams; i++)
    ok = is_scalar_type(sig.params[i]);
  if (!ok)
    return ufunc_error(lp, n->loc, "write the signature of one element: \"float32(float32, float32)\"",
                       "@vectorize signatures take and return scalar types");
  vec_push(lp->a, &f->eager, sig);
  return true;
}

static bool vectorize_signatures(LowerProg *lp, IrFunc *f, const Func *fn, const Node *n) {
  if (n->kind != ND_LIST && n->kind != ND_TUPLE)
    return vectorize_signature(lp, f, fn, n);
  bool ok = true;
  for (int i = 0; i < n->args.len; i++)
    if (n->args.data[i])
      ok = vectorize_signature(lp, f, fn, n->args.data[i]) && ok;
  return ok;
}

/* The first subscript in n (a scalar function has none), or NULL. */
static const Node *find_subscript(const Node *n);

static const Node *find_in_list(const NodeList *l) {
  for (int i = 0; i < l->len; i++) {
    const Node *s = find_subscript(l->data[i]);
    if (s)
      return s;
  }
  return NULL;
}

static const Node *find_subscript(const Node *n) {
  if (!n)
    return NULL;
  if (n->kind == ND_SUBSCRIPT)
    return n;
  const Node *kids[] = {n->lhs, n->rhs, n->third, n->cond};
  for (size_t i = 0; i < sizeof kids / sizeof *kids; i++) {
    const Node *s = find_subscript(kids[i]);
    if (s)
      return s;
  }
  const Node *s = find_in_list(&n->args);
  if (!s) s = find_in_list(&n->args2);
  if (!s) s = find_in_list(&n->body);
  if (!s) s = find_in_list(&n->orelse);
  return s;
}

bool ir_lower_vectorize(LowerProg *lp, IrFunc *f, const Func *fn, const Node *d) {
  const char *path = ir_resolve_path(lp, NULL, d->kind == ND_CALL ? d->lhs : d);
  if (path && strcmp(path, "numba.cuda.vectorize") == 0)
    return ufunc_error(lp, d->loc, "import it from numba: `from numba import vectorize`, "
                       "then @vectorize([...], target=\"cuda\")",
                       "numba.cuda has no 'vectorize'");
  f->is_device = f->is_ufunc = true;
  f->is_kernel = false;
  bool ok = true;
  if (d->kind == ND_CALL) {
    if (d->args.len > 1)
      ok = ufunc_error(lp, d->args.data[1]->loc, "pass several signatures as a list",
                       "@vectorize takes at most one positional argument (a list of signatures)");
    else if (d->args.len == 1 && d->args.data[0])
      ok = vectorize_signatures(lp, f, fn, d->args.data[0]);
    for (int i = 0; i < d->args2.len; i++)
      if (d->args2.data[i])
        ok = vectorize_option(lp, f, d->args2.data[i]) && ok;
  }
  const Node *sub = find_in_list(&fn->body);
  if (sub)
    ok = ufunc_error(lp, sub->loc, "write the function for one element; kjit applies it to "
                     "every element (use @cuda.jit for kernels that index arrays)",
                     arena_printf(lp->a, "@vectorize function '%s' must work on scalars, "
                                  "but it indexes a value", fn->name));
  if (fn->params.len == 0)
    ok = ufunc_error(lp, fn->loc, NULL, "a @vectorize function takes at least one argument");
  return ok;
}

/* --------------------------------------------------------------- kernels -- */

/* The kernel being built: inputs are locals 0..nin-1, out is local nin. */
typedef struct UfuncGen {
  Lower L;
  IrFunc *uf;
  const UfuncShape *s;
  int nin;
  SrcLoc loc;
} UfuncGen;

static int reg64(UfuncGen *g, IrOp op) {
  int id = lower_emit0(&g->L, op, g->loc);
  lower_inst(&g->L, id)->ival = 0;
  return lower_cast(&g->L, id, TY_I64_T, g->loc);
}

static int cint(UfuncGen *g, int64_t v) { return lower_const_int(&g->L, v, g->loc); }

static int emit2(UfuncGen *g, IrOp op, int a, int b) { return lower_emit2(&g->L, op, g->loc, a, b); }

/* An access of array local `arr` at idx[0..n): trusted (in bounds, no
 * wraparound) and aligned to `align` bytes. */
static int load_elem(UfuncGen *g, int arr, const int *idx, int n, int align) {
  int ops[1 + UFUNC_MAX_NDIM];
  ops[0] = lower_load(&g->L, arr, g->loc);
  for (int k = 0; k < n; k++)
    ops[1 + k] = idx[k];
  int id = lower_emit(&g->L, OP_ARRAY_LOAD, g->loc, ops, n + 1);
  lower_inst(&g->L, id)->ival = align;
  return id;
}

static void store_elem(UfuncGen *g, int v, const int *idx, int n, int align) {
  int ops[2 + UFUNC_MAX_NDIM];
  ops[0] = lower_load(&g->L, g->nin, g->loc);
  ops[1] = v;
  for (int k = 0; k < n; k++)
    ops[2 + k] = idx[k];
  int id = lower_emit(&g->L, OP_ARRAY_STORE, g->loc, ops, n + 2);
  lower_inst(&g->L, id)->ival = align;
}

/* f(inputs) for already loaded inputs: converted to the signature's
 * parameter types, the result to its return type (eager ufuncs). */
static int apply(UfuncGen *g, int *in) {
  const Signature *sig = g->s->sig;
  for (int i = 0; sig && i < g->nin; i++)
    in[i] = lower_cast(&g->L, in[i], sig->params[i], g->loc);
  int id = lower_emit(&g->L, OP_CALL, g->loc, in, g->nin);
  lower_inst(&g->L, id)->callee = g->uf;
  return sig && sig->ret ? lower_cast(&g->L, id, sig->ret, g->loc) : id;
}

/* Each input at idx: an element of an array, or the scalar itself. */
static void load_inputs(UfuncGen *g, const int *idx, int n, int align, int *out) {
  for (int i = 0; i < g->nin; i++)
    out[i] = g->s->scalars & (1u << i) ? lower_load(&g->L, i, g->loc)
                                       : load_elem(g, i, idx, n, align);
}

/* while j < limit: body(j); j += step  -- returns the body's block, with
 * the builder in it and *j_out the loaded counter; finish with loop_end. */
typedef struct Loop { int j, head, exit, step; } Loop;

static int loop_begin(UfuncGen *g, Loop *lp, int start, int limit_local, int step) {
  lp->j = lower_temp(&g->L, g->loc);
  lp->step = step;
  lower_store(&g->L, lp->j, start, g->loc);
  lp->head = lower_new_block(&g->L);
  int body = lower_new_block(&g->L);
  lp->exit = lower_new_block(&g->L);
  lower_br(&g->L, lp->head, g->loc);
  lower_set_block(&g->L, lp->head);
  int j = lower_load(&g->L, lp->j, g->loc);
  lower_cbr(&g->L, emit2(g, OP_LT, j, lower_load(&g->L, limit_local, g->loc)), body, lp->exit, g->loc);
  lower_set_block(&g->L, body);
  return lower_load(&g->L, lp->j, g->loc);
}

static void loop_end(UfuncGen *g, Loop *lp, int j) {
  int next = emit2(g, OP_ADD, j, lower_load(&g->L, lp->step, g->loc));
  lower_inst(&g->L, next)->ival = 1;             /* a range counter: no wrap */
  lower_store(&g->L, lp->j, next, g->loc);
  lower_br(&g->L, lp->head, g->loc);
  lower_set_block(&g->L, lp->exit);
}

static int set_local(UfuncGen *g, int v) {
  int l = lower_temp(&g->L, g->loc);
  lower_store(&g->L, l, v, g->loc);
  return l;
}

/* Groups of vec elements: all loads of a group, then the calls, then the
 * stores, so the accesses of a group are adjacent and merge into vector
 * loads and stores.  Then one element per thread for the tail. */
static void contiguous_body(UfuncGen *g, int start, int step) {
  int vec = g->s->vec, n = set_local(g, lower_emit1(&g->L, OP_ARRAY_SIZE, g->loc,
                                                    lower_load(&g->L, g->nin, g->loc)));
  int groups = set_local(g, emit2(g, OP_FLOORDIV, lower_load(&g->L, n, g->loc), cint(g, vec)));
  Loop lp;
  int j = loop_begin(g, &lp, lower_load(&g->L, start, g->loc), groups, step);
  int base = emit2(g, OP_MUL, j, cint(g, vec)), idx[UFUNC_MAX_VEC];
  int vals[UFUNC_MAX_VEC][UFUNC_MAX_ARGS], res[UFUNC_MAX_VEC];
  for (int c = 0; c < vec; c++) {
    idx[c] = c ? emit2(g, OP_ADD, base, cint(g, c)) : base;
    load_inputs(g, &idx[c], 1, c ? 1 : g->s->align, vals[c]);
  }
  for (int c = 0; c < vec; c++)
    res[c] = apply(g, vals[c]);
  for (int c = 0; c < vec; c++)
    store_elem(g, res[c], &idx[c], 1, c ? 1 : g->s->align);
  loop_end(g, &lp, j);
  int t = emit2(g, OP_ADD, emit2(g, OP_MUL, lower_load(&g->L, groups, g->loc), cint(g, vec)),
                lower_load(&g->L, start, g->loc));
  int tail = lower_new_block(&g->L), done = lower_new_block(&g->L);
  int tl = set_local(g, t);
  lower_cbr(&g->L, emit2(g, OP_LT, lower_load(&g->L, tl, g->loc), lower_load(&g->L, n, g->loc)),
            tail, done, g->loc);
  lower_set_block(&g->L, tail);
  int ti = lower_load(&g->L, tl, g->loc), v[UFUNC_MAX_ARGS];
  load_inputs(g, &ti, 1, 1, v);
  store_elem(g, apply(g, v), &ti, 1, 1);
  lower_br(&g->L, done, g->loc);
  lower_set_block(&g->L, done);
}

/* One element per step: the linear index unravelled in C order over out's
 * shape (every input is a view of that shape, broadcast dims of stride 0). */
static void general_body(UfuncGen *g, int start, int step) {
  int nd = g->s->ndim;
  int n = set_local(g, lower_emit1(&g->L, OP_ARRAY_SIZE, g->loc, lower_load(&g->L, g->nin, g->loc)));
  Loop lp;
  int j = loop_begin(g, &lp, lower_load(&g->L, start, g->loc), n, step);
  int idx[UFUNC_MAX_NDIM], rest = j;
  for (int d = nd - 1; d > 0; d--) {
    int ext = lower_emit1(&g->L, OP_ARRAY_SHAPE, g->loc, lower_load(&g->L, g->nin, g->loc));
    lower_inst(&g->L, ext)->ival = d;
    idx[d] = emit2(g, OP_MOD, rest, ext);
    rest = emit2(g, OP_FLOORDIV, rest, ext);
  }
  idx[0] = rest;
  int v[UFUNC_MAX_ARGS];
  load_inputs(g, idx, nd, 1, v);
  store_elem(g, apply(g, v), idx, nd, 1);
  loop_end(g, &lp, j);
}

static void add_params(UfuncGen *g) {
  for (int i = 0; i < g->nin; i++)
    ir_local_new(g->L.a, g->L.f, g->uf->locals.data[i].name, g->loc);
  ir_local_new(g->L.a, g->L.f, "out", g->loc);
  g->L.f->nparams = g->nin + 1;
}

IrFunc *ir_ufunc_kernel(IrProgram *p, IrFunc *uf, const UfuncShape *s, const char *name) {
  LowerProg lp = {.p = p, .a = p->arena};
  UfuncGen g = {.uf = uf, .s = s, .nin = uf->nparams};
  g.loc = uf->ast ? uf->ast->loc : (SrcLoc){0};
  g.L = (Lower){.lp = &lp, .p = p, .a = p->arena, .f = ir_func_new(p->arena, name)};
  g.L.f->is_kernel = true;
  g.L.f->opts = uf->opts;
  add_params(&g);
  g.L.cur = lower_new_block(&g.L);
  int tid = reg64(&g, OP_THREAD_IDX), ntid = reg64(&g, OP_BLOCK_DIM);
  int start = emit2(&g, OP_ADD, tid, emit2(&g, OP_MUL, reg64(&g, OP_BLOCK_IDX), ntid));
  int step = emit2(&g, OP_MUL, reg64(&g, OP_BLOCK_DIM), reg64(&g, OP_GRID_DIM));
  int start_l = set_local(&g, start), step_l = set_local(&g, step);
  if (s->contiguous)
    contiguous_body(&g, start_l, step_l);
  else
    general_body(&g, start_l, step_l);
  lower_emit(&g.L, OP_RET, g.loc, NULL, 0);
  return g.L.f;
}

/* reduce.c - @cuda.reduce: checking the decorated def, and generating the
 * reduction kernels for one dtype.
 *
 * The kernels are kjit kernel source written from a template (the dtype
 * and the function's name filled in), parsed into the program's arena and
 * lowered with ir_lower_generated, so they are typed, cached and compiled
 * for either target like the user's own kernels.  Every intermediate value
 * is converted to the array's dtype, as Numba's reduction kernels keep
 * their partial results in arrays of that dtype. */
#include <string.h>

#include "frontend/ast.h"
#include "lower/lower_internal.h"
#include "lower/reduce.h"

/* ------------------------------------------------------ the decorated def */

bool ir_lower_reduce_def(LowerProg *lp, const Func *fn, const Node *d, IrFunc **out) {
  if (d->kind == ND_CALL) {
    diag_error(lp->d, E_REDUCE, d->loc, "write @cuda.reduce without parentheses",
               "@cuda.reduce takes no arguments");
    return false;
  }
  if (fn->params.len != 2) {
    diag_error(lp->d, E_REDUCE, fn->loc,
               "the reduction calls it on two values at a time, as f(a, b)",
               "a @cuda.reduce function takes two arguments ('%s' takes %d)", fn->name,
               fn->params.len);
    return false;
  }
  IrFunc *f = ir_func_new(lp->a, fn->name);
  f->ast = fn;
  f->is_device = true;
  f->is_reduce = true;
  *out = f;
  return true;
}

/* ------------------------------------------------------------- kernels -- */

bool ir_reduce_dtype_ok(const Type *t) {
  return t && (ty_is_int(t) || t->kind == TY_F32 || t->kind == TY_F64);
}

/* cuda.shfl_* move 32- and 64-bit values: narrower integers travel widened. */
static const char *shuffle_type(const Type *t) {
  switch (t->kind) {
  case TY_I8: case TY_I16: return "int32";
  case TY_U8: case TY_U16: return "uint32";
  default: return NULL;
  }
}

/* Pass 1 runs it over a grid (one partial per block), pass 2 as one block
 * over the partials with use_init.  A thread starts from its first element
 * (so no identity value is needed); threads past the end hold a copy of
 * a[n-1] that is never combined: valid lanes of a warp are a prefix, so a
 * shuffle's value is taken only from a lane below `valid`.  The main loop
 * loads eight elements of a grid-stride slice per step: with four, ptxas
 * combined the first pair before issuing the last two loads, so only two
 * were in flight (pass 1 was 16% slower than CUDA C on an H200).  What
 * the main loop leaves is fewer than eight steps of the slice: the tail
 * loads all seven candidates at once (clamped to a[n-1], so in bounds) and
 * folds those below n in order; as a loop, one load per trip, each thread
 * waited seven memory latencies at its end (the two passes were 7% slower
 * than CUDA C on an H200, whose tail loop nvcc unrolls four times). */
static const char cuda_template[] =
    "@cuda.jit\n"
    "def @F__kjit_reduce_cuda_@D(a, part, init, use_init):\n"
    "    n = a.size\n"
    "    tid = cuda.threadIdx.x\n"
    "    if n == 0:\n"
    "        if tid == 0:\n"
    "            part[0] = numba.@D(init)\n"
    "        return\n"
    "    lane = tid & 31\n"
    "    base = cuda.blockIdx.x * cuda.blockDim.x\n"
    "    i = base + tid\n"
    "    s = cuda.gridDim.x * cuda.blockDim.x\n"
    "    acc = numba.@D(a[min(i, n - 1)])\n"
    "    j0 = i + s\n"
    "    s8 = 8 * s\n"
    "    stop8 = n - 7 * s\n"
    "    for j in range(j0, stop8, s8):\n"
    "        x0 = a[j]\n"
    "        x1 = a[j + s]\n"
    "        x2 = a[j + 2 * s]\n"
    "        x3 = a[j + 3 * s]\n"
    "        x4 = a[j + 4 * s]\n"
    "        x5 = a[j + 5 * s]\n"
    "        x6 = a[j + 6 * s]\n"
    "        x7 = a[j + 7 * s]\n"
    "        x03 = numba.@D(@F(numba.@D(@F(x0, x1)), numba.@D(@F(x2, x3))))\n"
    "        x47 = numba.@D(@F(numba.@D(@F(x4, x5)), numba.@D(@F(x6, x7))))\n"
    "        acc = numba.@D(@F(acc, numba.@D(@F(x03, x47))))\n"
    "    jt = j0 + max(0, (stop8 - j0 + s8 - 1) // s8) * s8\n"
    "    for k in range(7):\n"
    "        j = jt + k * s\n"
    "        x = a[min(j, n - 1)]\n"
    "        if j < n:\n"
    "            acc = numba.@D(@F(acc, x))\n"
    "    valid = n - (i - lane)\n"
    "    off = 16\n"
    "    while off > 0:\n"
    "        o = numba.@D(cuda.shfl_down_sync(0xffffffff, numba.@S(acc), off))\n"
    "        if lane + off < valid:\n"
    "            acc = numba.@D(@F(acc, o))\n"
    "        off = off // 2\n"
    "    sm = cuda.shared.array(32, numba.@D)\n"
    "    if lane == 0 and valid > 0:\n"
    "        sm[tid >> 5] = acc\n"
    "    cuda.syncthreads()\n"
    "    if tid < 32:\n"
    "        nw = min((cuda.blockDim.x + 31) // 32, (n - base + 31) // 32)\n"
    "        acc = sm[min(lane, nw - 1)]\n"
    "        off = 16\n"
    "        while off > 0:\n"
    "            o = numba.@D(cuda.shfl_down_sync(0xffffffff, numba.@S(acc), off))\n"
    "            if lane + off < nw:\n"
    "                acc = numba.@D(@F(acc, o))\n"
    "            off = off // 2\n"
    "        if lane == 0:\n"
    "            if use_init:\n"
    "                acc = numba.@D(@F(acc, numba.@D(init)))\n"
    "            part[cuda.blockIdx.x] = acc\n";

/* The CPU executor runs blocks on its thread pool; each one-thread block
 * folds a contiguous chunk in order, and the partials are folded in order
 * by a second one-block launch, so the result does not depend on the
 * number of worker threads. */
static const char cpu_template[] =
    "@cuda.jit\n"
    "def @F__kjit_reduce_cpu_@D(a, part, init, use_init, chunk):\n"
    "    n = a.size\n"
    "    b = cuda.blockIdx.x\n"
    "    lo = b * chunk\n"
    "    hi = min(lo + chunk, n)\n"
    "    if lo >= hi:\n"
    "        part[b] = numba.@D(init)\n"
    "        return\n"
    "    acc = numba.@D(a[lo])\n"
    "    for j in range(lo + 1, hi):\n"
    "        acc = numba.@D(@F(acc, a[j]))\n"
    "    if use_init:\n"
    "        acc = numba.@D(@F(acc, numba.@D(init)))\n"
    "    part[b] = acc\n";

/* Appends template t with @F (the function), @D (the dtype) and @S (the
 * dtype shuffles travel in) filled in. */
static void expand(StrBuf *sb, const char *t, const char *f, const char *dt, const char *sh) {
  for (; *t; t++) {
    const char *v = NULL;
    if (t[0] == '@')
      v = t[1] == 'F' ? f : t[1] == 'D' ? dt : t[1] == 'S' ? sh : NULL;
    if (v) {
      sb_puts(sb, v);
      t++;
    } else {
      sb_putn(sb, t, 1);
    }
  }
}

/* The function's name as an identifier: a function of an imported module
 * ("pkg.ops.add", lower/modlink.h) is written "pkg_ops_add" in the template;
 * call_by_name then points the calls at the real name. */
static const char *template_name(Arena *a, const IrFunc *fn) {
  char *s = arena_strdup(a, fn->name);
  for (char *c = s; *c; c++)
    if (*c == '.')
      *c = '_';
  return s;
}

static void call_by_name(Node *n, const char *ident, const char *name) {
  if (!n)
    return;
  if (n->kind == ND_NAME && n->name && strcmp(n->name, ident) == 0)
    n->name = name;
  call_by_name(n->lhs, ident, name), call_by_name(n->rhs, ident, name);
  call_by_name(n->third, ident, name), call_by_name(n->cond, ident, name);
  NodeList *lists[] = {&n->args, &n->args2, &n->body, &n->orelse};
  for (int l = 0; l < 4; l++)
    for (int i = 0; i < lists[l]->len; i++)
      call_by_name(lists[l]->data[i], ident, name);
}

static const Source *template_source(IrProgram *p, const IrFunc *fn, const char *dt,
                                     const char *sh) {
  StrBuf sb;
  sb_init(&sb);
  sb_puts(&sb, "from numba import cuda\nimport numba\n\n\n");
  expand(&sb, cuda_template, template_name(p->arena, fn), dt, sh);
  sb_puts(&sb, "\n\n");
  expand(&sb, cpu_template, template_name(p->arena, fn), dt, sh);
  Source *src = arena_alloc(p->arena, sizeof *src);
  src->path = arena_printf(p->arena, "<@cuda.reduce %s, %s>", fn->name, dt);
  src->text = arena_strdup(p->arena, sb.data);
  src->len = sb.len;
  sb_free(&sb);
  return src;
}

bool ir_reduce_kernels(IrProgram *p, IrFunc *fn, const Type *dtype, Diags *d,
                       IrReduceKernels *out) {
  char dt[32];
  ty_name(dtype, dt, sizeof dt);
  if (!ir_reduce_dtype_ok(dtype)) {
    diag_error(d, E_REDUCE, fn->ast ? fn->ast->loc : (SrcLoc){0},
               "reduce an array of integers, float32 or float64",
               "@cuda.reduce function '%s' cannot reduce an array of %s", fn->name, dt);
    return false;
  }
  const char *sh = shuffle_type(dtype);
  const Source *src = template_source(p, fn, dt, sh ? sh : dt);
  int before = d->nerrors;
  Module *m = parse_module(p->arena, src, d);
  const char *ident = template_name(p->arena, fn);
  for (int i = 0; strcmp(ident, fn->name) != 0 && i < m->funcs.len; i++)
    for (int s = 0; s < m->funcs.data[i]->body.len; s++)
      call_by_name(m->funcs.data[i]->body.data[s], ident, fn->name);
  IrFunc *fns[2];
  int n = 0;
  if (d->nerrors != before || !ir_lower_generated(p, m, d, fns, 2, &n) || n != 2) {
    if (d->nerrors == before)
      diag_error(d, E_INTERNAL, (SrcLoc){0}, NULL, "the reduction kernels of '%s' did not lower", fn->name);
    return false;
  }
  out->cuda = fns[0];
  out->cpu = fns[1];
  return true;
}

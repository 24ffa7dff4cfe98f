/* test_infer.c - type inference (ir/infer*.c) on hand-built IR.
 *
 * The IR is built with ir/ir.c's helpers exactly as ir/lower.c would emit
 * it for the Python shown in each test's comment, so these tests run
 * without the frontend.  Each test checks result types, inserted
 * conversions, the mangled symbol, or the exact rendered diagnostic. */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "lower/lower.h"
#include "typing/typing.h"

#include "check.h"

typedef struct T {
  Arena arena;
  Diags d;
  IrProgram p;
  IrCompile c;
  Source src;
  IrFunc *f; /* function being built */
  int blk;   /* current block */
} T;

static void t_init(T *t, const char *text) {
  memset(t, 0, sizeof *t);
  arena_init(&t->arena);
  diags_init(&t->d, &t->arena);
  t->p.arena = &t->arena;
  t->p.types = ty_table_new(&t->arena);
  t->c.prog = &t->p;
  t->c.arena = &t->arena;
  t->c.diags = &t->d;
  t->src = (Source){"k.py", text, strlen(text)};
}

static void t_free(T *t) { arena_destroy(&t->arena); }

static SrcLoc L(T *t, int line, int col, int len) { return (SrcLoc){&t->src, line, col, len}; }

static IrFunc *t_func(T *t, const char *name, int nparams, const char *const *pnames, bool kernel) {
  IrFunc *f = ir_func_new(&t->arena, name);
  f->is_kernel = kernel;
  f->is_device = !kernel;
  for (int i = 0; i < nparams; i++)
    ir_local_new(&t->arena, f, pnames[i], L(t, 1, 1, 1));
  f->nparams = nparams;
  t->f = f;
  t->blk = ir_block_new(&t->arena, f);
  return f;
}

static int E(T *t, IrOp op, int line, int n, ...) {
  int args[8];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++)
    args[i] = va_arg(ap, int);
  va_end(ap);
  return ir_emit(&t->arena, t->f, t->blk, op, L(t, line, 5, 3), args, n);
}

static int cint(T *t, int64_t v) {
  int i = E(t, OP_CONST_INT, 1, 0);
  t->f->insts.data[i].ival = v;
  t->f->insts.data[i].type = TY_I64_T;
  return i;
}

static int cfloat(T *t, double v) {
  int i = E(t, OP_CONST_FLOAT, 1, 0);
  t->f->insts.data[i].fval = v;
  t->f->insts.data[i].type = TY_F64_T;
  return i;
}

static int load(T *t, int local, int line) {
  int i = E(t, OP_LOAD, line, 0);
  t->f->insts.data[i].local = local;
  return i;
}

static int store(T *t, int local, int v, int line) {
  int i = E(t, OP_STORE, line, 1, v);
  t->f->insts.data[i].local = local;
  return i;
}

static void br(T *t, int target) {
  int i = E(t, OP_BR, 1, 0);
  t->f->insts.data[i].target = target;
}

static void cbr(T *t, int cond, int a, int b) {
  int i = E(t, OP_CBR, 1, 1, cond);
  t->f->insts.data[i].target = a;
  t->f->insts.data[i].target2 = b;
}

static const char *tn(const Type *ty) {
  static char buf[4][128]; /* test-only scratch */
  static int k;
  k = (k + 1) % 4;
  return ty ? ty_name(ty, buf[k], 128) : "NULL";
}

static char *render(T *t) {
  static char out[4096];
  StrBuf sb;
  sb_init(&sb);
  diags_render(&t->d, &sb);
  snprintf(out, sizeof out, "%s", sb.data ? sb.data : "");
  sb_free(&sb);
  return out;
}

/* Every operand of every reachable op has the type the op needs: spot
 * checks via the operands' own types. */
static const Type *arg_type(const IrFunc *f, int inst, int k) {
  return f->insts.data[f->insts.data[inst].args[k]].type;
}

/* Find the n-th instruction with op in the typed function's blocks. */
static int find_op(const IrFunc *f, IrOp op, int nth) {
  for (int b = 0; b < f->blocks.len; b++)
    for (int k = 0; k < f->blocks.data[b].insts.len; k++) {
      int i = f->blocks.data[b].insts.data[k];
      if (f->insts.data[i].op == op && nth-- == 0)
        return i;
    }
  return -1;
}

/* def add(a, b, c):
 *     i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
 *     if i < c.shape[0]:
 *         c[i] = a[i] + b[i]                                                 */
static void test_vector_add(void) {
  T t;
  t_init(&t, "def add(a, b, c):\n    i = ...\n    if i < c.shape[0]:\n        c[i] = a[i] + b[i]\n");
  const char *names[] = {"a", "b", "c"};
  IrFunc *g = t_func(&t, "add_kernel", 3, names, true);
  int li = ir_local_new(&t.arena, g, "i", L(&t, 2, 5, 1));
  int b1 = ir_block_new(&t.arena, g), b2 = ir_block_new(&t.arena, g);
  int tid = E(&t, OP_THREAD_IDX, 2, 0), bid = E(&t, OP_BLOCK_IDX, 2, 0), bd = E(&t, OP_BLOCK_DIM, 2, 0);
  store(&t, li, E(&t, OP_ADD, 2, 2, tid, E(&t, OP_MUL, 2, 2, bid, bd)), 2);
  int sh = E(&t, OP_ARRAY_SHAPE, 3, 1, load(&t, 2, 3));
  g->insts.data[sh].ival = 0;
  cbr(&t, E(&t, OP_LT, 3, 2, load(&t, li, 3), sh), b1, b2);
  t.blk = b1;
  int x = E(&t, OP_ARRAY_LOAD, 4, 2, load(&t, 0, 4), load(&t, li, 4));
  int y = E(&t, OP_ARRAY_LOAD, 4, 2, load(&t, 1, 4), load(&t, li, 4));
  int s = E(&t, OP_ADD, 4, 2, x, y);
  E(&t, OP_ARRAY_STORE, 4, 3, load(&t, 2, 4), s, load(&t, li, 4));
  br(&t, b2);
  t.blk = b2;
  E(&t, OP_RET, 5, 0);

  const Type *arr = ty_array(t.p.types, TY_F32_T, 1, LAYOUT_C);
  const Type *args[3] = {arr, arr, arr};
  IrFunc *f = ir_specialize(&t.c, g, args, 3, (SrcLoc){0});
  CHECK(f && f->typed, "vector add typed: %s", render(&t));
  if (!f)
    return t_free(&t);
  CHECK(strcmp(f->symbol, "add_kernel__a1Cf32_a1Cf32_a1Cf32") == 0, "symbol %s", f->symbol);
  CHECK(f->ret_type == TY_VOID_T, "ret %s", tn(f->ret_type));
  CHECK(f->locals.data[li].type == TY_I64_T, "i is %s", tn(f->locals.data[li].type));
  int mul = find_op(f, OP_MUL, 0);
  CHECK(f->insts.data[mul].type == TY_I64_T && arg_type(f, mul, 0) == TY_I64_T &&
        arg_type(f, mul, 1) == TY_I64_T, "int32*int32 -> int64 with casts");
  int add = find_op(f, OP_ADD, 1);
  CHECK(f->insts.data[add].type == TY_F32_T, "f32+f32 is %s", tn(f->insts.data[add].type));
  int ld = find_op(f, OP_ARRAY_LOAD, 0);
  CHECK(arg_type(f, ld, 1) == TY_I64_T, "index int64");
  CHECK(t.c.funcs.len == 1 && t.c.funcs.data[0] == f, "funcs");
  /* memo */
  CHECK(ir_specialize(&t.c, g, args, 3, (SrcLoc){0}) == f, "memoized");
  const Type *args2[3] = {arr, arr, ty_array(t.p.types, TY_F32_T, 1, LAYOUT_A)};
  IrFunc *f2 = ir_specialize(&t.c, g, args2, 3, (SrcLoc){0});
  CHECK(f2 && f2 != f && t.c.funcs.len == 2, "second specialization");
  CHECK(f2 && strcmp(f2->symbol, "add_kernel__a1Cf32_a1Cf32_a1Af32") == 0, "symbol2");
  /* argument count */
  IrFunc *bad = ir_specialize(&t.c, g, args, 2, (SrcLoc){0});
  CHECK(!bad && strcmp(render(&t), "kjit: error[E306]: 'add_kernel' takes 3 arguments but 2 were given\n") == 0,
        "nargs: %s", render(&t));
  t_free(&t);
}

/* def k(a, n):           line 1
 *     x = 0              line 2
 *     i = 0              line 3
 *     while i < n:       line 4
 *         x = x + 0.5    line 5
 *         i += 1         line 6
 *     a[0] = x           line 7                                             */
static void test_loop_unify(void) {
  T t;
  t_init(&t, "def k(a, n):\n    x = 0\n    i = 0\n    while i < n:\n        x = x + 0.5\n"
             "        i += 1\n    a[0] = x\n");
  const char *names[] = {"a", "n"};
  IrFunc *g = t_func(&t, "k", 2, names, true);
  int lx = ir_local_new(&t.arena, g, "x", L(&t, 2, 5, 1));
  int li = ir_local_new(&t.arena, g, "i", L(&t, 3, 5, 1));
  int head = ir_block_new(&t.arena, g), body = ir_block_new(&t.arena, g),
      exit = ir_block_new(&t.arena, g);
  store(&t, lx, cint(&t, 0), 2);
  store(&t, li, cint(&t, 0), 3);
  br(&t, head);
  t.blk = head;
  cbr(&t, E(&t, OP_LT, 4, 2, load(&t, li, 4), load(&t, 1, 4)), body, exit);
  t.blk = body;
  store(&t, lx, E(&t, OP_ADD, 5, 2, load(&t, lx, 5), cfloat(&t, 0.5)), 5);
  store(&t, li, E(&t, OP_ADD, 6, 2, load(&t, li, 6), cint(&t, 1)), 6);
  br(&t, head);
  t.blk = exit;
  E(&t, OP_ARRAY_STORE, 7, 3, load(&t, 0, 7), load(&t, lx, 7), cint(&t, 0));
  E(&t, OP_RET, 7, 0);
  /* an unreachable block with an ill-typed op must not matter */
  int dead = ir_block_new(&t.arena, g);
  t.blk = dead;
  E(&t, OP_ADD, 8, 2, load(&t, 0, 8), cint(&t, 1));
  E(&t, OP_RET, 8, 0);

  const Type *args[2] = {ty_array(t.p.types, TY_I32_T, 1, LAYOUT_C), TY_I32_T};
  IrFunc *f = ir_specialize(&t.c, g, args, 2, (SrcLoc){0});
  CHECK(f, "loop typed: %s", render(&t));
  if (!f)
    return t_free(&t);
  /* Numba's SSA: `x = 0` is its own int64 definition; the x read in the
   * loop and after it joins both assignments (a phi), float64 */
  CHECK(f->locals.data[lx].type == TY_I64_T, "x = 0 is %s", tn(f->locals.data[lx].type));
  CHECK(f->locals.data[li].type == TY_I64_T, "i is %s", tn(f->locals.data[li].type));
  /* x = 0 also stores into the join, converted to float64 */
  int st = find_op(f, OP_STORE, 1);
  CHECK(arg_type(f, st, 0) == TY_F64_T, "x = 0 joined as %s", tn(arg_type(f, st, 0)));
  /* a[0] = x: value cast to int32, index int64; x read is the float64 join */
  int as = find_op(f, OP_ARRAY_STORE, 0);
  const Inst *cv = as >= 0 ? &f->insts.data[f->insts.data[as].args[1]] : NULL;
  const Inst *ldx = cv && cv->op == OP_CAST ? &f->insts.data[cv->args[0]] : cv;
  CHECK(ldx && ldx->op == OP_LOAD && f->locals.data[ldx->local].type == TY_F64_T,
        "x after the loop is not the float64 join");
  CHECK(arg_type(f, as, 1) == TY_I32_T && arg_type(f, as, 2) == TY_I64_T, "array store casts");
  /* i < n: int64 vs int32 compares as int64 */
  int lt = find_op(f, OP_LT, 0);
  CHECK(arg_type(f, lt, 1) == TY_I64_T, "cmp operand %s", tn(arg_type(f, lt, 1)));
  CHECK(strcmp(f->symbol, "k__a1Ci32_i32") == 0, "symbol %s", f->symbol);
  t_free(&t);
}

/* def k(a):                  line 1
 *     x = 0                  line 2
 *     x = a                  line 3  (re-bound, no join: fine, as in Numba)
 *     y = z                  line 4  (z assigned nowhere)                  */
static void test_errors(void) {
  T t;
  t_init(&t, "def k(a):\n    x = 0\n    x = a\n    y = z\n");
  const char *names[] = {"a"};
  IrFunc *g = t_func(&t, "k", 1, names, true);
  int lx = ir_local_new(&t.arena, g, "x", L(&t, 2, 5, 1));
  int ly = ir_local_new(&t.arena, g, "y", L(&t, 4, 5, 1));
  int lz = ir_local_new(&t.arena, g, "z", L(&t, 4, 9, 1));
  store(&t, lx, cint(&t, 0), 2);
  store(&t, lx, load(&t, 0, 3), 3);
  store(&t, ly, load(&t, lz, 4), 4);
  E(&t, OP_RET, 4, 0);
  const Type *args[1] = {ty_array(t.p.types, TY_F32_T, 1, LAYOUT_C)};
  IrFunc *f = ir_specialize(&t.c, g, args, 1, (SrcLoc){0});
  CHECK(!f, "errors expected");
  const char *want =
      "k.py:4:5: error[E304]: local variable 'z' referenced before assignment\n"
      "    y = z\n"
      "    ^~~\n";
  CHECK(strcmp(render(&t), want) == 0, "got:\n%s", render(&t));
  t_free(&t);
}

/* Operator, index and atomic errors, each in its own kernel k(a): */
static void expect_error(IrOp op, int n, int64_t ival, const Type *argt, const char *want,
                         int what) {
  T t;
  t_init(&t, "def k(a):\n    bad\n");
  const char *names[] = {"a"};
  IrFunc *g = t_func(&t, "k", 1, names, true);
  int a = load(&t, 0, 2);
  int i;
  if (what == 0) { /* binary op with an int literal */
    i = E(&t, op, 2, 2, cint(&t, 1), a);
  } else if (what == 1) { /* index with n float indices */
    int idx[3];
    for (int k = 0; k < n; k++)
      idx[k] = k < n ? cfloat(&t, 1.0) : 0;
    i = n == 1 ? E(&t, op, 2, 2, a, idx[0]) : E(&t, op, 2, 1, a);
  } else if (what == 2) { /* index with n int indices */
    i = n == 1 ? E(&t, op, 2, 2, a, cint(&t, 0)) : E(&t, op, 2, 3, a, cint(&t, 0), cint(&t, 1));
  } else { /* atomic */
    i = E(&t, op, 2, 3, a, cint(&t, 0), cint(&t, 1));
  }
  g->insts.data[i].ival = ival;
  E(&t, OP_RET, 2, 0);
  const Type *args[1] = {argt};
  IrFunc *f = ir_specialize(&t.c, g, args, 1, (SrcLoc){0});
  CHECK(!f && strstr(render(&t), want), "want '%s', got:\n%s", want, render(&t));
  t_free(&t);
}

static void test_op_errors(void) {
  T t;
  t_init(&t, "");
  const Type *a1 = ty_array(t.p.types, TY_F32_T, 1, LAYOUT_C);
  const Type *a2 = ty_array(t.p.types, TY_F32_T, 2, LAYOUT_C);
  expect_error(OP_ADD, 2, 0, a1,
               "error[E302]: unsupported operand types for +: 'int64' and 'array(float32, 1d, C)'", 0);
  expect_error(OP_ARRAY_LOAD, 1, 0, TY_I64_T, "error[E303]: cannot index int64", 2);
  expect_error(OP_ARRAY_LOAD, 1, 0, a1, "error[E303]: array index must be an integer, not float64", 1);
  expect_error(OP_ARRAY_LOAD, 2, 0, a1, "error[E303]: array(float32, 1d, C) needs 1 index, got 2", 2);
  expect_error(OP_ARRAY_STORE, 2, 0, a2,
               "error[E303]: assigning to a whole view of array(float32, 2d, C) is not supported", 2);
  expect_error(OP_ATOMIC, 3, AK_INC, a1,
               "error[E309]: cuda.atomic.inc does not support array(float32, 1d, C)", 3);
  t_free(&t);
}

/* @cuda.jit(device=True)
 * def f(x, y):      line 1
 *     return x + y  line 2
 * kernel k(a, n):   line 3
 *     a[0] = f(n, 1)  line 4                                               */
static void test_call(void) {
  T t;
  t_init(&t, "def f(x, y):\n    return x + y\ndef k(a, n):\n    a[0] = f(n, 1)\n");
  const char *fn[] = {"x", "y"};
  IrFunc *dev = t_func(&t, "f", 2, fn, false);
  E(&t, OP_RET, 2, 1, E(&t, OP_ADD, 2, 2, load(&t, 0, 2), load(&t, 1, 2)));
  const char *kn[] = {"a", "n"};
  IrFunc *g = t_func(&t, "k", 2, kn, true);
  int call = E(&t, OP_CALL, 4, 2, load(&t, 1, 4), cint(&t, 1));
  g->insts.data[call].callee = dev;
  E(&t, OP_ARRAY_STORE, 4, 3, load(&t, 0, 4), call, cint(&t, 0));
  E(&t, OP_RET, 4, 0);
  const Type *args[2] = {ty_array(t.p.types, TY_F64_T, 1, LAYOUT_A), TY_I32_T};
  IrFunc *f = ir_specialize(&t.c, g, args, 2, (SrcLoc){0});
  CHECK(f, "call typed: %s", render(&t));
  if (!f)
    return t_free(&t);
  CHECK(t.c.funcs.len == 2 && t.c.funcs.data[0] == f, "entry first, callee second");
  IrFunc *spec = t.c.funcs.data[1];
  CHECK(spec->typed && spec->ret_type == TY_I64_T, "device ret %s", tn(spec->ret_type));
  CHECK(strcmp(spec->symbol, "f__i32_i64") == 0, "callee symbol %s", spec->symbol);
  int c = find_op(f, OP_CALL, 0);
  CHECK(f->insts.data[c].callee == spec, "call points at the specialization");
  int ret = find_op(spec, OP_RET, 0);
  CHECK(arg_type(spec, ret, 0) == TY_I64_T, "return value typed");
  t_free(&t);
}

/* def f(x):          line 1
 *     return f(x)    line 2      (every path recurses: Numba's runaway)    */
static void test_recursion(void) {
  T t;
  t_init(&t, "def f(x):\n    return f(x)\n");
  const char *fn[] = {"x"};
  IrFunc *dev = t_func(&t, "f", 1, fn, false);
  int call = E(&t, OP_CALL, 2, 1, load(&t, 0, 2));
  dev->insts.data[call].callee = dev;
  E(&t, OP_RET, 2, 1, call);
  const Type *args[1] = {TY_I64_T};
  IrFunc *f = ir_specialize(&t.c, dev, args, 1, (SrcLoc){0});
  const char *want = "k.py:2:5: error[E305]: cannot type infer runaway recursion of 'f'\n"
                     "    return f(x)\n"
                     "    ^~~\n"
                     "hint: some path of the function must return without calling itself, or "
                     "give it an explicit signature\n";
  CHECK(!f && strcmp(render(&t), want) == 0, "got:\n%s", render(&t));
  t_free(&t);
}

/* def k(a):  a[0] = x if c else 1 ... kernel returning a value           */
static void test_kernel_return(void) {
  T t;
  t_init(&t, "def k(a):\n    return 1\n");
  const char *fn[] = {"a"};
  IrFunc *g = t_func(&t, "k", 1, fn, true);
  E(&t, OP_RET, 2, 1, cint(&t, 1));
  const Type *args[1] = {TY_I64_T};
  IrFunc *f = ir_specialize(&t.c, g, args, 1, (SrcLoc){0});
  CHECK(!f && strstr(render(&t), "error[E308]: kernel 'k' cannot return a value (got int64)") &&
            strstr(render(&t), "hint: Numba kernels cannot return a value; write to an output array"),
        "got:\n%s", render(&t));
  t_free(&t);
}

/* Parameter reassigned with a wider type keeps its ABI type. */
static void test_param_shadow(void) {
  T t;
  t_init(&t, "def f(x):\n    x = x * 0.5\n    return x\n");
  const char *fn[] = {"x"};
  IrFunc *dev = t_func(&t, "f", 1, fn, false);
  store(&t, 0, E(&t, OP_MUL, 2, 2, load(&t, 0, 2), cfloat(&t, 0.5)), 2);
  E(&t, OP_RET, 3, 1, load(&t, 0, 3));
  const Type *args[1] = {TY_I32_T};
  IrFunc *f = ir_specialize(&t.c, dev, args, 1, (SrcLoc){0});
  CHECK(f && f->locals.data[0].type == TY_I32_T && f->ret_type == TY_F64_T, "shadow: %s",
        render(&t));
  t_free(&t);
}

/* Intrinsics: math.sqrt(int) is float64, floor(float32) float32, round -> int64. */
static void test_intrinsics(void) {
  T t;
  t_init(&t, "def f(x, y):\n    return ...\n");
  const char *fn[] = {"x", "y"};
  IrFunc *dev = t_func(&t, "f", 2, fn, false);
  int sq = E(&t, OP_INTRINSIC, 2, 1, load(&t, 0, 2));
  dev->insts.data[sq].ival = IN_SQRT;
  int fl = E(&t, OP_INTRINSIC, 2, 1, load(&t, 1, 2));
  dev->insts.data[fl].ival = IN_FLOOR;
  int rd = E(&t, OP_INTRINSIC, 2, 1, fl);
  dev->insts.data[rd].ival = IN_ROUND;
  int mx = E(&t, OP_INTRINSIC, 2, 2, load(&t, 0, 2), load(&t, 1, 2));
  dev->insts.data[mx].ival = IN_MAX;
  int tup = E(&t, OP_TUPLE, 2, 4, sq, fl, rd, mx);
  E(&t, OP_RET, 2, 1, tup);
  const Type *args[2] = {TY_I32_T, TY_F32_T};
  IrFunc *f = ir_specialize(&t.c, dev, args, 2, (SrcLoc){0});
  CHECK(f, "intrinsics: %s", render(&t));
  if (f)
    CHECK(strcmp(tn(f->ret_type), "Tuple(float64, float32, int64, float64)") == 0, "got %s",
          tn(f->ret_type));
  t_free(&t);
}

/* One view of k's array a, its positions spelled by `pos`: 'i' an integer,
 * 's' a slice without a step (a[1:]), 'S' one with a step (a[::2]). */
static void expect_view(const Type *argt, const char *pos, const char *want) {
  T t;
  t_init(&t, "def k(a):\n    v = a[...]\n");
  const char *names[] = {"a"};
  IrFunc *g = t_func(&t, "k", 1, names, true);
  int args[16], n = 0;
  int64_t mask = 0;
  args[n++] = load(&t, 0, 2);
  for (int p = 0; pos[p]; p++) {
    if (pos[p] == 'i') {
      args[n++] = cint(&t, 0);
      continue;
    }
    mask |= 1 << p;
    for (int j = 0; j < 3; j++) {
      if (j == 2 && pos[p] == 'S') {
        args[n++] = cint(&t, 2);
        continue;
      }
      args[n] = E(&t, OP_CONST_NONE, 2, 0);
      t.f->insts.data[args[n++]].type = TY_NONE_T;
    }
  }
  int v = ir_emit(&t.arena, g, t.blk, OP_ARRAY_VIEW, L(&t, 2, 9, 6), args, n);
  g->insts.data[v].ival = mask;
  E(&t, OP_RET, 2, 0);
  const Type *at[1] = {argt};
  IrFunc *f = ir_specialize(&t.c, g, at, 1, (SrcLoc){0});
  char buf[128] = "(failed)";
  for (int i = 0; f && i < f->insts.len; i++)
    if (f->insts.data[i].op == OP_ARRAY_VIEW)
      ty_name(f->insts.data[i].type, buf, sizeof buf);
  CHECK(f && strcmp(buf, want) == 0, "a[%s] of a %s array: want %s, got %s\n%s", pos,
        argt->layout == LAYOUT_C ? "C" : "A", want, buf, render(&t));
  t_free(&t);
}

/* Numba 0.68's layout rule (numba/core/typing/arraydecl.py,
 * get_array_index_type): integers keep a C array C; a slice keeps it only
 * as the last index written and without a step; any view of A is A. */
static void test_views(void) {
  T t;
  t_init(&t, "");
  const Type *c1 = ty_array(t.p.types, TY_F32_T, 1, LAYOUT_C);
  const Type *c2 = ty_array(t.p.types, TY_F32_T, 2, LAYOUT_C);
  const Type *c3 = ty_array(t.p.types, TY_F32_T, 3, LAYOUT_C);
  const Type *a2 = ty_array(t.p.types, TY_F32_T, 2, LAYOUT_A);
  expect_view(c2, "i", "array(float32, 1d, C)");   /* a[i] */
  expect_view(c3, "i", "array(float32, 2d, C)");   /* a[i] */
  expect_view(c3, "ii", "array(float32, 1d, C)");  /* a[i, j] */
  expect_view(c1, "s", "array(float32, 1d, C)");   /* a[1:] */
  expect_view(c1, "S", "array(float32, 1d, A)");   /* a[::2], a[::1] */
  expect_view(c2, "s", "array(float32, 2d, C)");   /* a[1:] */
  expect_view(c2, "ss", "array(float32, 2d, A)");  /* a[1:, :] */
  expect_view(c2, "si", "array(float32, 1d, A)");  /* a[:, j] */
  expect_view(c2, "is", "array(float32, 1d, C)");  /* a[i, :] */
  expect_view(c2, "iS", "array(float32, 1d, A)");  /* a[i, ::-1] */
  expect_view(c3, "is", "array(float32, 2d, C)");  /* a[i, 1:] */
  expect_view(a2, "i", "array(float32, 1d, A)");   /* a[i] of A */
  expect_view(a2, "is", "array(float32, 1d, A)");  /* a[i, :] of A */
  t_free(&t);
}

int main(void) {
  test_vector_add();
  test_loop_unify();
  test_errors();
  test_op_errors();
  test_call();
  test_recursion();
  test_kernel_return();
  test_param_shadow();
  test_intrinsics();
  test_views();
  printf("test_infer: %d passed, %d failed\n", checks - failures, failures);
  return failures ? 1 : 0;
}

/* test_codegen.c - codegen unit tests: typed IR built by hand -> LLVM IR / PTX.
 *
 * Builds small kernels with ir/ir.c helpers (vector add, shared memory with
 * barriers and atomics, device function calls, libdevice math, Python
 * arithmetic), checks key substrings of the LLVM IR and PTX, and assembles
 * every PTX with ptxas for sm_80 and sm_90 (skipped with a message when the
 * CUDA toolkit is absent).  `test_codegen --bench` also prints timings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "codegen/codegen.h"
#include "ir/ir.h"

#ifndef KJIT_PTXAS
#define KJIT_PTXAS "/usr/local/cuda/bin/ptxas"
#endif

#include "check.h"

/* Types of our own (compared by kind in codegen), so this test does not
 * depend on ir/type.c's tables. */
static const Type T_VOID = {.kind = TY_VOID}, T_BOOL = {.kind = TY_BOOL}, T_I32 = {.kind = TY_I32},
                  T_I64 = {.kind = TY_I64}, T_U32 = {.kind = TY_U32}, T_F32 = {.kind = TY_F32},
                  T_F64 = {.kind = TY_F64};
static const Type A_F32C = {.kind = TY_ARRAY, .elem = &T_F32, .ndim = 1, .layout = LAYOUT_C};
static const Type A_F32A = {.kind = TY_ARRAY, .elem = &T_F32, .ndim = 1, .layout = LAYOUT_A};
static const Type A_I32C = {.kind = TY_ARRAY, .elem = &T_I32, .ndim = 1, .layout = LAYOUT_C};
static const Type A_F64A2 = {.kind = TY_ARRAY, .elem = &T_F64, .ndim = 2, .layout = LAYOUT_A};
static const Type A_F32C2 = {.kind = TY_ARRAY, .elem = &T_F32, .ndim = 2, .layout = LAYOUT_C};
static const Type A_BOOLC = {.kind = TY_ARRAY, .elem = &T_BOOL, .ndim = 1, .layout = LAYOUT_C};

static Arena arena;

/* ------------------------------------------------------ IR building ---- */

typedef struct B {
  IrFunc *f;
  int blk;
} B;

static int emit(B *b, IrOp op, const Type *t, int n, const int *args) {
  int i = ir_emit(&arena, b->f, b->blk, op, (SrcLoc){0}, args, n);
  b->f->insts.data[i].type = t;
  return i;
}
static int e0(B *b, IrOp op, const Type *t) { return emit(b, op, t, 0, NULL); }
static int e1(B *b, IrOp op, const Type *t, int a) { return emit(b, op, t, 1, &a); }
static int e2(B *b, IrOp op, const Type *t, int a, int c) { int x[2] = {a, c}; return emit(b, op, t, 2, x); }
static int e3(B *b, IrOp op, const Type *t, int a, int c, int d) { int x[3] = {a, c, d}; return emit(b, op, t, 3, x); }
static int ci(B *b, const Type *t, int64_t v) { int i = e0(b, OP_CONST_INT, t); b->f->insts.data[i].ival = v; return i; }
static int cf(B *b, const Type *t, double v) { int i = e0(b, OP_CONST_FLOAT, t); b->f->insts.data[i].fval = v; return i; }
static int ld(B *b, int local) {
  int i = e0(b, OP_LOAD, b->f->locals.data[local].type);
  b->f->insts.data[i].local = local;
  return i;
}
static void st(B *b, int local, int v) { int i = e1(b, OP_STORE, &T_VOID, v); b->f->insts.data[i].local = local; }
static int reg(B *b, IrOp op, int dim) { int i = e0(b, op, &T_I32); b->f->insts.data[i].ival = dim; return i; }
static int cast(B *b, int v, const Type *t) { int i = e1(b, OP_CAST, t, v); b->f->insts.data[i].tyimm = t; return i; }
static void br(B *b, int target) { int i = e0(b, OP_BR, &T_VOID); b->f->insts.data[i].target = target; }
static void cbr(B *b, int c, int t1, int t2) {
  int i = e1(b, OP_CBR, &T_VOID, c);
  b->f->insts.data[i].target = t1;
  b->f->insts.data[i].target2 = t2;
}
static void ret(B *b) { e0(b, OP_RET, &T_VOID); }
static int intrin(B *b, Intrinsic id, const Type *t, int n, const int *args) {
  int i = emit(b, OP_INTRINSIC, t, n, args);
  b->f->insts.data[i].ival = id;
  return i;
}
static int atomic(B *b, AtomicKind k, const Type *t, int arr, int idx, int val) {
  int i = e3(b, OP_ATOMIC, t, arr, idx, val);
  b->f->insts.data[i].ival = k;
  return i;
}

static IrFunc *new_func(const char *name, bool kernel, int nparams, const Type *const *ptypes) {
  IrFunc *f = ir_func_new(&arena, name);
  f->symbol = name;
  f->is_kernel = kernel;
  f->is_device = !kernel;
  f->typed = true;
  f->ret_type = &T_VOID;
  f->nparams = nparams;
  for (int i = 0; i < nparams; i++) {
    char *n = arena_printf(&arena, "p%d", i);
    int l = ir_local_new(&arena, f, n, (SrcLoc){0});
    f->locals.data[l].type = ptypes[i];
  }
  ir_block_new(&arena, f);
  return f;
}

static int new_local(IrFunc *f, const char *name, const Type *t) {
  int l = ir_local_new(&arena, f, name, (SrcLoc){0});
  f->locals.data[l].type = t;
  return l;
}

/* i = blockIdx.x * blockDim.x + threadIdx.x as int64 */
static int global_index(B *b) {
  int t = cast(b, reg(b, OP_THREAD_IDX, 0), &T_I64);
  int bi = cast(b, reg(b, OP_BLOCK_IDX, 0), &T_I64);
  int bd = cast(b, reg(b, OP_BLOCK_DIM, 0), &T_I64);
  return e2(b, OP_ADD, &T_I64, e2(b, OP_MUL, &T_I64, bi, bd), t);
}

/* vadd(a, b, c: float32[::1]): c[i] = a[i] + b[i] when i < c.shape[0] */
static IrFunc *build_vadd(void) {
  const Type *pt[3] = {&A_F32C, &A_F32C, &A_F32C};
  IrFunc *f = new_func("vadd", true, 3, pt);
  int li = new_local(f, "i", &T_I64);
  B b = {f, 0};
  st(&b, li, global_index(&b));
  int body = ir_block_new(&arena, f), done = ir_block_new(&arena, f);
  int n = e1(&b, OP_ARRAY_SHAPE, &T_I64, ld(&b, 2));
  cbr(&b, e2(&b, OP_LT, &T_BOOL, ld(&b, li), n), body, done);
  b.blk = body;
  int x = e2(&b, OP_ARRAY_LOAD, &T_F32, ld(&b, 0), ld(&b, li));
  int y = e2(&b, OP_ARRAY_LOAD, &T_F32, ld(&b, 1), ld(&b, li));
  e3(&b, OP_ARRAY_STORE, &T_VOID, ld(&b, 2), e2(&b, OP_ADD, &T_F32, x, y), ld(&b, li));
  br(&b, done);
  b.blk = done;
  ret(&b);
  return f;
}

/* shared memory, barriers, atomics, local arrays, print */
static IrFunc *build_shared(void) {
  const Type *pt[3] = {&A_F32A, &A_I32C, &A_BOOLC};
  IrFunc *f = new_func("shared_k", true, 3, pt);
  B b = {f, 0};
  static const int64_t shp[1] = {128}, shp2[2] = {4, 4}, dyn[1] = {0};
  int sm = e0(&b, OP_SHARED_ARRAY, &A_F32C);
  f->insts.data[sm].tyimm = &A_F32C;
  f->insts.data[sm].shape = shp;
  f->insts.data[sm].ival = 1;
  int dsm = e0(&b, OP_SHARED_ARRAY, &A_F32C);
  f->insts.data[dsm].tyimm = &A_F32C;
  f->insts.data[dsm].shape = dyn;
  f->insts.data[dsm].ival = 2;
  int la = e0(&b, OP_LOCAL_ARRAY, &A_F32C2);
  f->insts.data[la].tyimm = &A_F32C2;
  f->insts.data[la].shape = shp2;
  int tid = cast(&b, reg(&b, OP_THREAD_IDX, 0), &T_I64);
  int v = e2(&b, OP_ARRAY_LOAD, &T_F32, ld(&b, 0), tid);
  e3(&b, OP_ARRAY_STORE, &T_VOID, sm, v, tid);
  e3(&b, OP_ARRAY_STORE, &T_VOID, dsm, v, ci(&b, &T_I64, -1));
  e0(&b, OP_SYNCTHREADS, &T_VOID);
  int w = e2(&b, OP_ARRAY_LOAD, &T_F32, sm, e2(&b, OP_SUB, &T_I64, ci(&b, &T_I64, 127), tid));
  int idx2[4] = {la, w, ci(&b, &T_I64, 1), ci(&b, &T_I64, 2)};
  emit(&b, OP_ARRAY_STORE, &T_VOID, 4, idx2);
  int cnt = e1(&b, OP_SYNCTHREADS_COUNT, &T_I32, ci(&b, &T_I32, 1));
  atomic(&b, AK_ADD, &T_I32, ld(&b, 1), ci(&b, &T_I64, 0), cnt);
  atomic(&b, AK_ADD, &T_F32, ld(&b, 0), ci(&b, &T_I64, 0), w);
  atomic(&b, AK_MAX, &T_F32, ld(&b, 0), ci(&b, &T_I64, 1), w);
  atomic(&b, AK_NANMIN, &T_F32, ld(&b, 0), ci(&b, &T_I64, 2), w);
  atomic(&b, AK_MIN, &T_I32, ld(&b, 1), ci(&b, &T_I64, 1), cnt);
  atomic(&b, AK_INC, &T_I32, ld(&b, 1), ci(&b, &T_I64, 2), cnt);
  int cas[4] = {ld(&b, 1), ci(&b, &T_I64, 3), ci(&b, &T_I32, 0), cnt};
  int c = emit(&b, OP_ATOMIC, &T_I32, 4, cas);
  f->insts.data[c].ival = AK_CAS;
  int fe = e0(&b, OP_FENCE, &T_VOID);
  f->insts.data[fe].ival = 1;
  e1(&b, OP_SYNCWARP, &T_VOID, ci(&b, &T_U32, 0xffffffff));
  int flag = e2(&b, OP_ARRAY_LOAD, &T_BOOL, ld(&b, 2), ci(&b, &T_I64, 0));
  e3(&b, OP_ARRAY_STORE, &T_VOID, ld(&b, 2), e1(&b, OP_NOT, &T_BOOL, flag), ci(&b, &T_I64, 1));
  int s = e0(&b, OP_CONST_STR, &T_VOID);
  f->insts.data[s].str = "value 100%:";
  int pr[4] = {s, w, cnt, flag};
  emit(&b, OP_PRINT, &T_VOID, 4, pr);
  ret(&b);
  return f;
}

/* dev(x, y: f64) -> f64 = x * y + 1 */
static IrFunc *build_dev(void) {
  const Type *pt[2] = {&T_F64, &T_F64};
  IrFunc *f = new_func("dev", false, 2, pt);
  f->ret_type = &T_F64;
  B b = {f, 0};
  int r = e2(&b, OP_ADD, &T_F64, e2(&b, OP_MUL, &T_F64, ld(&b, 0), ld(&b, 1)), cf(&b, &T_F64, 1.0));
  e1(&b, OP_RET, &T_VOID, r);
  return f;
}

/* callk(a: float64[:, :]): a[i, -1] = dev(a[i, 0], 2.0) */
static IrFunc *build_call(IrFunc *dev) {
  const Type *pt[1] = {&A_F64A2};
  IrFunc *f = new_func("callk", true, 1, pt);
  B b = {f, 0};
  int i = global_index(&b);
  int ld0[3] = {ld(&b, 0), i, ci(&b, &T_I64, 0)};
  int x = emit(&b, OP_ARRAY_LOAD, &T_F64, 3, ld0);
  int c = e2(&b, OP_CALL, &T_F64, x, cf(&b, &T_F64, 2.0));
  f->insts.data[c].callee = dev;
  int sa[4] = {ld(&b, 0), c, i, ci(&b, &T_I64, -1)};
  emit(&b, OP_ARRAY_STORE, &T_VOID, 4, sa);
  ret(&b);
  return f;
}

/* mathk(x: float32[::1], y: float64... as f32 array): libdevice + Python arithmetic */
static IrFunc *build_math(void) {
  const Type *pt[3] = {&A_F32C, &A_I32C, &T_F64};
  IrFunc *f = new_func("mathk", true, 3, pt);
  B b = {f, 0};
  int i = global_index(&b);
  int x = e2(&b, OP_ARRAY_LOAD, &T_F32, ld(&b, 0), i);
  int ex = intrin(&b, IN_EXP, &T_F32, 1, &x);
  int sq = intrin(&b, IN_SQRT, &T_F32, 1, &ex);
  int d = ld(&b, 2);
  int ed = intrin(&b, IN_EXP, &T_F64, 1, &d);
  int sd = intrin(&b, IN_SIN, &T_F64, 1, &ed);
  int pw = e2(&b, OP_POW, &T_F64, sd, ci(&b, &T_I64, 3));
  int pf = e2(&b, OP_POW, &T_F64, pw, d);
  int fd = e2(&b, OP_FLOORDIV, &T_F64, pf, d);
  int fm = e2(&b, OP_MOD, &T_F64, fd, d);
  int mm[2] = {fm, d};
  int mx = intrin(&b, IN_MAX, &T_F64, 2, mm);
  int rn = intrin(&b, IN_ROUND, &T_I64, 1, &mx);
  int iv = cast(&b, e2(&b, OP_ARRAY_LOAD, &T_I32, ld(&b, 1), i), &T_I64);
  int q = e2(&b, OP_FLOORDIV, &T_I64, rn, iv);
  int m = e2(&b, OP_MOD, &T_I64, q, iv);
  int ip = e2(&b, OP_POW, &T_I64, m, ci(&b, &T_I64, 5));
  int pc = intrin(&b, IN_POPC, &T_I64, 1, &ip);
  int isn = intrin(&b, IN_ISNAN, &T_BOOL, 1, &sq);
  int sel[3] = {isn, sq, cast(&b, pc, &T_F32)};
  int r = intrin(&b, IN_SELP, &T_F32, 3, sel);
  e3(&b, OP_ARRAY_STORE, &T_VOID, ld(&b, 0), r, i);
  e3(&b, OP_ARRAY_STORE, &T_VOID, ld(&b, 0), sq, ci(&b, &T_I64, 0));
  e3(&b, OP_ARRAY_STORE, &T_VOID, ld(&b, 1), cast(&b, ip, &T_I32), i);
  ret(&b);
  return f;
}

/* expsqrt(x: float32[::1]): x[i] = sqrt(exp(x[i])) -- the timing kernel */
static IrFunc *build_expsqrt(void) {
  const Type *pt[1] = {&A_F32C};
  IrFunc *f = new_func("expsqrt", true, 1, pt);
  B b = {f, 0};
  int i = global_index(&b);
  int x = e2(&b, OP_ARRAY_LOAD, &T_F32, ld(&b, 0), i);
  int ex = intrin(&b, IN_EXP, &T_F32, 1, &x);
  int sq = intrin(&b, IN_SQRT, &T_F32, 1, &ex);
  e3(&b, OP_ARRAY_STORE, &T_VOID, ld(&b, 0), sq, i);
  ret(&b);
  return f;
}

/* ------------------------------------------------------------ driver ---- */

static CgSession *session;
static const CgTarget sm80 = {CG_NVPTX, "nvptx64-nvidia-cuda", "sm_80", "", 0, false};
static const CgTarget sm90 = {CG_NVPTX, "nvptx64-nvidia-cuda", "sm_90", "", 0, false};

static char *emit_text(IrFunc **fs, int n, const CgTarget *t, const CgOptions *o, CgEmit what) {
  Diags d;
  diags_init(&d, &arena);
  IrCompile c = {0};
  c.arena = &arena;
  c.diags = &d;
  for (int i = 0; i < n; i++)
    vec_push(&arena, &c.funcs, fs[i]);
  IrCompile *cs[1] = {&c};
  char *out = NULL;
  size_t len = 0;
  bool ok = cg_emit(session, cs, 1, t, o, what, &out, &len, &d);
  if (!ok || d.nerrors) {
    StrBuf sb;
    sb_init(&sb);
    diags_render(&d, &sb);
    CHECK(ok, "cg_emit failed: %s", sb.data ? sb.data : "(no diagnostics)");
    sb_free(&sb);
  }
  return out;
}

static void run_ptxas(const char *ptx, const char *arch, const char *what) {
  if (access(KJIT_PTXAS, X_OK) != 0) {
    static bool said;
    if (!said)
      fprintf(stderr, "ptxas not found at %s: ptxas checks skipped\n", KJIT_PTXAS);
    said = true;
    return;
  }
  char path[] = "/tmp/kjit-cg-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0, "mkstemp");
  if (fd < 0)
    return;
  FILE *fp = fdopen(fd, "w");
  fputs(ptx, fp);
  fclose(fp);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "%s -arch=%s %s -o /dev/null", KJIT_PTXAS, arch, path);
  int rc = system(cmd);
  CHECK(rc == 0, "ptxas -arch=%s rejected the PTX of %s (kept at %s)", arch, what, path);
  if (rc == 0)
    unlink(path);
}

/* CG_DUMP=name prints that kernel's raw and optimized LLVM IR and PTX. */
static bool dump_on(const char *what) {
  const char *d = getenv("CG_DUMP");
  return d && strcmp(d, what) == 0;
}

/* Emit LLVM IR and PTX for both SMs; check substrings; run ptxas. */
static void check_kernel(const char *what, IrFunc **fs, int n, const CgOptions *o,
                         const char *const *llvm_has, const char *const *ptx_has) {
  if (dump_on(what)) {
    char *raw = emit_text(fs, n, &sm80, o, CG_EMIT_LLVM_RAW);
    fputs(raw ? raw : "", stdout);
    free(raw);
  }
  char *ll = emit_text(fs, n, &sm80, o, CG_EMIT_LLVM);
  for (int i = 0; ll && llvm_has && llvm_has[i]; i++)
    CHECK(strstr(ll, llvm_has[i]), "%s: LLVM IR lacks '%s'", what, llvm_has[i]);
  if (dump_on(what))
    fputs(ll ? ll : "", stdout);
  free(ll);
  const CgTarget *ts[2] = {&sm80, &sm90};
  for (int k = 0; k < 2; k++) {
    char *ptx = emit_text(fs, n, ts[k], o, CG_EMIT_PTX);
    if (!ptx)
      continue;
    for (int i = 0; ptx_has && ptx_has[i]; i++)
      CHECK(strstr(ptx, ptx_has[i]), "%s (%s): PTX lacks '%s'", what, ts[k]->cpu, ptx_has[i]);
    CHECK(!strstr(ptx, "__nvvm_reflect"), "%s: __nvvm_reflect left in PTX", what);
    if (dump_on(what))
      fputs(ptx, stdout);
    run_ptxas(ptx, ts[k]->cpu, what);
    free(ptx);
  }
}

/* Equal PTX but for comments (a reused target machine numbers its
 * "// callseq N" comments on from the last module). */
static bool same_code(const char *a, const char *b) {
  while (*a || *b) {
    if (a[0] == '/' && a[1] == '/' && b[0] == '/' && b[1] == '/') {
      a += strcspn(a, "\n");
      b += strcspn(b, "\n");
      continue;
    }
    if (*a++ != *b++)
      return false;
  }
  return true;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void bench(const char *what, IrFunc **fs, int n, const CgOptions *o) {
  double t0 = now_ms();
  free(emit_text(fs, n, &sm80, o, CG_EMIT_PTX));
  double first = now_ms() - t0;
  int reps = 20;
  t0 = now_ms();
  for (int i = 0; i < reps; i++)
    free(emit_text(fs, n, &sm80, o, CG_EMIT_PTX));
  printf("bench %-8s first %.2f ms, then %.2f ms per cg_emit (PTX, O3, sm_80)\n", what, first,
         (now_ms() - t0) / reps);
}

int main(int argc, char **argv) {
  arena_init(&arena);
  session = cg_session_new();
  CgOptions o3 = {.opt_level = 3};
  bool do_bench = argc > 1 && strcmp(argv[1], "--bench") == 0;
  if (do_bench) {
    IrFunc *v[1] = {build_vadd()}, *e[1] = {build_expsqrt()}, *m[1] = {build_math()};
    bench("vadd", v, 1, &o3);
    bench("expsqrt", e, 1, &o3);
    bench("heavy", m, 1, &o3);
    cg_session_free(session);
    arena_destroy(&arena);
    return failures ? 1 : 0;
  }

  CHECK(strncmp(cg_llvm_version(), "19.", 3) == 0, "llvm version %s", cg_llvm_version());

  IrFunc *vadd[1] = {build_vadd()};
  static const char *const vadd_ll[] = {"ptx_kernel void @vadd(", "noundef", "!\"kernel\"", NULL};
  static const char *const vadd_ptx[] = {".entry vadd(", "ld.global", "st.global", "add.rn.f32",
                                         "%tid.x", NULL};
  check_kernel("vadd", vadd, 1, &o3, vadd_ll, vadd_ptx);
  char *p80 = emit_text(vadd, 1, &sm80, &o3, CG_EMIT_PTX);
  CHECK(p80 && strstr(p80, ".version 7.0") && strstr(p80, ".target sm_80"), "sm_80 version line");
  free(p80);
  char *p90 = emit_text(vadd, 1, &sm90, &o3, CG_EMIT_PTX);
  CHECK(p90 && strstr(p90, ".version 7.8") && strstr(p90, ".target sm_90"), "sm_90 version line");
  free(p90);

  IrFunc *sh[1] = {build_shared()};
  static const char *const sh_ll[] = {"addrspace(3) global [128 x float] undef", "@__kjit_dynshared",
                                      "atomicrmw fadd", "cmpxchg", "@vprintf", "llvm.nvvm.barrier0",
                                      NULL};
  static const char *const sh_ptx[] = {".shared .align 16 .b8", "bar.sync", "atom.global.add.u32",
                                       "atom.global.add.f32", "atom.inc.u32", "vprintf",
                                       "%dynamic_smem_size", "membar.gl", "bar.warp.sync", NULL};
  check_kernel("shared", sh, 1, &o3, sh_ll, sh_ptx);

  IrFunc *dev = build_dev();
  IrFunc *call[2] = {build_call(dev), dev};
  static const char *const call_ptx[] = {".entry callk(", "ld.global.f64", "st.global.f64", NULL};
  check_kernel("call", call, 2, &o3, NULL, call_ptx);
  CgOptions o0 = {.opt_level = 0};
  dev->opts.inline_mode = 2;
  char *pc0 = emit_text(call, 2, &sm80, &o0, CG_EMIT_PTX);
  CHECK(pc0 && strstr(pc0, ".func"), "noinline keeps the device function");
  if (pc0)
    run_ptxas(pc0, "sm_80", "call O0");
  free(pc0);
  dev->opts.inline_mode = 0;

  IrFunc *es[1] = {build_expsqrt()};
  static const char *const es_ptx[] = {"ex2.approx", "sqrt.rn.f32", "ld.global.f32", NULL};
  check_kernel("expsqrt", es, 1, &o3, NULL, es_ptx);

  IrFunc *math[1] = {build_math()};
  static const char *const math_ll[] = {"define internal", NULL};
  static const char *const math_ptx[] = {"ex2.approx", "sqrt.rn.f32", "popc.b64", NULL};
  check_kernel("math", math, 1, &o3, math_ll, math_ptx);
  CgOptions fast = {.opt_level = 3, .fastmath = true, .max_registers = 32};
  static const char *const fast_ptx[] = {".maxnreg 32", "ex2.approx.ftz.f32", "sqrt.approx", NULL};
  check_kernel("fastmath", math, 1, &fast, NULL, fast_ptx);

  /* libdevice closures are kept per session and set of names: a second
   * compile of the same kernel, after one with other names, links from the
   * kept closure and gives the same PTX as the first. */
  {
    CgSession *kept = session;
    session = cg_session_new(); /* fresh: the closures are made here */
    char *m1 = emit_text(math, 1, &sm90, &o3, CG_EMIT_PTX);
    char *e1 = emit_text(es, 1, &sm90, &o3, CG_EMIT_PTX);
    cg_session_free(session);
    session = kept;             /* made by the checks above, in the other order */
    char *m2 = emit_text(math, 1, &sm90, &o3, CG_EMIT_PTX);
    char *e2 = emit_text(es, 1, &sm90, &o3, CG_EMIT_PTX);
    CHECK(m1 && m2 && same_code(m1, m2), "math PTX differs when linked from a kept closure");
    CHECK(e1 && e2 && same_code(e1, e2), "expsqrt PTX differs when linked from a kept closure");
    free(m1), free(e1), free(m2), free(e2);
  }

  /* lineinfo: .file/.loc directives */
  Source src = {.path = "/tmp/k.py", .text = "", .len = 0};
  IrProgram prog = {.src = &src};
  vadd[0]->insts.data[3].loc = (SrcLoc){&src, 7, 5, 1};
  {
    Diags d;
    diags_init(&d, &arena);
    IrCompile c = {.prog = &prog, .arena = &arena, .diags = &d};
    vec_push(&arena, &c.funcs, vadd[0]);
    IrCompile *cs[1] = {&c};
    CgOptions li = {.opt_level = 3, .lineinfo = true};
    char *out;
    size_t len;
    bool ok = cg_emit(session, cs, 1, &sm80, &li, CG_EMIT_PTX, &out, &len, &d);
    CHECK(ok && strstr(out, ".file") && strstr(out, ".loc"), "lineinfo PTX has .file/.loc");
    if (ok)
      run_ptxas(out, "sm_80", "lineinfo");
    free(ok ? out : NULL);
  }

  /* malformed IR: a diagnostic, not a crash */
  {
    const Type *pt[1] = {&A_F32C};
    IrFunc *bad = new_func("bad", true, 1, pt);
    B b = {bad, 0};
    e2(&b, OP_ADD, &T_F32, ld(&b, 0), ci(&b, &T_I64, 1));
    ret(&b);
    Diags d;
    diags_init(&d, &arena);
    IrCompile c = {.arena = &arena, .diags = &d};
    vec_push(&arena, &c.funcs, bad);
    IrCompile *cs[1] = {&c};
    char *out;
    size_t len;
    bool ok = cg_emit(session, cs, 1, &sm80, &o3, CG_EMIT_PTX, &out, &len, &d);
    CHECK(!ok && d.nerrors == 1 && d.list.data[0].code == 599, "bad IR gives one E599");
  }

  cg_session_free(session);
  arena_destroy(&arena);
  if (failures)
    fprintf(stderr, "test_codegen: %d failure(s)\n", failures);
  else
    printf("test_codegen: all passed\n");
  return failures ? 1 : 0;
}

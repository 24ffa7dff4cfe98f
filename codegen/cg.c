/* cg.c - codegen driver: session, module setup, functions, kernel ABI, emit.
 *
 * cg_emit builds one LLVM module (in its own LLVMContext, so compiles may run
 * on several threads) from typed IrCompiles, links libdevice when a __nv_*
 * function is referenced, runs the new pass manager with the target machine
 * and prints LLVM IR or PTX.  Every IR local is an entry-block alloca; SROA
 * and mem2reg turn them into SSA values.  Kernel ABI: arrays are one
 * by-value struct {ptr, [N x i64] shape, [N x i64] strides(bytes)}. */
#include "codegen/cg_internal.h"
#include "common/xalloc.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Support.h>
#include <llvm-c/Transforms/PassBuilder.h>

/* Target machines no compile is using, by what they were made for: made
 * once and reused (each by one compile at a time: LLVM's codegen may
 * adjust a target machine's options while it runs).  One is retired after
 * CG_TM_USES compiles, as NVPTX's keeps a pool of parameter names that
 * grows with each. */
#define CG_TM_POOL 8
#define CG_TM_USES 256

typedef struct CgTmSlot {
  char *key;                /* triple, cpu, features, opt level; malloc'd */
  LLVMTargetMachineRef tm;
  int uses;                 /* compiles it has served */
} CgTmSlot;

struct CgSession {
  pthread_mutex_t lock;     /* guards lazy libdevice loading and the pool */
  char *libdevice_path;     /* cg_session_set_libdevice (malloc'd) or NULL */
  CgLibdevice *libdevice;   /* NULL until first needed */
  CgTmSlot idle[CG_TM_POOL];
  int nidle;
};

/* DICompileUnit::DebugDirectivesOnly, which the C API's enum lacks: .file/.loc
 * directives without DWARF sections.  With LineTablesOnly NVPTX marks the
 * module `.target sm_XX, debug`, and ptxas then refuses optimized code
 * ("Optimized debugging not supported"), so lineinfo kernels would not load. */
#define KJIT_DWARF_DIRECTIVES_ONLY ((LLVMDWARFEmissionKind)3)

static pthread_once_t targets_once = PTHREAD_ONCE_INIT;

static void init_targets(void) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  LLVMInitializeNativeTarget();     /* the host CPU target (cg_host.c) */
  LLVMInitializeNativeAsmPrinter();
  static const char *const argv[] = {"kjit", "-irce-skip-profitability-checks"};
  LLVMParseCommandLineOptions(2, argv, NULL);
}

void cg_init_targets(void) { pthread_once(&targets_once, init_targets); }

CgSession *cg_session_new(void) {
  cg_init_targets();
  CgSession *s = calloc(1, sizeof *s);
  if (s)
    pthread_mutex_init(&s->lock, NULL);
  return s;
}

void cg_session_set_libdevice(CgSession *s, const char *path) {
  pthread_mutex_lock(&s->lock);
  free(s->libdevice_path);
  s->libdevice_path = path ? xstrdup(path) : NULL;
  pthread_mutex_unlock(&s->lock);
}

void cg_session_free(CgSession *s) {
  if (!s)
    return;
  cg_libdevice_free(s->libdevice);
  free(s->libdevice_path);
  for (int i = 0; i < s->nidle; i++) {
    LLVMDisposeTargetMachine(s->idle[i].tm);
    free(s->idle[i].key);
  }
  pthread_mutex_destroy(&s->lock);
  free(s);
}

/* Made lazily, once per session, under the session lock; the bitcode is
 * read only by the first compile that links it. */
CgLibdevice *cg_session_libdevice(CgSession *s, bool bytes) {
  pthread_mutex_lock(&s->lock);
  if (!s->libdevice)
    s->libdevice = cg_libdevice_new(s->libdevice_path);
  CgLibdevice *ld = s->libdevice;
  if (ld && bytes)
    cg_libdevice_load(ld);
  pthread_mutex_unlock(&s->lock);
  return ld;
}

static char llvm_version[32];

static void fill_llvm_version(void) {
  unsigned ma, mi, pa;
  LLVMGetVersion(&ma, &mi, &pa);
  snprintf(llvm_version, sizeof llvm_version, "%u.%u.%u", ma, mi, pa);
}

const char *cg_llvm_version(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, fill_llvm_version);
  return llvm_version;
}

/* ------------------------------------------------------------- types ---- */

const Type *cg_scalar(TypeKind k) {
  static const Type scalars[TY_C128 + 1] = {
#define S(K) [K] = {.kind = K}
      S(TY_VOID), S(TY_NONE), S(TY_BOOL), S(TY_I8), S(TY_I16), S(TY_I32), S(TY_I64), S(TY_U8),
      S(TY_U16), S(TY_U32), S(TY_U64), S(TY_F16), S(TY_F32), S(TY_F64), S(TY_C64), S(TY_C128),
#undef S
  };
  return k <= TY_C128 ? &scalars[k] : NULL;
}

bool cg_is_int(const Type *t) { return t && t->kind >= TY_I8 && t->kind <= TY_U64; }
bool cg_is_signed(const Type *t) { return t && t->kind >= TY_I8 && t->kind <= TY_I64; }
bool cg_is_float(const Type *t) { return t && t->kind >= TY_F16 && t->kind <= TY_F64; }

int cg_bits(const Type *t) {
  static const int bits[] = {[TY_BOOL] = 1, [TY_I8] = 8, [TY_I16] = 16, [TY_I32] = 32,
                             [TY_I64] = 64, [TY_U8] = 8, [TY_U16] = 16, [TY_U32] = 32,
                             [TY_U64] = 64, [TY_F16] = 16, [TY_F32] = 32, [TY_F64] = 64,
                             [TY_C64] = 64, [TY_C128] = 128};
  if (t && t->kind == TY_BF16)
    return 16;
  if (ty_is_fp8(t))
    return 8;
  return t && t->kind <= TY_C128 ? bits[t->kind] : 0;
}

int cg_size(const Type *t) {
  if (!t)
    return 0;
  if (t->kind == TY_RECORD || t->kind == TY_NESTED || t->kind == TY_CHARSEQ)
    return t->size;
  return t->kind == TY_BOOL ? 1 : cg_bits(t) / 8;
}

LLVMTypeRef cg_array_struct(Cg *cg, int ndim) {
  LLVMTypeRef dims = LLVMArrayType2(cg->t_i64, (uint64_t)ndim);
  LLVMTypeRef fields[3] = {cg->t_ptr, dims, dims};
  return LLVMStructTypeInContext(cg->ctx, fields, 3, 0);
}

LLVMTypeRef cg_type(Cg *cg, const Type *t) {
  if (!t)
    return NULL;
  switch (t->kind) {
  case TY_VOID: return cg->t_void;
  case TY_NONE: case TY_FUNC: case TY_DTYPE: /* no run-time data */
    return LLVMStructTypeInContext(cg->ctx, NULL, 0, 0);
  case TY_BOOL: return cg->t_i1;
  case TY_I8: case TY_U8: return cg->t_i8;
  case TY_I16: case TY_U16: return cg->t_i16;
  case TY_I32: case TY_U32: return cg->t_i32;
  case TY_I64: case TY_U64: return cg->t_i64;
  case TY_F16: return cg->t_f16;
  case TY_BF16: return LLVMBFloatTypeInContext(cg->ctx);
  case TY_FP8_E4M3: case TY_FP8_E5M2: case TY_FP8_E8M0: return cg->t_i8;
  case TY_F32: return cg->t_f32;
  case TY_F64: return cg->t_f64;
  case TY_C64: case TY_C128: {
    LLVMTypeRef e = t->kind == TY_C64 ? cg->t_f32 : cg->t_f64;
    LLVMTypeRef f[2] = {e, e};
    return LLVMStructTypeInContext(cg->ctx, f, 2, 0);
  }
  case TY_ARRAY: return cg_array_struct(cg, t->ndim);
  case TY_TUPLE: {
    LLVMTypeRef buf[16], *f = t->nelems <= 16 ? buf : xmalloc(sizeof *f * (size_t)t->nelems);
    for (int i = 0; i < t->nelems; i++) {
      f[i] = cg_type(cg, t->elems[i]);
      if (!f[i] || f[i] == cg->t_void)
        f[i] = LLVMStructTypeInContext(cg->ctx, NULL, 0, 0);
    }
    LLVMTypeRef r = LLVMStructTypeInContext(cg->ctx, f, (unsigned)t->nelems, 0);
    if (f != buf)
      free(f);
    return r;
  }
  case TY_STR: case TY_BYTES: return cg->t_ptr; /* the constant's text */
  case TY_PTR: return cg->t_ptr;         /* a raw pointer (CPointer) */
  case TY_RECORD: return cg->t_ptr;      /* a reference to the record's bytes */
  case TY_GRID_GROUP: return cg->t_i64;  /* the grid workspace's address */
  default: return NULL;
  }
}

LLVMTypeRef cg_mem_type(Cg *cg, const Type *t) {
  if (t && t->kind == TY_RECORD) /* its bytes, so a typed GEP strides by its size */
    return LLVMArrayType2(cg->t_i8, (uint64_t)t->size);
  return t && t->kind == TY_BOOL ? cg->t_i8 : cg_type(cg, t);
}

/* ------------------------------------------------------- diagnostics ---- */

void cg_fail(Cg *cg, const Inst *in, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  SrcLoc loc = in ? in->loc : (SrcLoc){0};
  diag_error(cg->diags, E_INTERNAL, loc, NULL, "internal error in codegen: %s", msg);
  cg->failed = true;
}

void cg_unsupported(Cg *cg, const Inst *in, const char *what) {
  SrcLoc loc = in ? in->loc : (SrcLoc){0};
  diag_error(cg->diags, E_CG_UNSUPPORTED, loc, NULL, "%s is not supported on the %s target yet",
             what, cg->hooks->name);
  cg->failed = true;
}

/* ----------------------------------------------------------- helpers ---- */

LLVMValueRef cg_entry_alloca(Cg *cg, LLVMTypeRef ty, const char *name) {
  LLVMBuilderRef eb = LLVMCreateBuilderInContext(cg->ctx);
  LLVMValueRef first = LLVMGetFirstInstruction(cg->entry);
  if (first)
    LLVMPositionBuilderBefore(eb, first);
  else
    LLVMPositionBuilderAtEnd(eb, cg->entry);
  LLVMValueRef a = LLVMBuildAlloca(eb, ty, name);
  LLVMDisposeBuilder(eb);
  return a;
}

/* Float ops may always contract into FMA (as nvcc and Numba's NVVM do by
 * default); fastmath allows everything. */
LLVMValueRef cg_fp(Cg *cg, LLVMValueRef v) {
  if (v && LLVMIsAInstruction(v) && LLVMCanValueUseFastMathFlags(v))
    LLVMSetFastMathFlags(v, cg->opts->fastmath ? LLVMFastMathAll : LLVMFastMathAllowContract);
  return v;
}

LLVMValueRef cg_intrinsic(Cg *cg, const char *name, LLVMTypeRef *over, int nover,
                          LLVMValueRef *args, int nargs) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  if (!id) {
    cg_fail(cg, NULL, "unknown LLVM intrinsic %s", name);
    return NULL;
  }
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(cg->mod, id, over, (size_t)nover);
  LLVMTypeRef fty = LLVMIntrinsicGetType(cg->ctx, id, over, (size_t)nover);
  return cg_fp(cg, LLVMBuildCall2(cg->b, fty, fn, args, (unsigned)nargs, ""));
}

LLVMValueRef cg_call_extern(Cg *cg, const char *name, LLVMTypeRef ret,
                            LLVMValueRef *args, int nargs) {
  LLVMTypeRef tys[16];
  if (nargs > 16) {
    cg_fail(cg, NULL, "call of %s with %d arguments", name, nargs);
    return NULL;
  }
  for (int i = 0; i < nargs; i++)
    tys[i] = LLVMTypeOf(args[i]);
  LLVMTypeRef fty = LLVMFunctionType(ret, tys, (unsigned)nargs, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, name);
  if (!fn)
    fn = LLVMAddFunction(cg->mod, name, fty);
  else if (LLVMGlobalGetValueType(fn) != fty) {
    cg_fail(cg, NULL, "conflicting declarations of %s", name);
    return NULL;
  }
  return cg_fp(cg, LLVMBuildCall2(cg->b, fty, fn, args, (unsigned)nargs, ""));
}

LLVMValueRef cg_const_i64(Cg *cg, int64_t v) { return LLVMConstInt(cg->t_i64, (unsigned long long)v, 1); }
LLVMValueRef cg_const_i32(Cg *cg, int32_t v) { return LLVMConstInt(cg->t_i32, (unsigned long long)(int64_t)v, 1); }

/* A private constant string; returns a generic pointer to it. */
LLVMValueRef cg_cstring(Cg *cg, const char *s, const char *name) {
  LLVMValueRef init = LLVMConstStringInContext2(cg->ctx, s, strlen(s), 0);
  LLVMValueRef g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  return g;
}

LLVMValueRef cg_make_array(Cg *cg, int ndim, LLVMValueRef data,
                           LLVMValueRef *shape, LLVMValueRef *strides) {
  LLVMValueRef v = LLVMGetPoison(cg_array_struct(cg, ndim));
  v = LLVMBuildInsertValue(cg->b, v, data, 0, "");
  for (int k = 0; k < ndim; k++) {
    LLVMValueRef sh = LLVMBuildExtractValue(cg->b, v, 1, "");
    sh = LLVMBuildInsertValue(cg->b, sh, shape[k], (unsigned)k, "");
    v = LLVMBuildInsertValue(cg->b, v, sh, 1, "");
    LLVMValueRef st = LLVMBuildExtractValue(cg->b, v, 2, "");
    st = LLVMBuildInsertValue(cg->b, st, strides[k], (unsigned)k, "");
    v = LLVMBuildInsertValue(cg->b, v, st, 2, "");
  }
  return v;
}

/* ------------------------------------------------------- debug info ---- */

/* path with the prefix map's OLD directory replaced by NEW (into buf);
 * path itself when it does not start with OLD or there is no map. */
static const char *map_path(const char *map, const char *path, char *buf, size_t len) {
  const char *eq = map ? strchr(map, '=') : NULL;
  size_t n = eq ? (size_t)(eq - map) : 0;
  if (!eq || !n || strncmp(path, map, n) != 0 || (path[n] && path[n] != '/' && map[n - 1] != '/'))
    return path;
  const char *rest = path + n;
  if (!eq[1] && *rest == '/')
    rest++;                                    /* "OLD=": relative to OLD */
  snprintf(buf, len, "%s%s", eq + 1, rest);
  return buf;
}

static void split_path(const char *path, char *dir, size_t ndir, const char **base) {
  const char *slash = strrchr(path, '/');
  if (!slash) {
    snprintf(dir, ndir, ".");
    *base = path;
    return;
  }
  snprintf(dir, ndir, "%.*s", (int)(slash - path), path);
  *base = slash + 1;
}

static void begin_debug_info(Cg *cg, const Source *src) {
  if (!(cg->opts->lineinfo || cg->opts->debug))
    return;
  char mapped[2048];
  const char *path = map_path(cg->opts->prefix_map, src && src->path ? src->path : "<string>",
                              mapped, sizeof mapped);
  char dir[1024];
  const char *base;
  split_path(path, dir, sizeof dir, &base);
  cg->dib = LLVMCreateDIBuilder(cg->mod);
  cg->di_file = LLVMDIBuilderCreateFile(cg->dib, base, strlen(base), dir, strlen(dir));
  cg->di_cu = LLVMDIBuilderCreateCompileUnit(
      cg->dib, LLVMDWARFSourceLanguagePython, cg->di_file, "kjit", 4, cg->opts->opt_level > 0,
      "", 0, 0, "", 0, KJIT_DWARF_DIRECTIVES_ONLY, 0, 0, 0, "", 0, "", 0);
  LLVMAddModuleFlag(cg->mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18,
                    LLVMValueAsMetadata(cg_const_i32(cg, (int32_t)LLVMDebugMetadataVersion())));
  LLVMAddModuleFlag(cg->mod, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13,
                    LLVMValueAsMetadata(cg_const_i32(cg, 2)));
}

/* A function of an imported module lies in its own file (lower/modlink.h);
 * generated ones (@cuda.reduce) and the kernel file's use the unit's. */
static LLVMMetadataRef function_file(Cg *cg, const IrFunc *f) {
  const Source *s = f->ast && !f->generated ? f->ast->loc.src : NULL;
  if (!s || !s->path)
    return cg->di_file;
  char dir[1024], mapped[2048];
  const char *base;
  split_path(map_path(cg->opts->prefix_map, s->path, mapped, sizeof mapped), dir, sizeof dir, &base);
  return LLVMDIBuilderCreateFile(cg->dib, base, strlen(base), dir, strlen(dir));
}

static void begin_function_debug(Cg *cg, const IrFunc *f) {
  cg->di_scope = NULL;
  if (!cg->dib)
    return;
  unsigned line = f->ast ? (unsigned)f->ast->loc.line : 1;
  LLVMMetadataRef file = function_file(cg, f);
  LLVMMetadataRef sty = LLVMDIBuilderCreateSubroutineType(cg->dib, file, NULL, 0, LLVMDIFlagZero);
  const char *sym = f->symbol ? f->symbol : f->name;
  cg->di_scope = LLVMDIBuilderCreateFunction(
      cg->dib, file, f->name, strlen(f->name), sym, strlen(sym), file, line, sty,
      !f->is_kernel, 1, line, LLVMDIFlagZero, cg->opts->opt_level > 0);
  LLVMSetSubprogram(cg->fn, cg->di_scope);
}

/* Point the builder's debug location at in's source line (or clear it). */
static void set_debug_loc(Cg *cg, const Inst *in) {
  if (!cg->di_scope)
    return;
  unsigned line = in && in->loc.line > 0 ? (unsigned)in->loc.line
                  : cg->f->ast ? (unsigned)cg->f->ast->loc.line : 1;
  unsigned col = in && in->loc.col > 0 ? (unsigned)in->loc.col : 0;
  LLVMMetadataRef loc = LLVMDIBuilderCreateDebugLocation(cg->ctx, line, col, cg->di_scope, NULL);
  LLVMSetCurrentDebugLocation2(cg->b, loc);
}

/* --------------------------------------------------------- functions ---- */

/* With fastmath, the attributes that let the backend use approximate
 * division/sqrt and flush f32 denormals (Numba: ftz, prec_div/sqrt off).
 * Also applied to linked libdevice code, whose "false" values would
 * otherwise win when it is inlined. */
void cg_set_fastmath_attrs(Cg *cg, LLVMValueRef fn) {
  static const char *const attrs[][2] = {
      {"unsafe-fp-math", "true"}, {"no-infs-fp-math", "true"}, {"no-nans-fp-math", "true"},
      {"no-signed-zeros-fp-math", "true"}, {"approx-func-fp-math", "true"},
      {"denormal-fp-math-f32", "preserve-sign,preserve-sign"}};
  if (!cg->opts->fastmath)
    return;
  for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++)
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(cg->ctx, attrs[i][0], (unsigned)strlen(attrs[i][0]),
                                                      attrs[i][1], (unsigned)strlen(attrs[i][1])));
}

/* A tuple holding no value at all: (), ((), ()). */
static bool empty_tuple(const Type *t) {
  if (!t || t->kind != TY_TUPLE)
    return false;
  for (int i = 0; i < t->nelems; i++)
    if (!empty_tuple(t->elems[i]))
      return false;
  return true;
}

/* NVPTX kernels cannot take a zero-size parameter: an empty tuple travels
 * as an unused i8 there, and the prologue stores the empty value. */
static bool placeholder_param(const Cg *cg, const IrFunc *f, const Type *t) {
  return f->is_kernel && cg->target->kind == CG_NVPTX && empty_tuple(t);
}

/* The LLVM type of parameter i: kernels take bools as i8. */
static LLVMTypeRef param_type(Cg *cg, const IrFunc *f, int i) {
  const Type *t = f->locals.data[i].type;
  if (f->is_kernel && t && t->kind == TY_BOOL)
    return cg->t_i8;
  if (placeholder_param(cg, f, t) || (t && (t->kind == TY_NONE || ty_is_ctvalue(t))))
    /* no data (None, a function or dtype value): one ignored byte */
    return cg->t_i8;
  return cg_type(cg, t);
}

static LLVMValueRef declare_function(Cg *cg, const IrFunc *f) {
  const char *sym = f->symbol ? f->symbol : f->name;
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, sym);
  if (fn)
    return fn;
  LLVMTypeRef ptys[CG_MAX_ARGS];
  if (f->nparams > CG_MAX_PARAMS) {
    cg_unsupported(cg, NULL, "a function with more than 512 parameters");
    return NULL;
  }
  int nh = cg->hooks->hidden_params ? cg->hooks->hidden_params(cg, ptys) : 0;
  for (int i = 0; i < f->nparams; i++) {
    ptys[nh + i] = param_type(cg, f, i);
    if (!ptys[nh + i] || ptys[nh + i] == cg->t_void) {
      cg_fail(cg, NULL, "parameter %d of %s has no type", i, f->name);
      return NULL;
    }
  }
  LLVMTypeRef ret = f->is_kernel ? cg->t_void : cg_type(cg, f->ret_type ? f->ret_type : cg_scalar(TY_VOID));
  if (!ret)
    ret = cg->t_void;
  fn = LLVMAddFunction(cg->mod, sym, LLVMFunctionType(ret, ptys, (unsigned)(nh + f->nparams), 0));
  unsigned nounwind = LLVMGetEnumAttributeKindForName("nounwind", 8);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->ctx, nounwind, 0));
  cg_set_fastmath_attrs(cg, fn);
  if (f->is_kernel) {
    cg->hooks->mark_kernel(cg, fn, f);
    unsigned noundef = LLVMGetEnumAttributeKindForName("noundef", 7);
    for (int i = 0; i < f->nparams; i++)
      if (f->locals.data[i].type && f->locals.data[i].type->kind == TY_ARRAY)
        LLVMAddAttributeAtIndex(fn, (unsigned)(nh + i) + 1, LLVMCreateEnumAttribute(cg->ctx, noundef, 0));
  } else {
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    /* a function on a recursion cycle cannot be inlined into itself */
    const char *inl = f->opts.inline_mode == 2 || f->recursive ? "noinline" : "alwaysinline";
    unsigned k = LLVMGetEnumAttributeKindForName(inl, strlen(inl));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(cg->ctx, k, 0));
  }
  return fn;
}

/* Entry block: one alloca per typed local, parameters stored into theirs. */
static void lower_prologue(Cg *cg) {
  const IrFunc *f = cg->f;
  cg->entry = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "entry");
  for (int i = 0; i < f->blocks.len; i++)
    cg->bbs[i] = LLVMAppendBasicBlockInContext(cg->ctx, cg->fn, "");
  LLVMPositionBuilderAtEnd(cg->b, cg->entry);
  set_debug_loc(cg, NULL);
  for (int i = 0; i < f->locals.len; i++) {
    const IrLocal *l = &f->locals.data[i];
    LLVMTypeRef ty = cg->narrow && cg->narrow[i] ? cg->t_i32 : cg_type(cg, l->type);
    if (!ty || ty == cg->t_void)
      continue;
    cg->slots[i] = LLVMBuildAlloca(cg->b, ty, l->name ? l->name : "");
  }
  for (int i = 0; i < f->nparams; i++) {
    if (!cg->slots[i] || f->locals.data[i].type->kind == TY_NONE ||
        ty_is_ctvalue(f->locals.data[i].type))
      continue; /* None, functions and dtypes have no bytes to keep */
    LLVMValueRef p = LLVMGetParam(cg->fn, (unsigned)(cg_nhidden(cg) + i));
    const Type *t = f->locals.data[i].type;
    if (f->is_kernel && t->kind == TY_BOOL)
      p = LLVMBuildICmp(cg->b, LLVMIntNE, p, LLVMConstInt(cg->t_i8, 0, 0), "");
    if (placeholder_param(cg, f, t))
      p = LLVMConstNull(cg_type(cg, t));
    if (f->is_kernel && t->kind == TY_ARRAY) {
      LLVMValueRef d = LLVMBuildExtractValue(cg->b, p, 0, "");
      p = LLVMBuildInsertValue(cg->b, p, cg->hooks->param_pointer(cg, d), 0, "");
    }
    if (f->is_kernel && t->kind == TY_PTR) /* a host-given address: global memory */
      p = cg->hooks->param_pointer(cg, p);
    LLVMBuildStore(cg->b, p, cg->slots[i]);
  }
}

static void lower_block(Cg *cg, int bi) {
  const IrBlock *blk = &cg->f->blocks.data[bi];
  cg->cur_block = bi;
  LLVMPositionBuilderAtEnd(cg->b, cg->bbs[bi]);
  for (int j = 0; j < blk->insts.len && !cg->failed; j++) {
    int idx = blk->insts.data[j];
    if (idx < 0 || idx >= cg->f->insts.len) {
      cg_fail(cg, NULL, "instruction index %d out of range in %s", idx, cg->f->name);
      return;
    }
    set_debug_loc(cg, &cg->f->insts.data[idx]);
    if (!cg_lower_inst(cg, idx))
      return;
  }
  if (!cg->failed && !LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(cg->b)))
    cg_fail(cg, NULL, "block %d of %s has no terminator", bi, cg->f->name);
}

/* The blocks reachable from the entry, with each `cbr assert.on` taken
 * one way (the function's debug option): without debug an assert's check
 * and failure blocks are never emitted, at any opt level.  calloc'd. */
static bool *live_blocks(const IrFunc *f) {
  bool *live = xcalloc((size_t)f->blocks.len + 1, 1);
  int *work = xmalloc(sizeof(int) * ((size_t)f->blocks.len + 1));
  int n = 0;
  live[0] = true;
  work[n++] = 0;
  while (n > 0) {
    const IrBlock *b = &f->blocks.data[work[--n]];
    const Inst *t = b->insts.len ? &f->insts.data[b->insts.data[b->insts.len - 1]] : NULL;
    if (!t || (t->op != OP_BR && t->op != OP_CBR))
      continue;
    bool folded = t->op == OP_CBR && t->nargs == 1 && t->args[0] >= 0 && t->args[0] < f->insts.len &&
                  f->insts.data[t->args[0]].op == OP_ASSERT_ON;
    int succ[2] = {folded && !f->opts.debug ? -1 : t->target,
                   t->op == OP_CBR && !(folded && f->opts.debug) ? t->target2 : -1};
    for (int k = 0; k < 2; k++)
      if (succ[k] >= 0 && succ[k] < f->blocks.len && !live[succ[k]]) {
        live[succ[k]] = true;
        work[n++] = succ[k];
      }
  }
  free(work);
  return live;
}

/* Per block: may it lie in a loop (Cg.in_loop)?  Lowering numbers a loop's
 * blocks from its header to its latch, which branches back to the header,
 * so every block between the two ends of a backward branch is marked (a
 * superset: a loop's exit block is numbered among them).  A difference
 * array keeps it linear in the blocks. */
static bool *mark_loop_blocks(const IrFunc *f) {
  int nb = f->blocks.len;
  int *d = calloc((size_t)nb + 2, sizeof *d);
  bool *m = calloc((size_t)nb + 1, sizeof *m);
  for (int b = 0; d && m && b < nb; b++) {
    const IrBlock *blk = &f->blocks.data[b];
    const Inst *t = blk->insts.len ? &f->insts.data[blk->insts.data[blk->insts.len - 1]] : NULL;
    if (!t || (t->op != OP_BR && t->op != OP_CBR))
      continue;
    int succ[2] = {t->target, t->op == OP_CBR ? t->target2 : -1};
    for (int k = 0; k < 2; k++)
      if (succ[k] >= 0 && succ[k] <= b) {
        d[succ[k]]++;
        d[b + 1]--;
      }
  }
  for (int b = 0, run = 0; d && m && b < nb; b++) {
    run += d[b];
    m[b] = run > 0;
  }
  free(d);
  return m;
}

/* Per local: does it hold a shared, local or constant array (Cg.fixed_shape)? */
static bool *mark_fixed_shapes(const IrFunc *f) {
  bool *m = calloc((size_t)f->locals.len + 1, sizeof *m);
  for (int k = 0; m && k < f->insts.len; k++) {
    const Inst *in = &f->insts.data[k];
    if (in->op != OP_STORE || in->local < 0 || in->local >= f->locals.len || in->nargs < 1 ||
        in->args[0] < 0 || in->args[0] >= f->insts.len)
      continue;
    IrOp op = f->insts.data[in->args[0]].op;
    m[in->local] |= op == OP_SHARED_ARRAY || op == OP_LOCAL_ARRAY || op == OP_CONST_ARRAY;
  }
  return m;
}

static void define_function(Cg *cg, const IrCompile *c, const IrFunc *f) {
  LLVMValueRef fn = declare_function(cg, f);
  if (!fn || LLVMCountBasicBlocks(fn) > 0)
    return;
  if (f->blocks.len == 0) {
    cg_fail(cg, NULL, "function %s has no blocks", f->name);
    return;
  }
  cg->f = f;
  cg->fn = fn;
  cg->vals = xcalloc((size_t)f->insts.len + 1, sizeof *cg->vals);
  cg->slots = xcalloc((size_t)f->locals.len + 1, sizeof *cg->slots);
  cg->bbs = xcalloc((size_t)f->blocks.len, sizeof *cg->bbs);
  cg->compile = c;
  cg->fits32 = ir_compile_fits32(c);
  bool own_narrow = !f->narrow_locals || !f->narrow_insts; /* the driver's narrow pass */
  if (own_narrow) {                  /* IR that did not come through the driver */
    cg->narrow = xcalloc((size_t)f->locals.len + 1, sizeof *cg->narrow);
    ir_narrow_locals(c, f, cg->narrow);
    cg->narrow_inst = xcalloc((size_t)f->insts.len + 1, 1);
    ir_narrow_insts(c, f, cg->narrow_inst);
  } else {
    cg->narrow = f->narrow_locals;
    cg->narrow_inst = f->narrow_insts;
  }
  cg->fixed_shape = mark_fixed_shapes(f);
  cg->in_loop = mark_loop_blocks(f);
  begin_function_debug(cg, f);
  lower_prologue(cg);
  LLVMBuildBr(cg->b, cg->bbs[0]);
  bool *live = live_blocks(f);
  for (int bi = 0; bi < f->blocks.len && !cg->failed; bi++) {
    if (live[bi])
      lower_block(cg, bi);
    else
      LLVMDeleteBasicBlock(cg->bbs[bi]); /* nothing live branches to it */
  }
  free(live);
  free(cg->vals);
  free(cg->slots);
  if (own_narrow) {
    free(cg->narrow);
    free(cg->narrow_inst);
  }
  free(cg->fixed_shape);
  free(cg->in_loop);
  free(cg->bbs);
  cg->in_loop = NULL;
  cg->narrow = NULL;
  cg->narrow_inst = NULL;
  cg->fixed_shape = NULL;
  cg->compile = NULL;
  cg->vals = cg->slots = NULL;
  cg->bbs = NULL;
  cg->f = NULL;
}

/* ------------------------------------------------------ target machine -- */

/* The lowest PTX ISA (x10) that LLVM 19 uses for an SM; 0 when unknown. */
static int min_ptx_for_sm(const char *cpu) {
  static const struct { const char *sm; int ptx; } tab[] = {
      {"sm_50", 40}, {"sm_52", 40}, {"sm_53", 42}, {"sm_60", 50}, {"sm_61", 50},
      {"sm_62", 50}, {"sm_70", 60}, {"sm_72", 61}, {"sm_75", 63}, {"sm_80", 70},
      {"sm_86", 71}, {"sm_87", 74}, {"sm_89", 78}, {"sm_90", 78}, {"sm_90a", 80}};
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (strcmp(tab[i].sm, cpu) == 0)
      return tab[i].ptx;
  return 0;
}

/* The feature string: as given, else LLVM's minimum for the SM; clamped. */
static bool choose_features(Cg *cg, char *buf, size_t n) {
  const char *cpu = cg->target->cpu ? cg->target->cpu : "sm_80";
  const char *feat = cg->target->features ? cg->target->features : "";
  int max = cg->target->ptx_version_max;
  int need = min_ptx_for_sm(cpu);
  const char *p = strstr(feat, "+ptx");
  int given = p ? atoi(p + 4) : 0;
  if (max > 0 && need > max) {
    diag_error(cg->diags, E_CG_PTX_VERSION, (SrcLoc){0}, "compile for an older architecture, or use a newer driver",
               "%s needs PTX ISA %d.%d but at most %d.%d is allowed", cpu, need / 10, need % 10,
               max / 10, max % 10);
    return false;
  }
  if (max > 0 && given > max)
    snprintf(buf, n, "+ptx%d", max);
  else
    snprintf(buf, n, "%s", feat);
  return true;
}

/* An idle target machine made for key (with its use count),
 * taken out of the pool; false if none. */
static bool take_tm(CgSession *s, const char *key, CgTmSlot *out) {
  bool found = false;
  pthread_mutex_lock(&s->lock);
  for (int i = s->nidle - 1; i >= 0 && !found; i--)
    if (strcmp(s->idle[i].key, key) == 0) {
      *out = s->idle[i];
      free(out->key);
      out->key = NULL;
      s->idle[i] = s->idle[--s->nidle];
      found = true;
    }
  pthread_mutex_unlock(&s->lock);
  return found;
}

/* Back into the pool after a compile (disposed when the pool is full or
 * the machine has served its CG_TM_USES). */
static void give_back_tm(CgSession *s, const char *key, CgTmSlot slot) {
  slot.key = slot.uses < CG_TM_USES ? strdup(key) : NULL;
  pthread_mutex_lock(&s->lock);
  bool kept = slot.key && s->nidle < CG_TM_POOL;
  if (kept)
    s->idle[s->nidle++] = slot;
  pthread_mutex_unlock(&s->lock);
  if (!kept) {
    free(slot.key);
    LLVMDisposeTargetMachine(slot.tm);
  }
}

bool cg_create_target_machine(Cg *cg) {
  const char *triple = cg->target->triple ? cg->target->triple : "nvptx64-nvidia-cuda";
  char *err = NULL;
  LLVMTargetRef t;
  if (LLVMGetTargetFromTriple(triple, &t, &err)) {
    diag_error(cg->diags, E_CG_LLVM, (SrcLoc){0}, NULL, "no LLVM target for %s: %s", triple, err);
    LLVMDisposeMessage(err);
    return false;
  }
  char feat[4096]; /* host feature strings are long */
  if (!choose_features(cg, feat, sizeof feat))
    return false;
  LLVMCodeGenOptLevel ol = cg->opts->opt_level <= 0 ? LLVMCodeGenLevelNone
                           : cg->opts->opt_level == 1 ? LLVMCodeGenLevelLess
                           : cg->opts->opt_level == 2 ? LLVMCodeGenLevelDefault
                                                      : LLVMCodeGenLevelAggressive;
  if (ol == LLVMCodeGenLevelAggressive && cg->hooks->o3_codegen_default)
    ol = LLVMCodeGenLevelDefault;
  const char *cpu = cg->target->cpu ? cg->target->cpu : "sm_80";
  int n = snprintf(cg->tm_key, sizeof cg->tm_key, "%s|%s|%d|%s|%d", triple, cpu, (int)ol, feat,
                   (int)cg->target->pic);
  if (!cg->session || n < 0 || (size_t)n >= sizeof cg->tm_key)
    cg->tm_key[0] = '\0';              /* not pooled (long host feature lists) */
  CgTmSlot slot = {0};
  if (cg->tm_key[0] && take_tm(cg->session, cg->tm_key, &slot)) {
    cg->tm = slot.tm;
    cg->tm_uses = slot.uses;
  }
  if (!cg->tm)
    cg->tm = LLVMCreateTargetMachine(t, triple, cpu, feat, ol, cg->target->pic ? LLVMRelocPIC : LLVMRelocDefault,
                                     LLVMCodeModelDefault);
  if (!cg->tm) {
    diag_error(cg->diags, E_CG_LLVM, (SrcLoc){0}, NULL, "cannot create a target machine for %s", triple);
    return false;
  }
  LLVMSetTarget(cg->mod, triple);
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(cg->tm);
  LLVMSetModuleDataLayout(cg->mod, td);
  LLVMDisposeTargetData(td);
  return true;
}

/* --------------------------------------------------------- pipeline ---- */

static bool run_pipeline(Cg *cg, const char *pipeline) {
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(cg->mod, pipeline, cg->tm, po);
  LLVMDisposePassBuilderOptions(po);
  if (e) {
    char *m = LLVMGetErrorMessage(e);
    diag_error(cg->diags, E_CG_LLVM, (SrcLoc){0}, NULL, "LLVM passes failed: %s", m);
    LLVMDisposeErrorMessage(m);
    return false;
  }
  return true;
}

typedef struct BlockAt {
  LLVMBasicBlockRef b;
  int at;                     /* its place in the function's layout */
} BlockAt;

static int block_cmp(const void *x, const void *y) {
  uintptr_t a = (uintptr_t)((const BlockAt *)x)->b, b = (uintptr_t)((const BlockAt *)y)->b;
  return a < b ? -1 : a > b;
}

/* Whether f's control flow has no cycle: every edge leads to a block
 * later in the layout (a total order in which all edges go forward is
 * a topological one).  An edge back to an earlier block counts as a
 * cycle even where it is not one: the full pipeline is always right. */
static bool function_acyclic(LLVMValueRef f) {
  size_t n = LLVMCountBasicBlocks(f);
  if (n < 2)
    return true;
  LLVMBasicBlockRef *bs = malloc(n * sizeof *bs);
  BlockAt *byaddr = malloc(n * sizeof *byaddr);
  bool ok = bs && byaddr; /* no memory: "a cycle", the full pipeline */
  if (ok) {
    LLVMGetBasicBlocks(f, bs);
    for (size_t i = 0; i < n; i++)
      byaddr[i] = (BlockAt){bs[i], (int)i};
    qsort(byaddr, n, sizeof *byaddr, block_cmp);
  }
  for (size_t i = 0; ok && i < n; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bs[i]);
    for (unsigned k = 0, ns = t ? LLVMGetNumSuccessors(t) : 0; ok && k < ns; k++) {
      BlockAt key = {LLVMGetSuccessor(t, k), 0};
      const BlockAt *to = bsearch(&key, byaddr, n, sizeof *byaddr, block_cmp);
      ok = to && to->at > (int)i;
    }
  }
  free(bs);
  free(byaddr);
  return ok;
}

static bool module_acyclic(Cg *cg) {
  for (LLVMValueRef f = LLVMGetFirstFunction(cg->mod); f; f = LLVMGetNextFunction(f))
    if (!function_acyclic(f))
      return false;
  return true;
}

static bool run_passes(Cg *cg) {
  char buf[256];
  int ol = cg->opts->opt_level < 0 ? 0 : cg->opts->opt_level > 3 ? 3 : cg->opts->opt_level;
  const char *pre = ol > 0 && cg->hooks->pre_passes ? cg->hooks->pre_passes : "";
  if (ol == 3 && cg->hooks->o3_acyclic && module_acyclic(cg))
    return run_pipeline(cg, cg->hooks->o3_acyclic);
  if (ol == 3 && cg->hooks->o3_pipeline) { /* the target's tuned middle end */
    if (!run_pipeline(cg, cg->hooks->o3_pipeline))
      return false;
    if (!cg->hooks->o3_mid)
      return true;
    cg->hooks->o3_mid(cg);
    if (!run_pipeline(cg, cg->hooks->o3_late))
      return false;
    if (cg->hooks->o3_after)
      cg->hooks->o3_after(cg);
    return true;
  }
  snprintf(buf, sizeof buf, "%s%sdefault<O%d>", pre, *pre ? "," : "", ol);
  return run_pipeline(cg, buf);
}

static bool verify_module(Cg *cg) {
  char *msg = NULL;
  if (LLVMVerifyModule(cg->mod, LLVMReturnStatusAction, &msg)) {
    diag_error(cg->diags, E_INTERNAL, (SrcLoc){0}, NULL,
               "internal error in codegen: invalid LLVM IR: %.400s", msg ? msg : "");
    LLVMDisposeMessage(msg);
    return false;
  }
  LLVMDisposeMessage(msg);
  return true;
}

static bool print_output(Cg *cg, CgEmit what, char **out, size_t *len) {
  if (what != CG_EMIT_PTX) {
    char *s = LLVMPrintModuleToString(cg->mod);
    *len = strlen(s);
    *out = xmalloc(*len + 1);
    memcpy(*out, s, *len + 1);
    LLVMDisposeMessage(s);
    return true;
  }
  /* The legacy codegen pipeline is built here per module (~0.65 ms of a
   * 2 ms compile): one kept with its target machine and run on a second
   * module aborts in NVPTX's asm printer ("Bad address space found while
   * emitting PTX"), whose per-module state is not reset. */
  return cg_emit_assembly(cg, out, len);
}

bool cg_emit_assembly(Cg *cg, char **out, size_t *len) {
  char *err = NULL;
  LLVMMemoryBufferRef buf = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(cg->tm, cg->mod, LLVMAssemblyFile, &err, &buf)) {
    diag_error(cg->diags, E_CG_LLVM, (SrcLoc){0}, NULL, "%s emission failed: %s",
               cg->target->kind == CG_NVPTX ? "PTX" : "host assembly", err ? err : "");
    LLVMDisposeMessage(err);
    return false;
  }
  *len = LLVMGetBufferSize(buf);
  *out = xmalloc(*len + 1);
  memcpy(*out, LLVMGetBufferStart(buf), *len);
  (*out)[*len] = '\0';
  LLVMDisposeMemoryBuffer(buf);
  return true;
}

/* -------------------------------------------------------------- emit ---- */

int cg_nhidden(Cg *cg) {
  LLVMTypeRef tys[8];
  return cg->hooks->hidden_params ? cg->hooks->hidden_params(cg, tys) : 0;
}

void cg_init(Cg *cg, LLVMContextRef ctx) {
  cg->borrowed_ctx = ctx != NULL;
  cg->ctx = ctx ? ctx : LLVMContextCreate();
  cg->mod = LLVMModuleCreateWithNameInContext("kjit", cg->ctx);
  cg->b = LLVMCreateBuilderInContext(cg->ctx);
  cg->t_void = LLVMVoidTypeInContext(cg->ctx);
  cg->t_i1 = LLVMInt1TypeInContext(cg->ctx);
  cg->t_i8 = LLVMInt8TypeInContext(cg->ctx);
  cg->t_i16 = LLVMInt16TypeInContext(cg->ctx);
  cg->t_i32 = LLVMInt32TypeInContext(cg->ctx);
  cg->t_i64 = LLVMInt64TypeInContext(cg->ctx);
  cg->t_f16 = LLVMHalfTypeInContext(cg->ctx);
  cg->t_f32 = LLVMFloatTypeInContext(cg->ctx);
  cg->t_f64 = LLVMDoubleTypeInContext(cg->ctx);
  cg->t_ptr = LLVMPointerTypeInContext(cg->ctx, 0);
}

void cg_dispose(Cg *cg) {
  if (cg->dib)
    LLVMDisposeDIBuilder(cg->dib);
  LLVMDisposeBuilder(cg->b);
  if (cg->mod)
    LLVMDisposeModule(cg->mod);
  if (cg->tm && cg->session && cg->tm_key[0])
    give_back_tm(cg->session, cg->tm_key,
                 (CgTmSlot){NULL, cg->tm, cg->tm_uses + 1});
  else if (cg->tm)
    LLVMDisposeTargetMachine(cg->tm);
  if (!cg->borrowed_ctx)
    LLVMContextDispose(cg->ctx);
}

/* Declare every function first (calls may precede definitions), then
 * define them; duplicates (same symbol) are emitted once. */
static void lower_compiles(Cg *cg, IrCompile *const *cs, int n) {
  for (int i = 0; i < n && !cg->failed; i++)
    for (int j = 0; j < cs[i]->funcs.len && !cg->failed; j++)
      declare_function(cg, cs[i]->funcs.data[j]);
  for (int i = 0; i < n && !cg->failed; i++)
    for (int j = 0; j < cs[i]->funcs.len && !cg->failed; j++)
      define_function(cg, cs[i], cs[i]->funcs.data[j]);
  for (int i = 0; i < n && !cg->failed; i++) /* a device function alone */
    if (cs[i]->funcs.len && !cs[i]->funcs.data[0]->is_kernel && cg->hooks->device_entry)
      cg->hooks->device_entry(cg, cs[i]->funcs.data[0]);
}

static const CgTargetHooks *hooks_for(const CgTarget *t) {
  return t->kind == CG_NVPTX ? &cg_nvptx_hooks : t->kind == CG_HOST ? &cg_host_hooks : NULL;
}

/* Debug info, every function, verification: the module before any pass. */
bool cg_lower_module(Cg *cg, IrCompile *const *compiles, int ncompiles) {
  begin_debug_info(cg, ncompiles > 0 && compiles[0]->prog ? compiles[0]->prog->src : NULL);
  lower_compiles(cg, compiles, ncompiles);
  if (cg->dib)
    LLVMDIBuilderFinalize(cg->dib);
  return !cg->failed && verify_module(cg);
}

bool cg_optimize(Cg *cg) { return cg->hooks->finish_module(cg) && run_passes(cg); }

bool cg_emit(CgSession *s, IrCompile *const *compiles, int ncompiles,
             const CgTarget *target, const CgOptions *opts, CgEmit what,
             char **out, size_t *len, Diags *diags) {
  *out = NULL;
  *len = 0;
  Cg cg = {.session = s, .target = target, .opts = opts, .diags = diags};
  cg.hooks = hooks_for(target);
  if (!cg.hooks) {
    diag_error(diags, E_CG_UNSUPPORTED, (SrcLoc){0}, NULL, "unknown code generation target %d", (int)target->kind);
    return false;
  }
  cg_init(&cg, NULL);
  bool ok = cg_create_target_machine(&cg) && cg_lower_module(&cg, compiles, ncompiles);
  if (ok && what != CG_EMIT_LLVM_RAW)
    ok = cg_optimize(&cg);
  if (ok)
    ok = print_output(&cg, what, out, len);
  cg_dispose(&cg);
  return ok;
}

/* cg_jit.c - the host JIT: typed IR lowered with the host hooks (cg_host.c),
 * optimized for this machine's CPU, emitted as an object file (which the
 * disk cache can keep: host/cache_host.c) and handed to an ORC LLJIT.
 *
 * One CgJit per program: every module added stays until cg_jit_free, so the
 * kernels compiled for several argument types share one JIT.  kjit_host_*
 * (the executor's barrier functions) and the CPU's __nv_* functions are
 * defined as absolute symbols from the caller's tables; libc
 * and libm come from the process (and libm.so.6 by path, in case the process
 * was linked without it).  Ownership: LLJITBuilder, JITTargetMachineBuilder,
 * object MemoryBuffer and MaterializationUnit pass to ORC when given to it;
 * every LLVM error message is copied into a diagnostic and disposed. */
#include "codegen/cg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>

#include "common/host_abi.h"

struct CgJit {
  LLVMOrcLLJITRef lljit;
  LLVMTargetMachineRef obj_tm; /* emits objects as the JIT's own would */
  CgTarget target;      /* this machine (strings from LLVM, freed at the end) */
  unsigned nmodules;    /* uncached compiles: suffix that keeps entries unique */
  char **loaded;        /* first entry name of every object added */
  int nloaded, loaded_cap;
  char session_err[256]; /* the reason ORC reported of the last failed link */
};

/* ORC reports why a link failed (an undefined symbol) to the session, not
 * to the lookup, whose error only says materializing failed; by default
 * the session prints it on stderr.  Kept for the lookup's diagnostic. */
static void on_session_error(void *ctx, LLVMErrorRef e) {
  CgJit *j = ctx;
  char *m = LLVMGetErrorMessage(e);
  snprintf(j->session_err, sizeof j->session_err, "%s", m);
  LLVMDisposeErrorMessage(m);
}

/* Copies e's message into a diagnostic and disposes it; true when e is success. */
static bool check(LLVMErrorRef e, Diags *d, const char *what) {
  if (!e)
    return true;
  char *m = LLVMGetErrorMessage(e);
  if (d)
    diag_error(d, E_CG_LLVM, (SrcLoc){0}, NULL, "host JIT: %s: %s", what, m);
  LLVMDisposeErrorMessage(m);
  return false;
}

/* ------------------------------------------------------------ creation --- */

static LLVMTargetMachineRef create_jit_tm(const CgTarget *t, Diags *d) {
  LLVMTargetRef target;
  char *err = NULL;
  if (LLVMGetTargetFromTriple(t->triple, &target, &err)) {
    diag_error(d, E_CG_LLVM, (SrcLoc){0}, NULL, "no LLVM target for the host (%s): %s", t->triple, err);
    LLVMDisposeMessage(err);
    return NULL;
  }
  return LLVMCreateTargetMachine(target, t->triple, t->cpu, t->features, LLVMCodeGenLevelAggressive,
                                 LLVMRelocDefault, LLVMCodeModelJITDefault);
}

static bool add_process_symbols(CgJit *j, Diags *d) {
  LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(j->lljit);
  char prefix = LLVMOrcLLJITGetGlobalPrefix(j->lljit);
  LLVMOrcDefinitionGeneratorRef g = NULL;
  if (!check(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&g, prefix, NULL, NULL), d,
             "cannot search the process for symbols"))
    return false;
  LLVMOrcJITDylibAddGenerator(jd, g); /* jd owns g */
  if (!check(LLVMOrcCreateDynamicLibrarySearchGeneratorForPath(&g, "libm.so.6", prefix, NULL, NULL),
             NULL, ""))
    return true; /* no libm.so.6 by that name: the process search may still find it */
  LLVMOrcJITDylibAddGenerator(jd, g);
  return true;
}

/* The executor's functions and the CPU's libdevice, by address (the
 * runtime's tables: common/host_abi.h): the process may not export them (a
 * static link without -rdynamic), and codegen does not link against them. */
static bool add_table_symbols(CgJit *j, const HostSym *const *tables, Diags *d) {
  size_t n = 0;
  for (const HostSym *const *t = tables; t && *t; t++)
    for (const HostSym *s = *t; s->name; s++)
      n++;
  if (n == 0)
    return true;
  LLVMOrcCSymbolMapPair *pairs = malloc(n * sizeof *pairs);
  if (!pairs) {
    diag_error(d, E_CG_LLVM, (SrcLoc){0}, NULL, "host JIT: out of memory for %zu symbols", n);
    return false;
  }
  LLVMJITSymbolFlags fl = {LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable, 0};
  size_t k = 0;
  for (const HostSym *const *t = tables; *t; t++)
    for (const HostSym *s = *t; s->name; s++)
      pairs[k++] = (LLVMOrcCSymbolMapPair){LLVMOrcLLJITMangleAndIntern(j->lljit, s->name),
                                           {(LLVMOrcExecutorAddress)(uintptr_t)s->fn, fl}};
  LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, n); /* owns the names */
  free(pairs);
  return check(LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(j->lljit), mu), d,
               "cannot define the executor's symbols");
}

CgJit *cg_jit_new(const HostSym *const *symbols, Diags *d) {
  cg_init_targets();
  CgJit *j = calloc(1, sizeof *j);
  if (!j)
    return NULL;
  cg_host_target(&j->target);
  LLVMTargetMachineRef tm = create_jit_tm(&j->target, d);
  if (!tm) {
    cg_jit_free(j);
    return NULL;
  }
  if (!(j->obj_tm = create_jit_tm(&j->target, d))) {
    LLVMDisposeTargetMachine(tm);
    cg_jit_free(j);
    return NULL;
  }
  LLVMOrcLLJITBuilderRef b = LLVMOrcCreateLLJITBuilder();
  /* the builder owns the JTMB, which owns tm; LLVMOrcCreateLLJIT owns b */
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(b, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
  if (!check(LLVMOrcCreateLLJIT(&j->lljit, b), d, "cannot create the JIT") ||
      (LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(j->lljit), on_session_error, j),
       false) ||
      !add_process_symbols(j, d) || !add_table_symbols(j, symbols, d)) {
    cg_jit_free(j);
    return NULL;
  }
  return j;
}

void cg_jit_free(CgJit *j) {
  if (!j)
    return;
  if (j->lljit)
    check(LLVMOrcDisposeLLJIT(j->lljit), NULL, "");
  if (j->obj_tm)
    LLVMDisposeTargetMachine(j->obj_tm);
  for (int i = 0; i < j->nloaded; i++)
    free(j->loaded[i]);
  free(j->loaded);
  if (j->target.triple)
    cg_host_target_free(&j->target);
  free(j);
}

/* ------------------------------------------------------------- modules --- */

static size_t attr_number(LLVMValueRef fn, const char *key) {
  LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, key, (unsigned)strlen(key));
  if (!a)
    return 0;
  unsigned n;
  const char *v = LLVMGetStringAttributeValue(a, &n);
  char buf[32];
  snprintf(buf, sizeof buf, "%.*s", (int)n, v);
  return (size_t)strtoull(buf, NULL, 10);
}

/* Reads each entry's flags and static shared size and renames it
 * <symbol>.<suffix> so a later object may define the same kernel again. */
static bool name_entries(Cg *cg, IrCompile *const *cs, int n, const char *suffix, CgHostEntry *out) {
  for (int i = 0; i < n; i++) {
    const IrFunc *f = cs[i]->funcs.len ? cs[i]->funcs.data[0] : NULL;
    LLVMValueRef fn = f && f->symbol ? LLVMGetNamedFunction(cg->mod, f->symbol) : NULL;
    if (!fn || LLVMIsDeclaration(fn) || !f->is_kernel) {
      diag_error(cg->diags, E_INTERNAL, (SrcLoc){0}, NULL,
                 "internal error in codegen: no host entry for %s", f ? f->name : "?");
      return false;
    }
    snprintf(out[i].name, sizeof out[i].name, "%.200s.%.40s", f->symbol, suffix);
    LLVMSetValueName2(fn, out[i].name, strlen(out[i].name));
    out[i].flags = (int)attr_number(fn, "kjit-flags");
    out[i].static_shared = attr_number(fn, "kjit-static-shared");
  }
  return true;
}

/* kjit_call's wrapper <symbol>__cabi, renamed <symbol>__cabi.<suffix>. */
static bool name_cabi(Cg *cg, const char *suffix, CgHostEntry *out) {
  char sym[256];
  snprintf(sym, sizeof sym, "%.200s__cabi", cg->cabi->symbol);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, sym);
  if (!fn || LLVMIsDeclaration(fn)) {
    diag_error(cg->diags, E_INTERNAL, (SrcLoc){0}, NULL,
               "internal error in codegen: no C-ABI wrapper for %s", cg->cabi->name);
    return false;
  }
  snprintf(out->name, sizeof out->name, "%.210s.%.40s", sym, suffix);
  LLVMSetValueName2(fn, out->name, strlen(out->name));
  return true;
}

/* The object the JIT's own compile layer would make: the same target
 * machine settings (create_jit_tm). */
static bool emit_object(CgJit *j, Cg *cg, CgHostObject *obj) {
  char *err = NULL;
  LLVMMemoryBufferRef buf = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(j->obj_tm, cg->mod, LLVMObjectFile, &err, &buf)) {
    diag_error(cg->diags, E_CG_LLVM, (SrcLoc){0}, NULL, "host JIT: cannot emit the object: %s",
               err ? err : "");
    LLVMDisposeMessage(err);
    return false;
  }
  obj->len = LLVMGetBufferSize(buf);
  obj->data = malloc(obj->len ? obj->len : 1);
  if (obj->data)
    memcpy(obj->data, LLVMGetBufferStart(buf), obj->len);
  LLVMDisposeMemoryBuffer(buf);
  return obj->data != NULL;
}

bool cg_jit_compile(CgJit *j, IrCompile *const *cs, int n, bool cabi, const CgOptions *opts,
                    const char *suffix, CgHostObject *obj, Diags *d) {
  memset(obj, 0, sizeof *obj);
  const IrFunc *cabi_fn = cabi && n == 1 && cs[0]->funcs.len ? cs[0]->funcs.data[0] : NULL;
  if (!j || n <= 0 || (cabi && (!cabi_fn || cabi_fn->is_kernel || !cabi_fn->symbol)))
    return false;
  char own[16];
  if (!suffix) {
    snprintf(own, sizeof own, "k%u", j->nmodules++);
    suffix = own;
  }
  obj->n = cabi ? 1 : n;
  if (!(obj->entries = calloc((size_t)obj->n, sizeof *obj->entries)))
    return false;
  Cg cg = {.target = &j->target, .opts = opts, .hooks = &cg_host_hooks, .diags = d, .cabi = cabi_fn};
  cg_init(&cg, NULL);
  bool ok = cg_create_target_machine(&cg) && cg_lower_module(&cg, cs, n) && cg_optimize(&cg) &&
            (cabi ? name_cabi(&cg, suffix, obj->entries) : name_entries(&cg, cs, n, suffix, obj->entries)) &&
            emit_object(j, &cg, obj);
  cg_dispose(&cg);
  if (!ok)
    cg_host_object_free(obj);
  return ok;
}

bool cg_host_emit_asm(CgSession *s, IrCompile *const *cs, int n, const CgTarget *t, const CgOptions *opts,
                      const char *suffix, CgHostEntry *entries, char **out, size_t *len, Diags *d) {
  *out = NULL;
  *len = 0;
  if (n <= 0 || t->kind != CG_HOST)
    return false;
  cg_init_targets();
  Cg cg = {.session = s, .target = t, .opts = opts, .hooks = &cg_host_hooks, .diags = d};
  cg_init(&cg, NULL);
  bool ok = cg_create_target_machine(&cg) && cg_lower_module(&cg, cs, n) && cg_optimize(&cg) &&
            name_entries(&cg, cs, n, suffix, entries) && cg_emit_assembly(&cg, out, len);
  cg_dispose(&cg);
  return ok;
}

void cg_host_object_free(CgHostObject *obj) {
  if (!obj)
    return;
  free(obj->data);
  free(obj->entries);
  memset(obj, 0, sizeof *obj);
}

/* An object whose first entry is already defined in this JIT: the same
 * cache entry loaded for a second argument record (two records can type
 * alike), so adding it again would define its symbols twice. */
static bool was_loaded(CgJit *j, const char *name) {
  for (int i = 0; i < j->nloaded; i++)
    if (strcmp(j->loaded[i], name) == 0)
      return true;
  return false;
}

static bool remember(CgJit *j, const char *name) {
  if (j->nloaded == j->loaded_cap) {
    int cap = j->loaded_cap ? 2 * j->loaded_cap : 8;
    char **nw = realloc(j->loaded, sizeof *nw * (size_t)cap);
    if (!nw)
      return false;
    j->loaded = nw, j->loaded_cap = cap;
  }
  if (!(j->loaded[j->nloaded] = strdup(name)))
    return false;
  j->nloaded++;
  return true;
}

bool cg_jit_load(CgJit *j, const CgHostObject *obj, CgHostKernel *out, Diags *d) {
  if (!j || obj->n <= 0 || !obj->data)
    return false;
  if (!was_loaded(j, obj->entries[0].name)) {
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj->data, obj->len, "kjit-host-object");
    /* the JIT owns buf from here, even when adding fails */
    if (!check(LLVMOrcLLJITAddObjectFile(j->lljit, LLVMOrcLLJITGetMainJITDylib(j->lljit), buf), d,
               "cannot add the object") ||
        !remember(j, obj->entries[0].name))
      return false;
  }
  for (int i = 0; i < obj->n; i++) {
    LLVMOrcExecutorAddress addr = 0;
    char what[320];
    j->session_err[0] = '\0';
    LLVMErrorRef e = LLVMOrcLLJITLookup(j->lljit, &addr, obj->entries[i].name);
    snprintf(what, sizeof what, "cannot materialize the kernel%s%s%s", j->session_err[0] ? " (" : "",
             j->session_err, j->session_err[0] ? ")" : "");
    if (!check(e, d, what))
      return false;
    if (out)
      out[i] = (CgHostKernel){(void *)(uintptr_t)addr, obj->entries[i].flags, obj->entries[i].static_shared};
  }
  return true;
}

const CgTarget *cg_jit_target(const CgJit *j) { return &j->target; }

/* The uncached path: compile, then load. */
static bool add_module(CgJit *j, IrCompile *const *cs, int n, bool cabi, const CgOptions *opts,
                       CgHostKernel *out, Diags *d) {
  CgHostObject obj;
  bool ok = cg_jit_compile(j, cs, n, cabi, opts, NULL, &obj, d) && cg_jit_load(j, &obj, out, d);
  cg_host_object_free(&obj);
  return ok;
}

bool cg_jit_add(CgJit *j, IrCompile *const *cs, int n, const CgOptions *opts, CgHostKernel *out, Diags *d) {
  return add_module(j, cs, n, false, opts, out, d);
}

bool cg_jit_add_cabi(CgJit *j, IrCompile *c, const CgOptions *opts, void **fn, Diags *d) {
  CgHostKernel e = {0};
  if (!add_module(j, &c, 1, true, opts, &e, d))
    return false;
  *fn = e.fn;
  return true;
}

void *cg_jit_lookup(CgJit *j, const char *symbol) {
  LLVMOrcExecutorAddress addr = 0;
  if (!j || !check(LLVMOrcLLJITLookup(j->lljit, &addr, symbol), NULL, ""))
    return NULL;
  return (void *)(uintptr_t)addr;
}
